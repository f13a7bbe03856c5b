"""Zoom deliveries become a webinar event, leads and registrations through the writers,
once, in any order, and /webinar's figures follow (the pitch time the workspace's)."""

import json
import random

import pytest

from audit.models import AuditEvent
from audit.services import SYSTEM
from integrations import services
from integrations.models import Connection, Event
from integrations.webinars import webinar_pitch_set
from workspaces.importer import records_import
from workspaces.models import Lead, Registration, WebinarEvent
from workspaces.services import call_upsert

from .conftest import (
    WEBINAR_ID,
    created,
    participant,
    registered,
    updated,
    utc,
    zoom_connection,
)

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
W = str(WEBINAR_ID)


def story():
    """The webinar made, then renamed; Pat, Quinn and Rae register; Pat comes twice (17:02
    to 17:30, 17:40 to 18:25), Quinn from 17:05 to 17:50, Sam (who never registered) from
    17:10 and is still there when Zoom stops telling; Rae never comes."""
    return [
        created("2026-03-01 09:00"),
        updated("2026-03-02 09:00", topic="Scale your offer, live"),
        registered("2026-03-02 10:00", "Pat@Example.test", "Pat", "Lee", "reg-pat"),
        registered("2026-03-03 11:00", "quinn@example.test", "Quinn", "Moss", "reg-quinn"),
        registered("2026-03-04 12:00", "rae@example.test", "Rae", "", "reg-rae"),
        participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
        participant("left", "2026-03-05 17:30", "pat@example.test", "Pat L", "p-pat"),
        participant("joined", "2026-03-05 17:40", "pat@example.test", "Pat L", "p-pat"),
        participant("left", "2026-03-05 18:25", "pat@example.test", "Pat L", "p-pat"),
        participant("joined", "2026-03-05 17:05", "quinn@example.test", "Quinn", "p-quinn"),
        participant("left", "2026-03-05 17:50", "quinn@example.test", "Quinn", "p-quinn"),
        participant("joined", "2026-03-05 17:10", "sam@example.test", "Sam Ortiz", "p-sam"),
    ]


def records(ws):
    webinars = sorted(
        (w.external_id, w.name, w.starts_at, w.pitch_at)
        for w in WebinarEvent.objects.filter(workspace=ws)
    )
    leads = sorted(
        (lead.email, lead.name, lead.created_at, lead.external_id)
        for lead in Lead.objects.filter(workspace=ws)
    )
    registrations = sorted(
        (r.external_id, r.event.external_id, r.lead.email, r.registered_at, r.joined_at, r.left_at)
        for r in Registration.objects.filter(workspace=ws).select_related("event", "lead")
    )
    return webinars, leads, registrations


def expected(pitch_at=None):
    return (
        [(W, "Scale your offer, live", utc("2026-03-05 17:00"), pitch_at)],
        [
            ("pat@example.test", "Pat Lee", utc("2026-03-02 10:00"), "zoom:pat@example.test"),
            (
                "quinn@example.test",
                "Quinn Moss",
                utc("2026-03-03 11:00"),
                "zoom:quinn@example.test",
            ),
            ("rae@example.test", "Rae", utc("2026-03-04 12:00"), "zoom:rae@example.test"),
            ("sam@example.test", "Sam Ortiz", utc("2026-03-05 17:10"), "zoom:sam@example.test"),
        ],
        [
            (
                f"zoom:{W}:pat@example.test",
                W,
                "pat@example.test",
                utc("2026-03-02 10:00"),
                utc("2026-03-05 17:02"),
                utc("2026-03-05 18:25"),
            ),
            (
                f"zoom:{W}:quinn@example.test",
                W,
                "quinn@example.test",
                utc("2026-03-03 11:00"),
                utc("2026-03-05 17:05"),
                utc("2026-03-05 17:50"),
            ),
            (
                f"zoom:{W}:rae@example.test",
                W,
                "rae@example.test",
                utc("2026-03-04 12:00"),
                None,
                None,
            ),
            (
                f"zoom:{W}:sam@example.test",
                W,
                "sam@example.test",
                utc("2026-03-05 17:10"),
                utc("2026-03-05 17:10"),
                None,
            ),
        ],
    )


def figures(school, **params):
    answer = school.reader.get("/api/v1/webinar", {**MARCH, **params})
    assert answer.status_code == 200
    body = answer.json()
    values = {key: field["value"] for key, field in body["data"].items() if key != "event"}
    return values, body


