"""The webinar events page: an owner, admin or manager sets each event's pitch time, in the
workspace's timezone, and /webinar's stay figures follow it."""

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from audit.models import AuditEvent
from workspaces.models import Lead, WebinarEvent
from workspaces.services import lead_upsert, registration_upsert, webinar_event_upsert

pytestmark = pytest.mark.django_db


def utc(text):
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def webinar(make_workspace, make_member, workspace_token, api):
    """A New York workspace; a webinar from 17:00 UTC (12:00 there): Pat there 17:05 to
    18:30, Quinn 17:10 to 17:45."""
    ws = make_workspace(timezone="America/New_York")
    event, _ = webinar_event_upsert(
        workspace=ws,
        external_id="88812345678",
        name="Scale your offer",
        starts_at=utc("2026-03-05 17:00"),
    )
    for n, (email, joined, left) in enumerate(
        [("pat@example.test", "17:05", "18:30"), ("quinn@example.test", "17:10", "17:45")]
    ):
        lead, _ = lead_upsert(
            workspace=ws, external_id=f"L{n}", email=email, created_at=utc("2026-03-01 09:00")
        )
        registration_upsert(
            workspace=ws,
            external_id=f"R{n}",
            event=event,
            lead=lead,
            registered_at=utc("2026-03-02 09:00"),
            joined_at=utc(f"2026-03-05 {joined}"),
            left_at=utc(f"2026-03-05 {left}"),
        )
    return {
        "ws": ws,
        "event": event,
        "url": f"/settings/{ws.pk}/webinars/",
        "member": lambda role: make_member(ws, role),
        "reader": api(workspace_token(ws)),
    }


def signed_in(member):
    client = Client()
    client.force_login(member.user)
    return client


def stay(webinar):
    body = webinar["reader"].get("/api/v1/webinar", {"from": "2026-03-01", "to": "2026-03-31"})
    data = body.json()["data"]
    return data["stayed_to_pitch"]["value"], data["stay_rate"]["value"]


@pytest.mark.parametrize("role", ["owner", "admin", "manager"])
def test_a_manager_sets_the_pitch_time_and_the_stay_figures_follow(webinar, role):
    client = signed_in(webinar["member"](role))
    page = client.get(webinar["url"])
    assert page.status_code == 200
    assert b"Scale your offer" in page.content
    assert b"Starts 5 Mar 2026, 12:00" in page.content
    assert stay(webinar) == (None, None)

    # 13:00 in New York is 18:00 UTC: Pat (until 18:30) stayed, Quinn (until 17:45) did not.
    answer = client.post(
        webinar["url"], {"event": str(webinar["event"].pk), "pitch_at": "2026-03-05T13:00"}
    )
    assert answer.status_code == 302
    assert answer["Location"] == webinar["url"]
    event = WebinarEvent.objects.get()
    assert event.pitch_at == utc("2026-03-05 18:00")
    assert stay(webinar) == (1, 0.5)
    audit = AuditEvent.objects.get(action="webinar_event.pitch_set")
    assert (audit.actor_kind, audit.target_id, audit.detail) == (
        "user",
        str(event.pk),
        {"pitch_at": "2026-03-05T13:00:00-05:00", "before": None},
    )
    assert b'value="2026-03-05T13:00"' in client.get(webinar["url"]).content

    # 14:00 there: nobody was left.
    client.post(webinar["url"], {"event": str(event.pk), "pitch_at": "2026-03-05T14:00"})
    assert stay(webinar) == (0, 0.0)
    # Cleared: the stay figures are unavailable again.
    client.post(webinar["url"], {"event": str(event.pk), "pitch_at": ""})
    assert WebinarEvent.objects.get().pitch_at is None
    assert stay(webinar) == (None, None)
    assert AuditEvent.objects.filter(action="webinar_event.pitch_set").count() == 3


def test_a_pitch_before_the_start_or_not_a_time_is_refused(webinar):
    client = signed_in(webinar["member"]("manager"))
    event = str(webinar["event"].pk)
    early = client.post(webinar["url"], {"event": event, "pitch_at": "2026-03-05T11:59"})
    assert early.status_code == 400
    assert b"The pitch cannot come before the event starts." in early.content
    garbled = client.post(webinar["url"], {"event": event, "pitch_at": "tomorrow"})
    assert garbled.status_code == 400
    assert b"Give a date and time" in garbled.content
    assert WebinarEvent.objects.get().pitch_at is None
    assert not AuditEvent.objects.filter(action="webinar_event.pitch_set").exists()


def test_another_workspaces_event_is_not_found(webinar, make_workspace):
    other = make_workspace()
    theirs, _ = webinar_event_upsert(
        workspace=other, external_id="1", name="Theirs", starts_at=utc("2026-03-05 17:00")
    )
    client = signed_in(webinar["member"]("owner"))
    answer = client.post(webinar["url"], {"event": str(theirs.pk), "pitch_at": "2026-03-05T13:00"})
    assert answer.status_code == 400
    theirs.refresh_from_db()
    assert theirs.pitch_at is None


@pytest.mark.parametrize("role", ["closer", "setter", "sdr"])
def test_other_roles_are_refused(webinar, role):
    client = signed_in(webinar["member"](role))
    assert client.get(webinar["url"]).status_code == 403
    answer = client.post(
        webinar["url"], {"event": str(webinar["event"].pk), "pitch_at": "2026-03-05T13:00"}
    )
    assert answer.status_code == 403
    assert WebinarEvent.objects.get().pitch_at is None


def test_strangers_get_404_and_anonymous_visitors_sign_in(webinar, make_workspace, make_member):
    stranger = make_member(make_workspace(), "owner")
    assert signed_in(stranger).get(webinar["url"]).status_code == 404
    anonymous = Client().get(webinar["url"])
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    assert Lead.objects.count() == 2


def test_each_events_form_has_ids_of_its_own(webinar):
    second, _ = webinar_event_upsert(
        workspace=webinar["ws"],
        external_id="88899999999",
        name="Close more",
        starts_at=utc("2026-03-12 17:00"),
    )
    page = signed_in(webinar["member"]("owner")).get(webinar["url"]).content.decode()
    ids = re.findall(r'id="(id_[^"]+)"', page)
    assert sorted(ids) == sorted([f"id_event-{webinar['event'].pk}", f"id_event-{second.pk}"])


def test_the_settings_menu_leads_to_the_webinars_page(webinar):
    page = signed_in(webinar["member"]("manager")).get(
        f"/settings/{webinar['ws'].pk}/integrations/"
    )
    assert f'<a href="{webinar["url"]}" >Webinars</a>' in page.content.decode()
    current = signed_in(webinar["member"]("manager")).get(webinar["url"]).content.decode()
    assert f'<a href="{webinar["url"]}" class="current" aria-current="page">Webinars</a>' in current


def test_a_pitch_past_the_calendar_in_the_workspaces_timezone_is_refused(webinar):
    """23:59 on the last day of 9999 in New York is in the year 10000 in UTC."""
    client = signed_in(webinar["member"]("manager"))
    event = str(webinar["event"].pk)
    answer = client.post(webinar["url"], {"event": event, "pitch_at": "9999-12-31T23:59"})
    assert answer.status_code == 400
    assert b"Give a time between the years 1 and 9999" in answer.content
    assert WebinarEvent.objects.get().pitch_at is None
    # The page and the figures still answer.
    assert client.get(webinar["url"]).status_code == 200
    assert webinar["reader"].get("/api/v1/webinar", {"eventId": event}).status_code == 200
