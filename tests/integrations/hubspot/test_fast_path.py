"""The worker applies a batch's new HubSpot contacts set-based (hubspot.mapping.
events_map_many): the contacts are read in one call and the leads, events, audit events
and announced events are exactly those of applying the same deliveries one by one."""

import pytest
from django.core.cache import cache

from integrations import services
from integrations.hubspot import PROVIDER, mapping
from integrations.hubspot import client as api
from integrations.providers import provider_get
from workspaces.models import Lead

from ..conftest import utc
from ..fastpath import applied_one_by_one, snapshot, spy
from .conftest import changed, created, hubspot_connection

pytestmark = pytest.mark.django_db


def contact(contact_id, email, first, last, when, utm=None):
    stamp = when.replace(" ", "T") + ":00.000Z"
    return {
        "id": str(contact_id),
        "properties": {
            "email": email,
            "firstname": first,
            "lastname": last,
            "createdate": stamp,
            "utm_source": utm,
        },
        "createdAt": stamp,
        "updatedAt": stamp,
    }


CONTACTS = {
    "101": contact(101, "ada@example.test", "Ada", "Lovelace", "2026-03-02 09:00", "google"),
    "102": contact(102, "bo@example.test", "Bo", "Chen", "2026-03-03 10:30"),
    # Pat is a lead already (imported): updated, one by one.
    "103": contact(103, "PAT@Example.test", "Pat", "Doe", "2026-03-04 10:00"),
    # Two contacts with one email: the second updates the first's lead.
    "104": contact(104, "twin@example.test", "Twin", "One", "2026-03-05 10:00"),
    "105": contact(105, "twin@example.test", "Twin", "Two", "2026-03-05 11:00"),
    "106": contact(106, "", "No", "Email", "2026-03-06 10:00"),
    "107": {"id": "107", "properties": {"email": "late@example.test"}},
}


@pytest.fixture
def reads(monkeypatch):
    """HubSpot's batch read, answered from CONTACTS (108 is deleted); the ids of each call."""
    calls = []

    def read(client, ids, properties):
        calls.append(list(ids))
        return {i: CONTACTS[i] for i in ids if i in CONTACTS}

    monkeypatch.setattr(api, "contacts_read", read)
    return calls


def _store(connection, payload):
    described = provider_get("hubspot").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


def run(make_workspace):
    ws = make_workspace(currency="USD", timezone="UTC")
    Lead.objects.create(
        workspace=ws,
        name="Pat",
        email="pat@example.test",
        external_id="L-pat",
        created_at=utc("2026-02-01 00:00"),
    )
    connection = hubspot_connection(ws)
    cache.clear()
    first = [created(n, int(i), "2026-03-07 09:00") for n, i in enumerate(CONTACTS, 1)]
    first.append(created(20, 108, "2026-03-07 09:00"))
    second = [
        changed(30, 101, "2026-03-07 10:00", "firstname", "Ada"),
        created(31, 102, "2026-03-03 10:30"),
    ]
    for stage in (first, second):
        for payload in stage:
            _store(connection, payload)
        services.events_apply(connection_id=connection.pk)
    return snapshot(ws)


def test_new_contacts_applied_set_based_end_as_one_by_one(make_workspace, reads, monkeypatch):
    slow = applied_one_by_one(monkeypatch, PROVIDER, run, make_workspace)
    slow_reads = list(reads)
    reads.clear()
    taken = spy(monkeypatch, mapping)
    fast = run(make_workspace)

    assert fast == slow
    # Ada, Bo and the contact without an email make leads; 107 (no creation time) and 108
    # (deleted) are ignored; Pat's, the twins' and the later changes are one by one.
    assert sorted(event_id for event_id, _outcome in taken) == ["1", "2", "20", "6", "7"]
    # One read a batch, either way (the one-by-one path uses the reads the fast path kept).
    assert [sorted(ids) for ids in reads] == [
        ["101", "102", "103", "104", "105", "106", "107", "108"],
        ["101", "102"],
    ]
    assert [sorted(ids) for ids in slow_reads] == [sorted(ids) for ids in reads]
    assert sorted(row[1:3] for row in fast["leads"]) == [
        ("Ada Lovelace", "ada@example.test"),
        ("Bo Chen", "bo@example.test"),
        ("No Email", ""),
        ("Pat Doe", "pat@example.test"),
        ("Twin Two", "twin@example.test"),
    ]
