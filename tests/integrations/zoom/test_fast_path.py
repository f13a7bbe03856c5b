"""The worker applies a batch's Zoom joins, leaves and registrations of known people
set-based (mapping.events_map_many): the records and the /webinar figures are exactly those
of applying the same deliveries one by one, and the statements do not grow with the batch."""

import json
from types import SimpleNamespace

import pytest
from django.db import connection as db_connection
from django.test.utils import CaptureQueriesContext

from audit.services import SYSTEM
from integrations import services
from integrations.models import Connection, Event
from integrations.providers import provider_get
from integrations.webinars import webinar_pitch_set
from integrations.zoom import PROVIDER, mapping
from workspaces.importer import records_import
from workspaces.models import Lead, Registration, WebinarEvent

from .conftest import WEBINAR_ID, created, participant, registered, utc, zoom_connection

pytestmark = pytest.mark.django_db

W = str(WEBINAR_ID)
MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


def _store(connection, payload) -> Event | None:
    """Store a delivery as the endpoint does, without applying it (None: already stored)."""
    described = provider_get("zoom").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


@pytest.fixture
def make_school(make_workspace, workspace_token, api):
    def make():
        ws = make_workspace(currency="USD", timezone="UTC")
        return SimpleNamespace(
            ws=ws, connection=zoom_connection(ws), reader=api(workspace_token(ws))
        )

    return make


@pytest.fixture
def taken(monkeypatch):
    """The events the fast path applied: (type, object id, outcome's records) of each."""
    seen = []
    real = mapping.events_map_many

    def spy(*, events, connection):
        outcomes = real(events=events, connection=connection)
        by_pk = {event.pk: event for event in events}
        seen.extend(
            (by_pk[pk].event_type, by_pk[pk].object_id, outcome.records)
            for pk, outcome in outcomes.items()
        )
        return outcomes

    monkeypatch.setattr(mapping, "events_map_many", spy)
    return seen


def _import(ws):
    """Pat, Uma and Vic are leads already, imported with their emails in other cases; Uma
    books a call after the webinar's start, Pat one before it."""
    lines = [
        {
            "type": "lead",
            "id": "L-pat",
            "name": "Pat Lee",
            "email": "PAT@Example.test",
            "created_at": "2026-02-10T09:00:00+00:00",
        },
        {
            "type": "lead",
            "id": "L-uma",
            "name": "Uma Diaz",
            "email": "Uma@example.test",
            "created_at": "2026-02-12T09:00:00+00:00",
        },
        {
            "type": "lead",
            "id": "L-vic",
            "name": "Vic Hale",
            "email": "vic@EXAMPLE.test",
            "created_at": "2026-02-13T09:00:00+00:00",
        },
        {
            "type": "call",
            "id": "C-uma",
            "lead": "L-uma",
            "booked_at": "2026-03-05T18:40:00+00:00",
            "scheduled_for": "2026-03-10T15:00:00+00:00",
            "status": "scheduled",
        },
        {
            "type": "call",
            "id": "C-pat",
            "lead": "L-pat",
            "booked_at": "2026-03-01T09:00:00+00:00",
            "scheduled_for": "2026-03-09T15:00:00+00:00",
            "status": "scheduled",
        },
    ]
    records_import(workspace=ws, by_role="owner", lines=[json.dumps(line) for line in lines])


def known():
    """The webinar, and three registrations: Pat (with an imported lead), Quinn and Rae
    (leads Zoom makes)."""
    return [
        created("2026-03-01 09:00"),
        registered("2026-03-02 10:00", "Pat@Example.test", "Pat", "Lee", "reg-pat"),
        registered("2026-03-03 11:00", "quinn@example.test", "Quinn", "Moss", "reg-quinn"),
        registered("2026-03-04 12:00", "rae@example.test", "Rae", "", "reg-rae"),
    ]


def attendance():
    """One batch as Zoom delivers it: Quinn's leave before her join, which comes twice (the
    same delivery again, and a copy Zoom names otherwise); Pat comes twice (17:02 to 17:30,
    17:40 to 18:25); Sam, who is no lead yet, from 17:10; Uma, an imported lead who never
    registered, from 17:15 to 17:45; Vic's leave at 18:00 before anything of hers."""
    quinn_joined = participant("joined", "2026-03-05 17:05", "quinn@example.test", "Quinn", "p-q")
    quinn_copy = participant("joined", "2026-03-05 17:05", "quinn@example.test", "Quinn", "p-q")
    quinn_copy["payload"]["object"]["participant"]["participant_uuid"] = "another-uuid"
    return [
        participant("left", "2026-03-05 17:50", "quinn@example.test", "Quinn", "p-q"),
        participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
        quinn_joined,
        quinn_joined,
        participant("joined", "2026-03-05 17:10", "sam@example.test", "Sam Ortiz", "p-sam"),
        participant("left", "2026-03-05 17:30", "pat@example.test", "Pat L", "p-pat"),
        participant("joined", "2026-03-05 17:15", "uma@example.test", "Uma D", "p-uma"),
        participant("joined", "2026-03-05 17:40", "pat@example.test", "Pat L", "p-pat"),
        quinn_copy,
        participant("left", "2026-03-05 18:25", "pat@example.test", "Pat L", "p-pat"),
        participant("left", "2026-03-05 17:45", "uma@example.test", "Uma D", "p-uma"),
        participant("left", "2026-03-05 18:00", "vic@example.test", "Vic", "p-vic"),
    ]


