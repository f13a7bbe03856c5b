"""Calendly's API client, the backfill and the webhook subscription, against answers recorded
in Calendly's documented shapes (tests/integrations/calendly/recorded/), replayed with
respx."""

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
import respx

from audit.models import AuditEvent
from audit.services import SYSTEM
from integrations import backfills, services
from integrations.base import ProviderError
from integrations.calendly import backfill, client
from integrations.models import Connection, Event
from tests.integrations.conftest import utc
from workspaces.models import Call, Lead

from .conftest import API, KEY, ORGANIZATION, TOKEN, USER, calendly_connection, delivery, uri

pytestmark = pytest.mark.django_db

RECORDED = Path(__file__).parent / "recorded"
SINCE = "2026-01-01T00:00:00.000000Z"


def recorded(name, status=200, **headers):
    return httpx.Response(
        status, json=json.loads((RECORDED / f"{name}.json").read_text()), headers=headers
    )


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(client, "_sleep", slept.append)
    # The backfill reads 90 days back from 1 April 2026.
    monkeypatch.setattr(backfill, "_now", lambda: datetime(2026, 4, 1, tzinfo=UTC))
    return slept


@pytest.fixture
def calendly():
    """Calendly's API as recorded: two pages of events (the first answered 429 once), an
    event whose invitees take two pages."""
    with respx.mock(base_url=API, assert_all_called=False) as api:
        api.get("/users/me", name="me").mock(return_value=recorded("users_me"))
        api.get("/scheduled_events", name="events").mock(
            side_effect=[
                recorded("error_429", 429, **{"Retry-After": "7"}),
                recorded("scheduled_events_page_1"),
                recorded("scheduled_events_page_2"),
            ]
        )
        api.get("/scheduled_events/EV1/invitees", name="ev1").mock(
            return_value=recorded("invitees_EV1")
        )
        api.get("/scheduled_events/EV2/invitees", name="ev2").mock(
            side_effect=[recorded("invitees_EV2_page_1"), recorded("invitees_EV2_page_2")]
        )
        api.get("/scheduled_events/EV3/invitees", name="ev3").mock(
            return_value=recorded("invitees_EV3")
        )
        api.post("/webhook_subscriptions", name="subscribe").mock(
            return_value=recorded("webhook_subscription_created", 201)
        )
        yield api


def calls(ws):
    return sorted(
        (
            call.external_id,
            call.lead.email,
            call.booked_at,
            call.scheduled_for,
            call.status,
            call.rescheduled_from.external_id if call.rescheduled_from else None,
            call.attendance,
        )
        for call in Call.objects.filter(workspace=ws).select_related("lead", "rescheduled_from")
    )


