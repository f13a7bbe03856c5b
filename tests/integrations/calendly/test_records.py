"""Calendly deliveries become leads and calls through the writers, once, in any order, and
/api/v1/calls and a lead's journey answer as they do for the same story imported."""

import json
import random

import pytest

from audit.models import AuditEvent
from integrations.models import Connection, Event
from tests.integrations.conftest import utc
from workspaces.importer import records_import
from workspaces.models import Call, Lead
from workspaces.services import call_upsert, lead_upsert

from .conftest import API, delivery, invitee, no_show, uri

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
PAT_1, PAT_2 = uri("EV1", "I1"), uri("EV2", "I2")
KIM, LEE = uri("EV3", "I3"), uri("EV4", "I4")
TRACKING = {
    "utm_source": "youtube",
    "utm_medium": "video",
    "utm_campaign": "spring",
    "utm_content": "ad-7",
    "utm_term": "calls",
}


def story():
    """Pat books, reschedules, and does not show; Kim books a host who is no member, then
    cancels; Lee, a lead already held, books and is marked a no-show by mistake (removed);
    and a type nothing maps."""
    pat = {"email": "pat@example.test", "name": "Pat", "tracking": TRACKING}
    return [
        delivery(
            "invitee.created",
            invitee("EV1", "I1", created="2026-03-02 09:00", start="2026-03-10 15:00", **pat),
            "2026-03-02 09:00",
        ),
        delivery(
            "invitee.canceled",
            invitee(
                "EV1",
                "I1",
                created="2026-03-02 09:00",
                start="2026-03-10 15:00",
                status="canceled",
                rescheduled=True,
                new=PAT_2,
                canceled_at="2026-03-05 10:00",
                **pat,
            ),
            "2026-03-05 10:00",
        ),
        delivery(
            "invitee.created",
            invitee(
                "EV2", "I2", created="2026-03-05 10:00", start="2026-03-12 15:00", old=PAT_1, **pat
            ),
            "2026-03-05 10:00",
        ),
        delivery(
            "invitee_no_show.created", no_show("NS1", PAT_2, "2026-03-12 16:00"), "2026-03-12 16:00"
        ),
        delivery(
            "invitee.created",
            invitee(
                "EV3",
                "I3",
                email="KIM@example.test",
                name="Kim",
                created="2026-03-03 12:00",
                start="2026-03-11 09:00",
                host="guest@elsewhere.test",
            ),
            "2026-03-03 12:00",
        ),
        delivery(
            "invitee.canceled",
            invitee(
                "EV3",
                "I3",
                email="KIM@example.test",
                name="Kim",
                created="2026-03-03 12:00",
                start="2026-03-11 09:00",
                host="guest@elsewhere.test",
                status="canceled",
                canceled_at="2026-03-06 08:00",
            ),
            "2026-03-06 08:00",
        ),
        delivery(
            "invitee.created",
            invitee(
                "EV4",
                "I4",
                email="Lee@Example.test",
                name="Lee L.",
                created="2026-03-04 08:00",
                start="2026-03-13 11:00",
                tracking={"utm_source": "ads"},
            ),
            "2026-03-04 08:00",
        ),
        delivery(
            "invitee_no_show.created", no_show("NS2", LEE, "2026-03-13 12:00"), "2026-03-13 12:00"
        ),
        delivery(
            "invitee_no_show.deleted", no_show("NS2", LEE, "2026-03-13 12:00"), "2026-03-13 13:00"
        ),
        delivery(
            "routing_form_submission.created",
            {"uri": "https://api.calendly.com/routing_form_submissions/RF1"},
            "2026-03-01 08:00",
        ),
    ]


def lee(team):
    lead, _created = lead_upsert(
        workspace=team.ws,
        external_id="lead-lee",
        created_at=utc("2026-02-20 09:00"),
        name="Lee",
        email="lee@example.test",
        setter=team.sam,
    )
    return lead


def records(ws):
    leads = sorted(
        (
            lead.external_id,
            lead.name,
            lead.email,
            lead.created_at,
            lead.setter_id,
            lead.utm_source,
            lead.utm_medium,
            lead.utm_campaign,
            lead.utm_content,
        )
        for lead in Lead.objects.filter(workspace=ws)
    )
    calls = sorted(
        (
            call.external_id,
            call.lead.external_id,
            call.booked_at,
            call.scheduled_for,
            call.closer_id,
            call.setter_id,
            call.status,
            call.rescheduled_from.external_id if call.rescheduled_from else None,
            call.replaced,
            call.attendance,
        )
        for call in Call.objects.filter(workspace=ws).select_related("lead", "rescheduled_from")
    )
    return leads, calls