def vic_joins():
    return participant("joined", "2026-03-05 17:20", "vic@example.test", "Vic", "p-vic")


def records(ws):
    leads = sorted(
        (lead.email, lead.name, lead.created_at, lead.external_id)
        for lead in Lead.objects.filter(workspace=ws)
    )
    registrations = sorted(
        (
            r.external_id,
            r.event.external_id,
            r.lead.email,
            r.registered_at,
            r.joined_at,
            r.left_at,
            r.booked_after,
        )
        for r in Registration.objects.filter(workspace=ws).select_related("event", "lead")
    )
    events = sorted(
        Event.objects.filter(workspace=ws).values_list(
            "event_id", "state", "hold_code", "hold_reason", "waits_for"
        )
    )
    counters = Connection.objects.filter(workspace=ws).values_list(
        "events_received", "events_applied", "events_held"
    )
    return leads, registrations, events, list(counters)


def figures(school):
    event = WebinarEvent.objects.get(workspace=school.ws)
    answer = school.reader.get("/api/v1/webinar", {**MARCH, "eventId": str(event.pk)})
    assert answer.status_code == 200
    return {key: field["value"] for key, field in answer.json()["data"].items() if key != "event"}


def run(school):
    """Store and apply the deliveries in three runs of the worker: the known records, the
    attendance batch, then Vic's join; the pitch at 18:00."""
    _import(school.ws)
    for stage in (known(), attendance(), [vic_joins()]):
        for payload in stage:
            _store(school.connection, payload)
        services.events_apply(connection_id=school.connection.pk)
    webinar_pitch_set(
        event=WebinarEvent.objects.get(workspace=school.ws),
        pitch_at=utc("2026-03-05 18:00"),
        actor=SYSTEM,
    )
    return records(school.ws), figures(school)


def expected_registrations():
    return [
        (
            f"zoom:{W}:pat@example.test",
            W,
            "PAT@Example.test",
            utc("2026-03-02 10:00"),
            utc("2026-03-05 17:02"),
            utc("2026-03-05 18:25"),
            False,
        ),
        (
            f"zoom:{W}:quinn@example.test",
            W,
            "quinn@example.test",
            utc("2026-03-03 11:00"),
            utc("2026-03-05 17:05"),
            utc("2026-03-05 17:50"),
            False,
        ),
        (
            f"zoom:{W}:rae@example.test",
            W,
            "rae@example.test",
            utc("2026-03-04 12:00"),
            None,
            None,
            False,
        ),
        (
            f"zoom:{W}:sam@example.test",
            W,
            "sam@example.test",
            utc("2026-03-05 17:10"),
            utc("2026-03-05 17:10"),
            None,
            False,
        ),
        (
            f"zoom:{W}:uma@example.test",
            W,
            "Uma@example.test",
            utc("2026-03-05 17:15"),
            utc("2026-03-05 17:15"),
            utc("2026-03-05 17:45"),
            True,
        ),
        (
            f"zoom:{W}:vic@example.test",
            W,
            "vic@EXAMPLE.test",
            utc("2026-03-05 17:20"),
            utc("2026-03-05 17:20"),
            utc("2026-03-05 18:00"),
            False,
        ),
    ]


def test_a_batch_applied_set_based_ends_as_one_by_one(make_school, taken, monkeypatch):
    with monkeypatch.context() as one_by_one:
        # A provider without the fast path: its declared hook is None.
        one_by_one.setattr(type(PROVIDER), "apply_many", None)
        slow = make_school()
        slow_records, slow_figures = run(slow)
    assert taken == []

    fast = make_school()
    fast_records, fast_figures = run(fast)

    assert fast_records == slow_records
    assert fast_figures == slow_figures
    leads, registrations, events, counters = fast_records
    assert registrations == expected_registrations()
    # The imported leads are used as they are; only Quinn, Rae and Sam are made.
    assert [(email, external_id) for email, _name, _at, external_id in leads] == [
        ("PAT@Example.test", "L-pat"),
        ("Uma@example.test", "L-uma"),
        ("quinn@example.test", "zoom:quinn@example.test"),
        ("rae@example.test", "zoom:rae@example.test"),
        ("sam@example.test", "zoom:sam@example.test"),
        ("vic@EXAMPLE.test", "L-vic"),
    ]
    assert {state for _id, state, _code, _reason, _waits in events} == {"applied"}
    # 4 known, 11 of the attendance batch (one delivered twice), Vic's join.
    assert counters == [(16, 16, 0)]
    assert fast_figures == {
        "registrations": 6,
        "attended": 5,
        "stayed_to_pitch": 2,
        "booked": 1,
        "attendance_rate": 0.8333,
        "stay_rate": 0.4,
        "booking_rate": 0.2,
    }

    # Set-based: Pat's four events, Quinn's three and Uma's two; then Vic's join, whose
    # registration releases her held leave, applied set-based in the next batch. Sam (a
    # lead to make) and Vic's first leave (nothing to place it on) went one by one.
    pat, quinn, uma, vic = (f"{W}|{who}@example.test" for who in ("pat", "quinn", "uma", "vic"))
    assert sorted(taken) == sorted(
        [("webinar.participant_joined", pat, (W, pat))] * 2
        + [("webinar.participant_left", pat, (W, pat))] * 2
        + [("webinar.participant_joined", quinn, (W, quinn))] * 2
        + [("webinar.participant_left", quinn, (W, quinn))]
        + [("webinar.participant_joined", uma, (W, uma))]
        + [("webinar.participant_left", uma, (W, uma))]
        + [("webinar.participant_joined", vic, (W, vic))]
        + [("webinar.participant_left", vic, (W, vic))]
    )