def test_deliveries_make_the_records_and_the_figures(school, zoom_deliver):
    for payload in story():
        answer = zoom_deliver(school.connection, payload)
        assert answer.status_code == 200
        assert answer.json() == {"received": True}

    assert records(school.ws) == expected()
    assert set(Event.objects.values_list("state", flat=True)) == {"applied"}
    connection = Connection.objects.get()
    assert (
        connection.events_received,
        connection.events_applied,
        connection.events_held,
        connection.events_refused,
    ) == (12, 12, 0, 0)
    # Zoom sends no delivery id: its event name, the webinar, its time and the person.
    assert Event.objects.filter(event_type="webinar.participant_left").order_by(
        "occurred_at"
    ).values_list("event_id", "object_id").first() == (
        f"webinar.participant_left|{W}|1772731800512|p-pat-left-2026-03-05 17:30",
        f"{W}|pat@example.test",
    )
    # Each apply is audited with the integration as its actor, naming what it wrote.
    quinn = Event.objects.get(
        event_type="webinar.registration_created", object_id=f"{W}|quinn@example.test"
    )
    audit = AuditEvent.objects.get(action="integration.event_applied", target_id=str(quinn.pk))
    assert (audit.actor_kind, audit.actor_id, audit.actor_label) == (
        "integration",
        str(connection.pk),
        "zoom",
    )
    assert audit.detail["records"] == [W, f"{W}|quinn@example.test"]

    # No pitch time yet: the stay figures are unavailable.
    values, body = figures(school)
    assert values == {
        "registrations": 4,
        "attended": 3,
        "stayed_to_pitch": None,
        "booked": 0,
        "attendance_rate": 0.75,
        "stay_rate": None,
        "booking_rate": 0.0,
    }
    assert body["data"]["stayed_to_pitch"]["unavailable"]["code"] == "no-numerator"

    # The manager sets the pitch at 18:00: Pat (back at 17:40, left 18:25) and Sam (never
    # left) are there; Quinn left at 17:50.
    event = WebinarEvent.objects.get()
    webinar_pitch_set(event=event, pitch_at=utc("2026-03-05 18:00"), actor=SYSTEM)
    values, body = figures(school, eventId=str(event.pk))
    assert body["data"]["event"] == {
        "id": str(event.pk),
        "name": "Scale your offer, live",
        "starts_at": "2026-03-05T17:00:00Z",
        "pitch_at": "2026-03-05T18:00:00Z",
    }
    assert values == {
        "registrations": 4,
        "attended": 3,
        "stayed_to_pitch": 2,
        "booked": 0,
        "attendance_rate": 0.75,
        "stay_rate": 0.6667,
        "booking_rate": 0.0,
    }

    # Zoom moves nothing of the pitch: a later update renames the webinar only.
    zoom_deliver(school.connection, updated("2026-03-05 19:00", topic="Scale your offer (replay)"))
    event.refresh_from_db()
    assert (event.name, event.starts_at, event.pitch_at) == (
        "Scale your offer (replay)",
        utc("2026-03-05 17:00"),
        utc("2026-03-05 18:00"),
    )


def _import(ws, *lines):
    records_import(workspace=ws, by_role="owner", lines=[json.dumps(line) for line in lines])


def test_booked_counts_an_imported_booking_made_after_the_start(school, zoom_deliver):
    # Pat was a lead already (imported, with the email in another case): Zoom uses that lead.
    _import(
        school.ws,
        {
            "type": "lead",
            "id": "L-pat",
            "name": "Pat Lee",
            "email": "PAT@example.test",
            "created_at": "2026-02-10T09:00:00+00:00",
        },
        # Quinn booked before the webinar: that booking does not count.
        {
            "type": "lead",
            "id": "L-quinn",
            "name": "Quinn Moss",
            "email": "quinn@example.test",
            "created_at": "2026-02-11T09:00:00+00:00",
        },
        {
            "type": "call",
            "id": "C-quinn",
            "lead": "L-quinn",
            "booked_at": "2026-03-01T09:00:00+00:00",
            "scheduled_for": "2026-03-09T15:00:00+00:00",
            "status": "scheduled",
        },
    )
    for payload in story():
        zoom_deliver(school.connection, payload)
    pat = Lead.objects.get(external_id="L-pat")
    assert Registration.objects.get(lead=pat).external_id == f"zoom:{W}:pat@example.test"
    assert Lead.objects.filter(email__iexact="pat@example.test").count() == 1
    # Pat books after the webinar, Rae too (she never came: not counted as booked).
    _import(
        school.ws,
        {
            "type": "call",
            "id": "C-pat",
            "lead": "L-pat",
            "booked_at": "2026-03-05T18:40:00+00:00",
            "scheduled_for": "2026-03-10T15:00:00+00:00",
            "status": "scheduled",
        },
    )
    rae = Lead.objects.get(email="rae@example.test")
    call_upsert(
        workspace=school.ws,
        external_id="C-rae",
        lead=rae,
        booked_at=utc("2026-03-06 09:00"),
        scheduled_for=utc("2026-03-11 15:00"),
    )
    values, _body = figures(school)
    assert (values["booked"], values["booking_rate"]) == (1, 0.3333)


