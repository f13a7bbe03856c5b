"""An owner adds a webhook endpoint in Chromium, copies its secret, sees a delivery in the
log and resends it, by clicking what the pages show (no header set by the test)."""

import json

import pytest
from standardwebhooks import Webhook

from webhooks.models import DeliveryAttempt, WebhookEndpoint

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_owner_adds_an_endpoint_sees_a_delivery_and_resends_it(
    chromium, live_server, make_workspace, make_member, make_user, receiver, viewport
):
    workspace = make_workspace(name="Northwind Sales", timezone="Europe/Berlin")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/webhooks/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/settings/{workspace.pk}/webhooks/")
        assert page.is_visible("#no-endpoints")
        page.fill("#id_url", receiver.url)
        page.fill("#id_description", "CRM sync")
        page.check("input[value='lead.created']")
        page.check("input[value='sale.closed']")
        page.click("#add")
        secret = page.locator("#endpoint-secret").text_content().strip()
        assert secret.startswith("whsec_")
        row = page.locator("#endpoints tbody tr")
        assert row.count() == 1
        assert "lead.created" in row.text_content() and "sale.closed" in row.text_content()
        if viewport is DESKTOP:
            shot(page, "webhooks.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        page.click("#open-created")
        page.click("#ping")
        assert page.is_visible("text=A test event (ping) is on its way")
        (first,) = receiver.wait(1)
        assert Webhook(secret).verify(first.body, first.headers)["type"] == "ping"
        page.reload()
        delivered = page.locator("#attempts tr.attempt")
        assert delivered.count() == 1
        assert "delivered (200)" in delivered.first.text_content()

        page.locator("#attempts tr.attempt button.resend").first.click()
        assert page.is_visible("text=is sent again.")
        second = receiver.wait(2)[1]
        assert second.headers["webhook-id"] == first.headers["webhook-id"]
        assert json.loads(second.body) == json.loads(first.body)
        assert page.locator("#attempts tr.attempt").count() == 2
        if viewport is DESKTOP:
            shot(page, "webhook-log.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.event_types == ["lead.created", "sale.closed"]
    assert DeliveryAttempt.objects.filter(succeeded=True).count() == 2


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_deleting_an_endpoint_asks_first_and_says_what_is_dropped(
    chromium, live_server, make_workspace, make_member, make_user, receiver, viewport
):
    from audit.services import SYSTEM  # noqa: PLC0415
    from webhooks import services  # noqa: PLC0415

    workspace = make_workspace(name="Northwind Sales", timezone="Europe/Berlin")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    made = services.endpoint_create(
        workspace=workspace, url=receiver.url, events=["lead.created"], actor=SYSTEM
    )
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/webhooks/{made.endpoint.pk}/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/webhooks/{made.endpoint.pk}/")
        page.click("#delete")
        page.wait_for_url(f"**/webhooks/{made.endpoint.pk}/delete/")
        assert page.locator("#consequences li").all_inner_texts() == [
            "Northwind Sales stops sending its lead.created events to it now.",
            "No delivery is waiting to be sent.",
            "Its secret stops working and its delivery log is deleted with it.",
        ]
        assert page.is_visible("text=This cannot be undone.")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.click("#cancel")
        page.wait_for_url(f"**/webhooks/{made.endpoint.pk}/")
        assert WebhookEndpoint.objects.filter(pk=made.endpoint.pk).exists()
        page.click("#delete")
        page.click("#confirm-delete")
        page.wait_for_url(f"**/settings/{workspace.pk}/webhooks/")
        assert page.is_visible(f"text=The endpoint {receiver.url} is deleted.")
        assert page.is_visible("#no-endpoints")
    finally:
        context.close()
    assert errors.messages == []
    assert not WebhookEndpoint.objects.exists()
