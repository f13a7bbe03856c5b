"""The worker applies a batch's Calendly bookings and cancellations of existing leads
set-based (calendly.mapping.events_map_many): the calls, leads, events, audit events and
announced events are exactly those of applying the same deliveries one by one."""

import pytest

from integrations import services
from integrations.calendly import PROVIDER, mapping
from integrations.providers import provider_get
from workspaces.models import Call, Lead

from ..fastpath import applied_one_by_one, snapshot, spy
from .conftest import delivery, invitee, no_show, uri

pytestmark = pytest.mark.django_db


def _store(connection, payload):
    described = provider_get("calendly").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


def _person(event_id, invitee_id, email, name, *, host="ada@example.test", **extra):
    return invitee(
        event_id,
        invitee_id,
        email=email,
        name=name,
        created="2026-03-02 09:00",
        start="2026-03-09 15:00",
        host=host,
        **extra,
    )


def bookings():
    """Pat and Quinn (leads already) book; Rae (no lead yet) books; Uma's cancellation
    comes before her booking; Vic books with a host who is no member."""
    return [
        delivery(
            "invitee.created", _person("E1", "I-pat", "PAT@example.test", "Pat"), "2026-03-02 09:00"
        ),
        delivery(
            "invitee.created",
            _person("E2", "I-quinn", "quinn@example.test", "Quinn", host="SAM@example.test"),
            "2026-03-02 09:01",
        ),
        delivery(
            "invitee.created", _person("E3", "I-rae", "rae@example.test", "Rae"), "2026-03-02 09:02"
        ),
        delivery(
            "invitee.canceled",
            _person(
                "E4",
                "I-uma",
                "uma@example.test",
                "Uma",
                status="canceled",
                canceled_at="2026-03-03 09:00",
            ),
            "2026-03-03 09:00",
        ),
        delivery(
            "invitee.created",
            _person("E5", "I-vic", "vic@example.test", "Vic", host="nobody@example.test"),
            "2026-03-02 09:03",
        ),
    ]


def changes():
    """Pat cancels; Uma's booking arrives after her cancellation; Quinn reschedules (both
    sides); a no-show of Vic; Rae's booking sent again (stored once)."""
    new = uri("E6", "I-quinn2")
    return [
        delivery(
            "invitee.canceled",
            _person(
                "E1",
                "I-pat",
                "pat@example.test",
                "Pat",
                status="canceled",
                canceled_at="2026-03-04 09:00",
            ),
            "2026-03-04 09:00",
        ),
        delivery(
            "invitee.created", _person("E4", "I-uma", "uma@example.test", "Uma"), "2026-03-02 09:04"
        ),
        delivery(
            "invitee.canceled",
            _person(
                "E2",
                "I-quinn",
                "quinn@example.test",
                "Quinn",
                status="canceled",
                rescheduled=True,
                new=new,
                canceled_at="2026-03-04 10:00",
            ),
            "2026-03-04 10:00",
        ),
        delivery(
            "invitee.created",
            _person("E6", "I-quinn2", "quinn@example.test", "Quinn", old=uri("E2", "I-quinn")),
            "2026-03-04 10:00",
        ),
        delivery(
            "invitee_no_show.created",
            no_show("N1", uri("E5", "I-vic"), "2026-03-09 15:20"),
            "2026-03-09 15:20",
        ),
        delivery(
            "invitee.created", _person("E3", "I-rae", "rae@example.test", "Rae"), "2026-03-02 09:02"
        ),
    ]


def run(team):
    t = team()
    for email, name in (
        ("pat@example.test", "Pat"),
        ("Quinn@Example.test", "Quinn"),
        ("uma@example.test", "Uma"),
        ("vic@example.test", "Vic"),
    ):
        Lead.objects.create(
            workspace=t.ws,
            name=name,
            email=email,
            external_id=f"L-{name}",
            created_at=mapping.parse_iso("2026-02-01T00:00:00Z"),
            setter=t.sam,
        )
    for stage in (bookings(), changes()):
        for payload in stage:
            _store(t.connection, payload)
        services.events_apply(connection_id=t.connection.pk)
    return snapshot(t.ws)


def test_bookings_and_cancellations_applied_set_based_end_as_one_by_one(team, monkeypatch):
    slow = applied_one_by_one(monkeypatch, PROVIDER, run, team)
    taken = spy(monkeypatch, mapping)
    fast = run(team)

    assert fast == slow
    fast_ids = sorted(
        event_id.split("|")[0] + "|" + event_id.split("/")[-1].split("|")[0]
        for event_id, _outcome in taken
    )
    assert fast_ids == [
        "invitee.canceled|I-pat",
        "invitee.canceled|I-uma",
        "invitee.created|I-pat",
        "invitee.created|I-quinn",
        "invitee.created|I-uma",
        "invitee.created|I-vic",
    ]
    calls = {c.external_id.split("/")[-1]: c for c in Call.objects.filter(lead__name="Pat")}
    assert {key: call.status for key, call in calls.items()} == {"I-pat": "cancelled"}
    # Vic's no-show (one by one) finds the call the fast path made.
    no_shows = [row[1] for row in fast["events"] if row[0].startswith("invitee_no_show")]
    assert no_shows == ["applied"]
    assert Call.objects.filter(attendance="no_show").count() == 2