def test_the_backfill_reads_every_page_and_makes_the_records_once(team, send, calendly, waits):
    team = team()
    # A webhook already brought Ray's booking: the backfill makes it no second time.
    ray = json.loads((RECORDED / "invitees_EV2_page_2.json").read_text())["collection"][0]
    event = json.loads((RECORDED / "scheduled_events_page_2.json").read_text())["collection"][1]
    send(
        team.connection,
        delivery("invitee.created", {**ray, "scheduled_event": event}, "2026-03-06 11:00"),
    )
    cursors = []
    real_record = backfills.backfill_page_record

    def record(*, connection, page):
        received = real_record(connection=connection, page=page)
        cursors.append(Connection.objects.get(pk=connection.pk).backfill)
        return received

    backfills.backfill_page_record = record
    try:
        connection = services.connection_backfill(connection_id=team.connection.pk)
    finally:
        backfills.backfill_page_record = real_record

    assert cursors == [{"since": SINCE, "page_token": "PT2"}, {}]
    assert connection.state == "connected"
    assert connection.backfill_finished_at is not None
    # The 429's Retry-After was waited, then the same page asked again.
    assert waits == [7]
    first, limited, second = (call.request for call in calendly["events"].calls)
    assert dict(first.url.params) == {"user": USER, "min_start_time": SINCE, "count": "100"}
    assert limited.url == first.url
    assert dict(second.url.params) == {
        "user": USER,
        "min_start_time": SINCE,
        "count": "100",
        "page_token": "PT2",
    }
    assert first.headers["Authorization"] == f"Bearer {TOKEN}"
    ev2_pages = [dict(call.request.url.params) for call in calendly["ev2"].calls]
    assert ev2_pages == [{"count": "100"}, {"count": "100", "page_token": "IT2"}]
    # The key was given: no subscription is made.
    assert not calendly["subscribe"].called

    assert calls(team.ws) == [
        (
            uri("EV1", "I1"),
            "pat@example.test",
            utc("2026-03-02 09:00"),
            utc("2026-03-10 15:00"),
            "scheduled",
            None,
            "",
        ),
        (
            uri("EV2", "I2"),
            "pat@example.test",
            utc("2026-03-05 10:00"),
            utc("2026-03-12 15:00"),
            "scheduled",
            uri("EV1", "I1"),
            "no_show",
        ),
        (
            uri("EV2", "I5"),
            "ray@example.test",
            utc("2026-03-06 11:00"),
            utc("2026-03-12 15:00"),
            "scheduled",
            None,
            "",
        ),
        (
            uri("EV3", "I3"),
            "kim@example.test",
            utc("2026-03-03 12:00"),
            utc("2026-03-11 09:00"),
            "cancelled",
            None,
            "",
        ),
    ]
    assert Call.objects.get(external_id=uri("EV1", "I1")).replaced is True
    assert sorted(Lead.objects.values_list("email", "created_at", "utm_source")) == [
        ("kim@example.test", utc("2026-03-03 12:00"), ""),
        ("pat@example.test", utc("2026-03-02 09:00"), "youtube"),
        ("ray@example.test", utc("2026-03-06 11:00"), ""),
    ]
    assert sorted(Event.objects.values_list("source", "event_type", "object_id", "state")) == [
        ("backfill", "invitee.canceled", uri("EV1", "I1"), "applied"),
        ("backfill", "invitee.canceled", uri("EV3", "I3"), "applied"),
        ("backfill", "invitee.created", uri("EV1", "I1"), "applied"),
        ("backfill", "invitee.created", uri("EV2", "I2"), "applied"),
        ("backfill", "invitee.created", uri("EV3", "I3"), "applied"),
        ("backfill", "invitee_no_show.created", uri("EV2", "I2"), "applied"),
        ("webhook", "invitee.created", uri("EV2", "I5"), "applied"),
    ]

    # Read again (a restarted worker from the start): nothing new is stored or written.
    before = calls(team.ws), Event.objects.count()
    calendly["events"].side_effect = [
        recorded("scheduled_events_page_1"),
        recorded("scheduled_events_page_2"),
    ]
    calendly["ev2"].side_effect = [recorded("invitees_EV2_page_1"), recorded("invitees_EV2_page_2")]
    for page in backfill.pages(
        connection=connection, credentials={"personal_access_token": TOKEN}, cursor=None
    ):
        assert services.backfill_page_record(connection=connection, page=page) == []
    assert (calls(team.ws), Event.objects.count()) == before


def test_a_restarted_backfill_resumes_at_its_cursor(team, calendly, waits):
    team = team()
    calendly["events"].side_effect = None
    calendly["events"].return_value = recorded("scheduled_events_page_2")
    pages = list(
        backfill.pages(
            connection=team.connection,
            credentials={"personal_access_token": TOKEN},
            cursor={"since": "2025-12-20T08:00:00.000000Z", "page_token": "PT2"},
        )
    )
    assert [page.cursor for page in pages] == [None]
    assert dict(calendly["events"].calls.last.request.url.params) == {
        "user": USER,
        "min_start_time": "2025-12-20T08:00:00.000000Z",
        "count": "100",
        "page_token": "PT2",
    }
    assert not calendly["ev1"].called
    assert sorted(item.described.object_id for item in pages[0].items) == [
        uri("EV2", "I2"),
        uri("EV2", "I2"),
        uri("EV2", "I5"),
        uri("EV3", "I3"),
        uri("EV3", "I3"),
    ]


def test_a_refused_token_makes_the_connection_failing(team, calendly, waits):
    team = team()
    calendly["me"].mock(return_value=recorded("error_401", 401))
    connection = services.connection_backfill(connection_id=team.connection.pk)
    assert connection.state == "failing"
    assert connection.last_error == "Calendly refused the credential."
    assert Event.objects.count() == 0
    failing = AuditEvent.objects.get(action="integration.failing")
    assert failing.reason == connection.last_error


def test_the_client_waits_out_429_then_gives_up(calendly, waits):
    calendly["me"].mock(
        side_effect=[
            recorded("error_429", 429, **{"Retry-After": "600"}),
            recorded("error_429", 429),
            recorded("users_me"),
        ]
    )
    with client.CalendlyClient(TOKEN) as api:
        assert api.me()["uri"] == USER
    # Calendly's 600 seconds are capped at 60; without Retry-After, the backoff's second step.
    assert waits == [60, 2]

    waits.clear()
    calendly["me"].mock(side_effect=None, return_value=recorded("error_429", 429))
    with client.CalendlyClient(TOKEN) as api, pytest.raises(ProviderError, match="429"):
        api.me()
    assert waits == [1, 2, 4, 8, 16]