def test_a_key_whose_email_is_in_another_webinar_of_the_batch_goes_one_by_one(make_school, taken):
    school = make_school()
    for payload in known():
        _store(school.connection, payload)
    services.events_apply(connection_id=school.connection.pk)
    other = participant("joined", "2026-03-05 17:03", "quinn@example.test", "Quinn", "p-q")
    other["payload"]["object"]["id"] = "77700000000"
    for payload in (
        participant("joined", "2026-03-05 17:02", "pat@example.test", "Pat L", "p-pat"),
        participant("joined", "2026-03-05 17:05", "quinn@example.test", "Quinn", "p-q"),
        other,
    ):
        _store(school.connection, payload)
    taken.clear()
    assert services.events_apply(connection_id=school.connection.pk) == 3
    assert taken == [
        ("webinar.participant_joined", f"{W}|pat@example.test", (W, f"{W}|pat@example.test"))
    ]
    assert sorted(
        Registration.objects.values_list("event__external_id", "lead__email", "joined_at")
    ) == [
        ("77700000000", "quinn@example.test", utc("2026-03-05 17:03")),
        (W, "pat@example.test", utc("2026-03-05 17:02")),
        (W, "quinn@example.test", utc("2026-03-05 17:05")),
        (W, "rae@example.test", None),
    ]


def _attendees(school, people: int, first: int = 0):
    """Imported leads of people `first`.. registered to the known webinar; then a join and
    a leave of each stored, not applied."""
    lines = [
        {
            "type": "lead",
            "id": f"L-{n}",
            "name": f"Person {n}",
            "email": f"p{n}@example.test",
            "created_at": "2026-02-10T09:00:00+00:00",
        }
        for n in range(first, first + people)
    ]
    records_import(workspace=school.ws, by_role="owner", lines=[json.dumps(line) for line in lines])
    for n in range(first, first + people):
        _store(
            school.connection,
            registered("2026-03-02 10:00", f"p{n}@example.test", "P", str(n), f"r{n}"),
        )
    services.events_apply(connection_id=school.connection.pk)
    for n in range(first, first + people):
        minute = f"{n % 50:02}"
        email = f"p{n}@example.test"
        _store(school.connection, participant("joined", f"2026-03-05 17:{minute}", email, "P", n))
        _store(school.connection, participant("left", f"2026-03-05 18:{minute}", email, "P", n))


def test_the_statements_of_a_batch_do_not_grow_with_it(make_school, taken):
    school = make_school()
    _store(school.connection, created("2026-03-01 09:00"))
    counts = []
    # 30 people: their 60 events' audit rows fit one insert on SQLite too, which splits an
    # insert of more than 999 values (13 columns an event).
    for first, people in ((0, 10), (10, 30)):
        _attendees(school, people, first)
        taken.clear()
        with CaptureQueriesContext(db_connection) as queries:
            assert services.events_apply(connection_id=school.connection.pk) == 2 * people
        counts.append(len(queries))
        assert len(taken) == 2 * people
    # The same statements for 20 events as for 60 (one by one, 60 would take hundreds).
    assert counts[0] == counts[1]
    assert counts[1] <= 40
    assert list(
        Registration.objects.filter(lead__email="p32@example.test").values_list(
            "joined_at", "left_at"
        )
    ) == [(utc("2026-03-05 17:32"), utc("2026-03-05 18:32"))]
    assert not Event.objects.exclude(state="applied").exists()


def test_a_run_goes_on_after_a_batch_applied_wholly_set_based(make_school, taken):
    school = make_school()
    _store(school.connection, created("2026-03-01 09:00"))
    _attendees(school, 3)
    taken.clear()
    assert services.events_apply(connection_id=school.connection.pk, batch_size=2) == 6
    assert len(taken) == 6
    assert Registration.objects.filter(left_at__isnull=False).count() == 3
    assert Connection.objects.values_list("events_applied", "events_held").get() == (10, 0)