def expected(team):
    ada, sam = team.ada.pk, team.sam.pk
    return (
        [
            (
                "calendly:kim@example.test",
                "Kim",
                "kim@example.test",
                utc("2026-03-03 12:00"),
                None,
                "",
                "",
                "",
                "",
            ),
            (
                "calendly:pat@example.test",
                "Pat",
                "pat@example.test",
                utc("2026-03-02 09:00"),
                None,
                "youtube",
                "video",
                "spring",
                "ad-7",
            ),
            ("lead-lee", "Lee", "lee@example.test", utc("2026-02-20 09:00"), sam, "", "", "", ""),
        ],
        [
            (
                PAT_1,
                "calendly:pat@example.test",
                utc("2026-03-02 09:00"),
                utc("2026-03-10 15:00"),
                ada,
                None,
                "scheduled",
                None,
                True,
                "",
            ),
            (
                PAT_2,
                "calendly:pat@example.test",
                utc("2026-03-05 10:00"),
                utc("2026-03-12 15:00"),
                ada,
                None,
                "scheduled",
                PAT_1,
                False,
                "no_show",
            ),
            (
                KIM,
                "calendly:kim@example.test",
                utc("2026-03-03 12:00"),
                utc("2026-03-11 09:00"),
                None,
                None,
                "cancelled",
                None,
                False,
                "",
            ),
            (
                LEE,
                "lead-lee",
                utc("2026-03-04 08:00"),
                utc("2026-03-13 11:00"),
                ada,
                sam,
                "scheduled",
                None,
                False,
                "",
            ),
        ],
    )


def test_deliveries_make_the_leads_and_calls(team, send):
    team = team()
    lee(team)
    for payload in story():
        answer = send(team.connection, payload)
        assert answer.status_code == 200
        assert answer.json() == {"received": True}

    assert records(team.ws) == expected(team)
    assert sorted(Event.objects.values_list("event_type", "object_id", "state")) == sorted(
        [
            ("invitee.canceled", KIM, "applied"),
            ("invitee.canceled", PAT_1, "applied"),
            ("invitee.created", PAT_1, "applied"),
            ("invitee.created", PAT_2, "applied"),
            ("invitee.created", KIM, "applied"),
            ("invitee.created", LEE, "applied"),
            ("invitee_no_show.created", PAT_2, "applied"),
            ("invitee_no_show.created", LEE, "applied"),
            ("invitee_no_show.deleted", LEE, "applied"),
            ("routing_form_submission.created", f"{API}/routing_form_submissions/RF1", "ignored"),
        ]
    )
    assert Event.objects.get(event_type="invitee.created", object_id=PAT_1).event_id == (
        f"invitee.created|{PAT_1}|2026-03-02T09:00:00.000000Z"
    )
    connection = Connection.objects.get()
    assert (connection.events_received, connection.events_applied, connection.events_held) == (
        10,
        9,
        0,
    )
    # Each applied event is audited with the integration as its actor.
    applied = AuditEvent.objects.filter(action="integration.event_applied")
    assert applied.count() == 9
    assert {(a.actor_kind, a.actor_id) for a in applied} == {
        ("integration", str(team.connection.pk))
    }

    data = team.reader.get("/api/v1/calls", MARCH).json()["data"]
    assert {key: field["value"] for key, field in data.items()} == {
        "booked": 2,
        "cancelled": 1,
        "taken": 0,
        "no_show": 1,
        "awaiting_outcome": 1,
        "upcoming": 0,
        "closed": 0,
        "show_rate": 0.0,
        "close_rate": None,
        "offer_rate": None,
    }

    pat = Lead.objects.get(email="pat@example.test")
    first, second = Call.objects.filter(lead=pat).order_by("booked_at")
    events = team.reader.get(f"/api/v1/leads/{pat.pk}/journey").json()["data"]["events"]
    assert [(e["at"], e["type"], e.get("call", {}).get("id")) for e in events] == [
        ("2026-03-02T09:00:00Z", "lead.created", None),
        ("2026-03-02T09:00:00Z", "call.booked", str(first.pk)),
        ("2026-03-05T10:00:00Z", "call.rescheduled", str(second.pk)),
        ("2026-03-12T15:00:00Z", "call.no_show", str(second.pk)),
    ]
    assert events[2]["rescheduled_from"] == str(first.pk)
    assert events[2]["call"]["closer"]["name"] == "Ada"