def test_a_forbidden_call_says_why(calendly, waits):
    calendly["me"].mock(return_value=recorded("error_403", 403))
    with client.CalendlyClient(TOKEN) as api, pytest.raises(ProviderError) as refused:
        api.me()
    assert str(refused.value) == (
        "Calendly refused access (403): the token's user may not read these bookings or "
        "manage webhooks. Please upgrade your Calendly account to Standard"
    )


def test_without_a_signing_key_the_service_subscribes_with_its_own(team, send, calendly, waits):
    team = team()
    # A new connection of the workspace's Calendly, without a key (one per provider).
    services.connection_disconnect(connection=team.connection, actor=SYSTEM)
    connection = calendly_connection(team.ws, key=None)
    secret = services.connection_signing_secret(connection)
    assert len(secret) == 43
    assert connection.options == {"signing_secret_generated": True}

    connection = services.connection_backfill(connection_id=connection.pk)

    assert calendly["subscribe"].call_count == 1
    assert json.loads(calendly["subscribe"].calls.last.request.content) == {
        "url": f"http://127.0.0.1:8000/hooks/calendly/{connection.pk}",
        "events": [
            "invitee.created",
            "invitee.canceled",
            "invitee_no_show.created",
            "invitee_no_show.deleted",
        ],
        "organization": ORGANIZATION,
        "user": USER,
        "scope": "user",
        "signing_key": secret,
    }
    assert connection.state == "connected"
    assert connection.options == {
        "signing_secret_generated": True,
        "webhook_subscription": f"{API}/webhook_subscriptions/WH1",
    }
    subscribed = AuditEvent.objects.get(action="integration.subscribed")
    assert subscribed.detail == {
        "provider": "calendly",
        "webhook_subscription": f"{API}/webhook_subscriptions/WH1",
    }
    assert Call.objects.filter(workspace=team.ws).count() == 4

    # Calendly's deliveries, signed with that key, are accepted.
    booking = delivery("invitee.canceled", {"uri": uri("EV9", "I9")}, "2026-03-20 10:00")
    answer = send(connection, booking, key=secret)
    assert answer.json() == {"received": True}

    # Run again: subscribed once, backfilled once.
    services.connection_backfill(connection_id=connection.pk)
    assert calendly["subscribe"].call_count == 1


def test_a_refused_subscription_makes_the_connection_failing_and_webhooks_stay_open(
    team, send, calendly, waits
):
    team = team()
    # A new connection of the workspace's Calendly, without a key (one per provider).
    services.connection_disconnect(connection=team.connection, actor=SYSTEM)
    connection = calendly_connection(team.ws, key=None)
    calendly["subscribe"].mock(return_value=recorded("error_403", 403))
    connection = services.connection_backfill(connection_id=connection.pk)
    assert connection.state == "failing"
    assert connection.last_error == "Calendly refused the credential."
    assert "webhook_subscription" not in connection.options
    # The backfill still ran, and a delivery signed with the key is still accepted.
    assert Call.objects.filter(workspace=team.ws).count() == 4
    answer = send(
        connection,
        delivery("invitee.canceled", {"uri": uri("EV9", "I9")}, "2026-03-20 10:00"),
        key=services.connection_signing_secret(connection),
    )
    assert answer.status_code == 200


def test_a_given_key_is_the_connections_secret(team):
    team = team()
    assert services.connection_signing_secret(team.connection) == KEY
    assert team.connection.options == {}


def test_a_subscription_made_before_a_restart_is_found_again(team, calendly, waits, settings):
    settings.BASE_URL = "http://127.0.0.1:8000"
    team = team()
    services.connection_disconnect(connection=team.connection, actor=SYSTEM)
    connection = services.connection_create(
        workspace=team.ws,
        provider="calendly",
        credentials={"personal_access_token": TOKEN},
        actor=SYSTEM,
        connection_id=uuid.UUID("7d1c5b9e-2f4a-4c1e-9a53-0c6f7e8d9b10"),
    )
    calendly["subscribe"].mock(return_value=recorded("error_409", 409))
    listed = calendly.get("/webhook_subscriptions", name="listed").mock(
        return_value=recorded("webhook_subscriptions")
    )
    connection = services.connection_backfill(connection_id=connection.pk)
    assert connection.state == "connected"
    assert connection.options["webhook_subscription"] == f"{API}/webhook_subscriptions/WH1"
    assert dict(listed.calls.last.request.url.params) == {
        "organization": ORGANIZATION,
        "user": USER,
        "scope": "user",
        "count": "100",
    }