def test_a_delivery_sent_again_changes_nothing(school, zoom_deliver):
    payloads = story()
    for payload in payloads:
        zoom_deliver(school.connection, payload)
    before = records(school.ws)
    audits = AuditEvent.objects.count()
    for payload in payloads:
        again = zoom_deliver(school.connection, payload)
        assert again.status_code == 200
        assert again.json() == {"received": True, "duplicate": True}
    assert records(school.ws) == before
    assert AuditEvent.objects.count() == audits
    assert Event.objects.count() == 12


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_any_delivery_order_ends_in_the_same_records(school, zoom_deliver, seed):
    payloads = story()
    random.Random(seed).shuffle(payloads)
    for payload in payloads:
        assert zoom_deliver(school.connection, payload).status_code == 200
    assert records(school.ws) == expected()
    assert not Event.objects.filter(state="held").exists()
    assert Connection.objects.get().events_held == 0


def test_a_leave_before_anything_else_waits_for_the_join(school, zoom_deliver):
    zoom_deliver(
        school.connection,
        participant("left", "2026-03-05 18:10", "ann@example.test", "Ann", "p-ann"),
    )
    held = Event.objects.get()
    assert (held.state, held.hold_code, held.waits_for) == (
        "held",
        "waiting",
        f"{W}|ann@example.test",
    )
    assert Registration.objects.count() == 0
    zoom_deliver(
        school.connection,
        participant("joined", "2026-03-05 17:20", "ann@example.test", "Ann", "p-ann"),
    )
    held.refresh_from_db()
    assert held.state == "applied"
    assert list(Registration.objects.values_list("registered_at", "joined_at", "left_at")) == [
        (utc("2026-03-05 17:20"), utc("2026-03-05 17:20"), utc("2026-03-05 18:10"))
    ]
    # Made from the participant's copy of the webinar: Zoom's webinar events never came.
    assert list(WebinarEvent.objects.values_list("external_id", "name", "starts_at")) == [
        (W, "Scale your offer", utc("2026-03-05 17:00"))
    ]
    assert Connection.objects.get().events_held == 0


def test_a_participant_without_email_and_other_events_are_ignored(school, zoom_deliver):
    zoom_deliver(
        school.connection, participant("joined", "2026-03-05 17:20", "", "Phone user", "p-phone")
    )
    started = created("2026-03-05 17:00")
    started["event"] = "webinar.started"
    zoom_deliver(school.connection, started)
    assert sorted(Event.objects.values_list("event_type", "state", "hold_reason")) == [
        (
            "webinar.participant_joined",
            "ignored",
            "The registrant or participant has no email to find a lead by.",
        ),
        ("webinar.started", "ignored", "Zoom's webinar.started feeds no record."),
    ]
    assert Registration.objects.count() == 0


def test_a_start_moved_past_the_pitch_waits_for_a_new_pitch_time(school, zoom_deliver, committed):
    zoom_deliver(school.connection, created("2026-03-01 09:00"))
    event = WebinarEvent.objects.get()
    webinar_pitch_set(event=event, pitch_at=utc("2026-03-05 17:30"), actor=SYSTEM)
    zoom_deliver(school.connection, updated("2026-03-04 09:00", start_time="2026-03-05T18:00:00Z"))
    held = Event.objects.get(event_type="webinar.updated")
    assert (held.state, held.hold_code) == ("held", "invalid")
    assert held.hold_reason == (
        "The record cannot be written: pitch_at: The pitch cannot come before the event starts."
    )
    event.refresh_from_db()
    assert (event.starts_at, event.pitch_at) == (utc("2026-03-05 17:00"), utc("2026-03-05 17:30"))

    with committed():
        webinar_pitch_set(event=event, pitch_at=utc("2026-03-05 18:45"), actor=SYSTEM)
    held.refresh_from_db()
    assert held.state == "applied"
    event.refresh_from_db()
    assert (event.starts_at, event.pitch_at) == (utc("2026-03-05 18:00"), utc("2026-03-05 18:45"))


@pytest.mark.parametrize("order", ["earliest first", "earliest last"])
def test_a_person_of_two_webinars_is_one_lead_made_at_their_earliest_time(make_workspace, order):
    ws = make_workspace()
    connection = zoom_connection(ws)
    other = registered("2026-03-03 10:00", "pat@example.test", "Pat", "Lee", "reg-pat-2")
    other["payload"]["object"] = {**other["payload"]["object"], "id": 77700000000}
    payloads = [
        registered("2026-03-02 10:00", "pat@example.test", "Pat", "Lee", "reg-pat"),
        other,
    ]
    if order == "earliest last":
        payloads.reverse()
    provider = services.provider_get("zoom")
    for payload in payloads:
        event = services.event_receive(
            connection=connection, described=provider.describe(payload), payload=payload
        )
        services.event_apply(event_id=event.pk)

    assert set(Event.objects.values_list("state", flat=True)) == {"applied"}
    assert list(Lead.objects.values_list("email", "name", "created_at")) == [
        ("pat@example.test", "Pat Lee", utc("2026-03-02 10:00"))
    ]
    assert sorted(Registration.objects.values_list("event__external_id", "registered_at")) == [
        ("77700000000", utc("2026-03-03 10:00")),
        (W, utc("2026-03-02 10:00")),
    ]
