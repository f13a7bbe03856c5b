"""The Webhooks settings pages as a browser posts them (CSRF on): owners and admins add,
test, resend and delete; managers read; others are refused."""

import json
import re
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from core.display import moment_text
from webhooks.models import Delivery, WebhookEndpoint
from workspaces.services import lead_upsert

from ..accounts.test_team_pages import browser, post
from ..conftest import aware

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def team(make_workspace, make_member):
    workspace = make_workspace(name="Northwind Sales", timezone="Europe/Berlin")
    members = {role: make_member(workspace, role) for role in ("owner", "manager", "closer")}
    return SimpleNamespace(workspace=workspace, **members)


def url(team, endpoint=None):
    base = f"/settings/{team.workspace.pk}/webhooks/"
    return f"{base}{endpoint.pk}/" if endpoint else base


def test_an_owner_adds_an_endpoint_and_sees_its_secret_once(team, receiver):
    owner = browser(team.owner)
    page = post(owner, url(team), {"url": receiver.url, "events": ["lead.created"]})
    assert page.status_code == 200
    text = page.content.decode()
    secret = re.search(r'<code id="endpoint-secret">(whsec_[^<]+)</code>', text).group(1)
    endpoint = WebhookEndpoint.objects.get(workspace=team.workspace)
    assert endpoint.event_types == ["lead.created"]
    from webhooks.transport import endpoint_secret  # noqa: PLC0415

    assert endpoint_secret(endpoint) == secret
    again = owner.get(url(team)).content.decode()
    assert secret not in again and receiver.url in again
    assert AuditEvent.objects.filter(action="webhook_endpoint.created").count() == 1