def imported(team):
    """The same story as lines of the import."""
    ada, sam = str(team.ada.pk), str(team.sam.pk)
    lines = [
        {
            "type": "lead",
            "id": "pat",
            "name": "Pat",
            "email": "pat@example.test",
            "created_at": "2026-03-02T09:00:00Z",
            "utm_source": "youtube",
            "utm_medium": "video",
            "utm_campaign": "spring",
            "utm_content": "ad-7",
        },
        {
            "type": "lead",
            "id": "kim",
            "name": "Kim",
            "email": "kim@example.test",
            "created_at": "2026-03-03T12:00:00Z",
        },
        {
            "type": "lead",
            "id": "lee",
            "name": "Lee",
            "email": "lee@example.test",
            "created_at": "2026-02-20T09:00:00Z",
            "setter": sam,
        },
        {
            "type": "call",
            "id": "c1",
            "lead": "pat",
            "booked_at": "2026-03-02T09:00:00Z",
            "scheduled_for": "2026-03-10T15:00:00Z",
            "closer": ada,
        },
        {
            "type": "call",
            "id": "c2",
            "lead": "pat",
            "booked_at": "2026-03-05T10:00:00Z",
            "scheduled_for": "2026-03-12T15:00:00Z",
            "closer": ada,
            "rescheduled_from": "c1",
            "attendance": "no_show",
        },
        {
            "type": "call",
            "id": "c3",
            "lead": "kim",
            "booked_at": "2026-03-03T12:00:00Z",
            "scheduled_for": "2026-03-11T09:00:00Z",
            "status": "cancelled",
        },
        {
            "type": "call",
            "id": "c4",
            "lead": "lee",
            "booked_at": "2026-03-04T08:00:00Z",
            "scheduled_for": "2026-03-13T11:00:00Z",
            "closer": ada,
            "setter": sam,
        },
    ]
    records_import(workspace=team.ws, by_role="owner", lines=[json.dumps(line) for line in lines])


def _without_ids(value, ids):
    """The answer with the records' and workspace's own ids named by what they stand for."""
    text = json.dumps(value, sort_keys=True)
    for name, pk in ids.items():
        text = text.replace(str(pk), name)
    return json.loads(text)


def _ids(team):
    ids = {"workspace": team.ws.pk, "ada": team.ada.pk, "sam": team.sam.pk}
    for lead in Lead.objects.filter(workspace=team.ws):
        ids[f"lead:{lead.email}"] = lead.pk
    for call in Call.objects.filter(workspace=team.ws):
        ids[f"call:{call.booked_at.isoformat()}"] = call.pk
    return ids


def test_calendly_and_the_import_give_the_same_answers(team, send):
    through_calendly, through_import = team(), team()
    lee(through_calendly)
    for payload in story():
        send(through_calendly.connection, payload)
    imported(through_import)

    answers = []
    for side in (through_calendly, through_import):
        ids = _ids(side)
        calls = side.reader.get("/api/v1/calls", MARCH)
        assert calls.status_code == 200
        journeys = [
            side.reader.get(f"/api/v1/leads/{lead.pk}/journey").json()["data"]
            for lead in Lead.objects.filter(workspace=side.ws).order_by("email")
        ]
        answers.append(_without_ids({"calls": calls.json(), "journeys": journeys}, ids))
    assert answers[0] == answers[1]
    assert answers[0]["calls"]["data"]["booked"]["value"] == 2
    assert [len(journey["events"]) for journey in answers[0]["journeys"]] == [3, 2, 4]


def test_a_delivery_sent_again_changes_nothing(team, send):
    team = team()
    lee(team)
    for payload in story():
        send(team.connection, payload)
    before = records(team.ws), AuditEvent.objects.count(), Event.objects.count()

    for payload in story():
        answer = send(team.connection, payload)
        assert answer.status_code == 200
        assert answer.json() == {"received": True, "duplicate": True}
    assert (records(team.ws), AuditEvent.objects.count(), Event.objects.count()) == before
    connection = Connection.objects.get()
    assert (connection.events_received, connection.events_applied) == (10, 9)


@pytest.mark.parametrize("seed", ["reversed", 1, 2, 3, 4, 5, 6])
def test_any_order_ends_in_the_same_records(team, send, seed):
    team = team()
    lee(team)
    deliveries = story()
    if seed == "reversed":
        # Every no-show before its call, every cancellation before its booking, the new
        # invitee before the old one, the removal of a no-show before the no-show.
        deliveries.reverse()
    else:
        random.Random(seed).shuffle(deliveries)
    for payload in deliveries:
        assert send(team.connection, payload).status_code == 200

    assert records(team.ws) == expected(team)
    assert not Event.objects.filter(state="held").exists()


