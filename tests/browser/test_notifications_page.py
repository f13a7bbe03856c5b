"""An owner sets the notifications in Chromium: a Slack address outside the allowed base is
refused on its field with nothing saved, a good one is tested and saved and never shown
again; a closer turns a kind off on their account page. By clicking what the pages show."""

import pytest

from notifications.models import NotificationSettings
from notifications.services import kinds_received
from tests.notifications.slack_stand_in import SlackStandIn

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slack(settings):
    server = SlackStandIn()
    settings.SLACK_WEBHOOK_BASE = f"{server.base}/services"
    yield server
    server.close()


def person(make_member, make_user, workspace, role, address):
    member = make_member(workspace, role, name=f"{role.title()} Person", user=False)
    member.user = make_user(address)
    member.email = address
    member.save()
    return member


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_owner_connects_slack_and_a_closer_turns_a_kind_off(
    chromium, live_server, make_workspace, make_member, make_user, slack, viewport
):
    workspace = make_workspace(name="Northwind Sales", timezone="America/New_York")
    person(make_member, make_user, workspace, "owner", "olive@northwind.test")
    closer = person(make_member, make_user, workspace, "closer", "cole@northwind.test")
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/webhooks/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/settings/{workspace.pk}/webhooks/")
        page.click("#subnav-notifications")
        page.wait_for_url(f"**/settings/{workspace.pk}/notifications/")
        assert page.is_visible("#slack-none")
        page.select_option("#id_digest_hour", "7")
        page.fill("#id_slack_webhook_url", "https://example.test/services/T0/B0/X")
        page.click("#save-notifications")
        field = page.locator(".field.invalid")
        assert "Give a Slack incoming-webhook address under" in field.text_content()
        assert NotificationSettings.objects.get(pk=workspace.pk).digest_hour == 8

        page.select_option("#id_digest_hour", "7")
        page.fill("#id_slack_webhook_url", slack.url())
        page.click("#save-notifications")
        assert page.is_visible("text=Notifications saved and the test message sent to Slack.")
        assert page.is_visible("#slack-connected")
        assert page.input_value("#id_slack_webhook_url") == ""
        assert slack.url() not in page.content()
        assert [hook for hook, _ in slack.received] == ["T000/B000/XXXX"]
        row = NotificationSettings.objects.get(pk=workspace.pk)
        assert (row.digest_hour, row.has_slack) == (7, True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()

    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto("/accounts/")
        sign_in(page, "cole@northwind.test", PASSWORD)
        page.wait_for_url("**/accounts/")
        page.uncheck(f"#kind-{workspace.pk}-daily_digest")
        page.click("text=Save the notifications of Northwind Sales")
        assert page.is_visible("text=Your notifications of Northwind Sales are saved.")
        assert not page.is_checked(f"#kind-{workspace.pk}-daily_digest")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
    assert "daily_digest" not in kinds_received(closer)