def test_a_refused_url_is_said_under_the_field(team, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    page = post(browser(team.owner), url(team), {"url": "https://10.1.2.3/hook"})
    assert page.status_code == 400
    assert "resolves to a private address" in page.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_ping_shows_in_the_log_and_resend_sends_it_again(team, receiver):
    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    answer = post(owner, url(team, endpoint), {"action": "ping"})
    assert answer.status_code == 302
    (request,) = receiver.wait(1)
    assert json.loads(request.body)["type"] == "ping"
    page = owner.get(url(team, endpoint)).content.decode()
    assert page.count('class="attempt delivered"') == 1
    assert "delivered (200)" in page
    delivery = Delivery.objects.get()
    post(owner, url(team, endpoint), {"action": "resend", "delivery": delivery.pk})
    second = receiver.wait(2)[1]
    assert second.headers["webhook-id"] == request.headers["webhook-id"]
    again = owner.get(url(team, endpoint)).content.decode()
    assert again.count('class="attempt delivered"') == 2
    # Said in words: the event's type and time, never its id.
    with timezone.override(ZoneInfo(team.workspace.timezone)):
        sent = f"The ping event of {moment_text(delivery.event.created_at)} is sent again."
    assert sent in again
    assert f"{delivery.event.id} is sent again" not in again


def test_the_log_filters_by_result_and_type(team, receiver):
    from django.db import transaction  # noqa: PLC0415

    from .receiver import Answer  # noqa: PLC0415

    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    receiver.answers = [Answer(status=500)]
    with transaction.atomic():
        lead_upsert(
            workspace=team.workspace, external_id="L1", created_at=aware("2026-11-02 10:00")
        )
    post(owner, url(team, endpoint), {"action": "ping"})
    receiver.wait(2)
    failed = owner.get(url(team, endpoint) + "?outcome=failed").content.decode()
    assert failed.count('class="attempt failed"') == 1
    assert 'class="attempt delivered"' not in failed
    assert "failed (500): The endpoint answered 500." in failed
    pings = owner.get(url(team, endpoint) + "?type=ping").content.decode()
    rows = pings.split('<table id="attempts"')[1].split("</table>")[0]
    assert rows.count('class="attempt ') == 1
    assert "ping" in rows and "lead.created" not in rows


def test_a_manager_reads_and_may_not_change(team, receiver):
    post(browser(team.owner), url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    manager = browser(team.manager)
    assert manager.get(url(team)).status_code == 200
    page = manager.get(url(team, endpoint)).content.decode()
    assert 'id="ping"' not in page and 'id="add"' not in page
    assert 'id="delete"' not in page
    asking = manager.get(url(team, endpoint) + "delete/")
    assert asking.status_code == 403
    assert "Only an owner or admin deletes a webhook endpoint; ask one." in asking.content.decode()
    # With the form's token from a page it reads, the post is refused all the same.
    token = manager.cookies["csrftoken"].value
    refused = manager.post(url(team, endpoint) + "delete/", {"csrfmiddlewaretoken": token})
    assert refused.status_code == 403
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_closers_and_strangers_are_refused(team, make_workspace, make_member):
    assert browser(team.closer).get(url(team)).status_code == 403
    stranger = make_member(make_workspace(), "owner")
    assert browser(stranger).get(url(team)).status_code == 404


def consequences(page) -> list[str]:
    text = page.content.decode().split('<ul id="consequences">')[1].split("</ul>")[0]
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in text.split("</li>")[:-1]]


def test_delete_asks_first_saying_what_stops_and_what_is_dropped(team, receiver):
    from django.db import transaction  # noqa: PLC0415

    from .receiver import Answer  # noqa: PLC0415

    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url, "events": ["lead.created", "sale.closed"]})
    endpoint = WebhookEndpoint.objects.get()
    page = owner.get(url(team, endpoint)).content.decode()
    assert f'href="{url(team, endpoint)}delete/" id="delete"' in page
    # Two events the receiver refuses wait for their next attempt.
    receiver.answers = [Answer(status=500), Answer(status=500)]
    for n in (1, 2):
        with transaction.atomic():
            lead_upsert(
                workspace=team.workspace, external_id=f"L{n}", created_at=aware("2026-11-02 10:00")
            )
    receiver.wait(2)
    assert Delivery.objects.filter(endpoint=endpoint, state="pending").count() == 2

    asking = owner.get(url(team, endpoint) + "delete/")
    assert asking.status_code == 200
    assert consequences(asking) == [
        "Northwind Sales stops sending its lead.created, sale.closed events to it now.",
        "2 deliveries waiting to be sent are dropped and never sent.",
        "Its secret stops working and its delivery log is deleted with it.",
    ]
    text = asking.content.decode()
    assert "This cannot be undone." in text
    assert f'<a href="{url(team, endpoint)}" class="spaced" id="cancel">Cancel</a>' in text
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()

    answer = post(owner, url(team, endpoint) + "delete/", {})
    assert answer.status_code == 302 and answer["Location"] == url(team)
    assert not WebhookEndpoint.objects.exists()
    assert not Delivery.objects.exists()
    listed = owner.get(url(team)).content.decode()
    assert f"The endpoint {receiver.url} is deleted." in listed
    assert AuditEvent.objects.filter(action="webhook_endpoint.deleted").count() == 1


def test_deleting_an_endpoint_with_nothing_waiting_says_so(team, receiver):
    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    assert consequences(owner.get(url(team, endpoint) + "delete/")) == [
        "Northwind Sales stops sending every event to it now.",
        "No delivery is waiting to be sent.",
        "Its secret stops working and its delivery log is deleted with it.",
    ]


def test_the_endpoint_page_no_longer_deletes_in_one_click(team, receiver):
    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    assert post(owner, url(team, endpoint), {"action": "delete"}).status_code == 404
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_a_resend_of_no_delivery_is_not_found(team, receiver):
    owner = browser(team.owner)
    post(owner, url(team), {"url": receiver.url})
    endpoint = WebhookEndpoint.objects.get()
    for value in ("abc", "12\x00", "99999999999999999999", ""):
        answer = post(owner, url(team, endpoint), {"action": "resend", "delivery": value})
        assert answer.status_code == 404, value