def test_a_no_show_before_its_booking_waits_for_it(team, send):
    team = team()
    mark = delivery(
        "invitee_no_show.created", no_show("NS9", PAT_1, "2026-03-10 16:00"), "2026-03-10 16:00"
    )
    send(team.connection, mark)
    held = Event.objects.get()
    assert (held.state, held.hold_code, held.waits_for) == ("held", "waiting", PAT_1)
    assert held.hold_reason == f"The no-show's invitee {PAT_1} has not arrived yet."
    assert Connection.objects.get().events_held == 1

    booking = story()[0]
    send(team.connection, booking)
    held.refresh_from_db()
    assert held.state == "applied"
    assert Call.objects.get().attendance == "no_show"
    assert Connection.objects.get().events_held == 0


def test_an_attendance_a_person_recorded_stays(team, send):
    team = team()
    booking, *_rest = story()
    send(team.connection, booking)
    call = Call.objects.get()
    call_upsert(
        workspace=team.ws,
        external_id=call.external_id,
        lead=call.lead,
        booked_at=call.booked_at,
        scheduled_for=call.scheduled_for,
        closer=call.closer,
        attendance="showed",
    )
    # The same booking read again, and a no-show marked then removed at Calendly.
    again = {**booking, "created_at": "2026-03-02T09:00:05.000000Z"}
    mark = no_show("NS3", PAT_1, "2026-03-10 16:00")
    for payload in (
        again,
        delivery("invitee_no_show.deleted", mark, "2026-03-10 16:05"),
    ):
        assert send(team.connection, payload).json() == {"received": True}
    assert Call.objects.get().attendance == "showed"
    # The mark arrives after its removal: it was removed, the person's record stays.
    send(team.connection, delivery("invitee_no_show.created", mark, "2026-03-10 16:00"))
    assert Call.objects.get().attendance == "showed"
    assert set(Event.objects.values_list("state", flat=True)) == {"applied"}


def _pat_invitee(no_show_mark):
    return invitee(
        "EV1",
        "I1",
        email="pat@example.test",
        name="Pat",
        created="2026-03-02 09:00",
        start="2026-03-10 15:00",
        no_show=no_show_mark,
    )


def test_a_no_show_in_the_invitees_shape_marks_the_call(team, send):
    # The invitee resource itself, its no_show member filled: payload.uri is the invitee.
    team = team()
    send(team.connection, story()[0])
    mark = {"uri": f"{API}/invitee_no_shows/NS7", "created_at": "2026-03-10T16:00:00.000000Z"}
    marked = delivery("invitee_no_show.created", _pat_invitee(mark), "2026-03-10 16:00")
    assert send(team.connection, marked).status_code == 200
    event = Event.objects.get(event_type="invitee_no_show.created")
    assert (event.state, event.object_id) == ("applied", PAT_1)
    assert Call.objects.get().attendance == "no_show"

    # Removed at Calendly: the invitee comes again with no_show null.
    removed = delivery("invitee_no_show.deleted", _pat_invitee(None), "2026-03-10 16:30")
    assert send(team.connection, removed).status_code == 200
    assert Call.objects.get().attendance == ""


def test_both_shapes_of_a_no_show_give_the_same_call_in_any_order(team, send):
    invitee_shape = delivery(
        "invitee_no_show.created",
        _pat_invitee({"uri": f"{API}/invitee_no_shows/NS8", "created_at": "2026-03-10T16:00:00Z"}),
        "2026-03-10 16:00",
    )
    mark_shape = delivery(
        "invitee_no_show.created", no_show("NS8", PAT_1, "2026-03-10 16:00"), "2026-03-10 16:00"
    )
    attendances = []
    for marked in (invitee_shape, mark_shape):
        for order in ((story()[0], marked), (marked, story()[0])):
            world = team()
            for payload in order:
                send(world.connection, payload)
            attendances.append(Call.objects.get(workspace=world.ws).attendance)
    assert attendances == ["no_show"] * 4


def test_an_invitee_created_past_the_calendar_never_blocks_the_queue(team, send):
    team = team()
    late = invitee(
        "EV9",
        "I9",
        email="zed@example.test",
        name="Zed",
        created="2026-03-02 09:00",
        start="2026-03-10 15:00",
    )
    late["created_at"] = "9999-12-31T23:59:59-05:00"
    send(team.connection, delivery("invitee.created", late, "2026-03-02 09:00"))
    send(team.connection, story()[0])
    states = dict(Event.objects.values_list("object_id", "state"))
    assert states[PAT_1] == "applied"
    assert states[uri("EV9", "I9")] in {"held", "ignored", "applied"}
    assert Call.objects.filter(workspace=team.ws, external_id=PAT_1).exists()
