"""HubSpot deliveries end to end: a signed batch of events, the contacts read in one
batch call (HubSpot's answers replayed), the leads and the figures they make."""

import json
import random
import time

import pytest

from integrations.models import Connection, Event
from workspaces.models import Lead

from .conftest import (
    CLIENT_SECRET,
    OTHER_SECRET,
    changed,
    created,
    hubspot_connection,
    replay,
    sign,
)

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
FIRST = [
    created(9001, 101, "2026-03-02 09:00"),
    created(9002, 102, "2026-03-03 10:30"),
    changed(9003, 101, "2026-03-02 09:05", "utm_source", "google"),
    created(9004, 103, "2026-03-04 10:00"),
]


def leads_listed(portal):
    body = portal.reader.get("/api/v1/leads", MARCH).json()
    return body["data"]["created"]["value"], [
        (
            row["name"],
            row["email"],
            row["created_at"],
            row["status"],
            row["utm_source"],
            row["utm_medium"],
            row["utm_campaign"],
            row["utm_content"],
        )
        for row in body["data"]["leads"]
    ]


def attribution(portal):
    body = portal.reader.get("/api/v1/attribution", MARCH).json()
    return [
        (
            row["utm_source"],
            row["utm_medium"],
            row["utm_campaign"],
            row["utm_content"],
            row["leads"]["value"],
            row["closes"]["value"],
            row["cash_collected"]["value"],
            row["close_rate"]["value"],
        )
        for row in body["data"]["rows"]
    ]


LEADS = (
    3,
    [
        # The imported lead with Pat's email, updated (not duplicated): HubSpot's name,
        # UTMs and earlier creation time; its status stays.
        (
            "Pat Doe",
            "pat@example.test",
            "2026-03-04T10:00:00Z",
            "booked",
            "newsletter",
            "email",
            "march",
            "(none)",
        ),
        (
            "Bo Chen",
            "bo@example.test",
            "2026-03-03T10:30:00Z",
            "new",
            "facebook",
            "paid_social",
            "spring",
            "video",
        ),
        (
            "Ada Lovelace",
            "ada@example.test",
            "2026-03-02T09:00:00Z",
            "new",
            "google",
            "cpc",
            "spring",
            "(none)",
        ),
    ],
)
# One lead a row, rows then by their tuple; Pat's sale and 1,000 USD paid follow the lead.
ATTRIBUTION = [
    ("facebook", "paid_social", "spring", "video", 1, 0, 0, 0.0),
    ("google", "cpc", "spring", "(none)", 1, 0, 0, 0.0),
    ("newsletter", "email", "march", "(none)", 1, 1, 1000, 1.0),
]


def test_a_batch_of_events_makes_the_leads_with_one_read(portal, deliver, sent):
    with replay.use_cassette("contacts_read.yaml") as cassette:
        answer = deliver(portal.connection, FIRST)
        assert cassette.play_count == 1
    assert (answer.status_code, answer.json()) == (200, {"received": True})
    # One call for the four events: the first event's contact, then its siblings'.
    [request] = sent
    assert (request.method, request.url) == (
        "POST",
        "https://api.hubapi.com/crm/v3/objects/contacts/batch/read",
    )
    assert request.body == {
        "propertiesWithHistory": [],
        "inputs": [{"id": "101"}, {"id": "102"}, {"id": "103"}],
        "properties": [
            "email",
            "firstname",
            "lastname",
            "createdate",
            "phone",
            "hs_facebook_click_id",
            "hs_google_click_id",
            "utm_source",
            "utm_medium",
            "utm_campaign",
            "utm_content",
        ],
    }
    assert request.headers["Authorization"] == (
        "Bearer pat-na1-0a1b2c3d-0a1b-4c2d-8e3f-0a1b2c3d4e5f"
    )
    assert sorted(Event.objects.values_list("event_id", "event_type", "object_id", "state")) == [
        ("9001", "contact.creation", "101", "applied"),
        ("9002", "contact.creation", "102", "applied"),
        ("9003", "contact.propertyChange", "101", "applied"),
        ("9004", "contact.creation", "103", "applied"),
    ]
    assert sorted(Lead.objects.values_list("external_id", "email")) == [
        ("hubspot:101", "ada@example.test"),
        ("hubspot:102", "bo@example.test"),
        ("import-pat", "pat@example.test"),
    ]
    assert leads_listed(portal) == LEADS
    assert attribution(portal) == ATTRIBUTION
    connection = Connection.objects.get()
    assert (connection.events_received, connection.events_applied) == (4, 4)


def test_a_later_change_is_read_again(portal, deliver, sent):
    with replay.use_cassette("contacts_read.yaml") as cassette:
        deliver(portal.connection, FIRST)
        deliver(portal.connection, [changed(9005, 102, "2026-03-09 08:00", "lastname", "Chen-Li")])
        assert cassette.play_count == 2
    assert sent[1].body["inputs"] == [{"id": "102"}]
    bo = Lead.objects.get(external_id="hubspot:102")
    assert (bo.name, bo.utm_content) == ("Bo Chen-Li", "video-2")
    assert Lead.objects.count() == 3


def test_duplicate_and_shuffled_deliveries_change_nothing(portal, deliver):
    with replay.use_cassette("contacts_read_any.yaml", allow_playback_repeats=True) as cassette:
        shuffled = FIRST[:]
        random.Random(7).shuffle(shuffled)
        # Two deliveries in another order, then HubSpot's retry of the whole batch.
        assert deliver(portal.connection, shuffled[:2]).json() == {"received": True}
        assert deliver(portal.connection, shuffled[2:]).json() == {"received": True}
        calls = cassette.play_count
        assert deliver(portal.connection, FIRST[::-1]).json() == {
            "received": True,
            "duplicate": True,
        }
        # The retry is stored no second time and reads nothing.
        assert cassette.play_count == calls
    assert Event.objects.count() == 4
    assert set(Event.objects.values_list("state", flat=True)) == {"applied"}
    assert Lead.objects.count() == 3
    assert leads_listed(portal) == LEADS
    assert attribution(portal) == ATTRIBUTION


def test_a_contact_hubspot_no_longer_has_is_ignored(portal, deliver):
    with replay.use_cassette("contacts_read_missing.yaml"):
        deliver(
            portal.connection,
            [created(9001, 101, "2026-03-02 09:00"), created(9010, 104, "2026-03-02 09:30")],
        )
    assert sorted(Event.objects.values_list("object_id", "state", "hold_reason")) == [
        ("101", "applied", ""),
        ("104", "ignored", "HubSpot has no contact 104 (deleted or merged)."),
    ]
    assert list(Lead.objects.order_by("email").values_list("email", flat=True)) == [
        "ada@example.test",
        "pat@example.test",
    ]


def test_a_refused_token_leaves_the_events_to_apply_again(portal, deliver):
    with replay.use_cassette("contacts_read_refused.yaml", allow_playback_repeats=True):
        answer = deliver(portal.connection, FIRST[:1])
    # The delivery is taken; reading the contact failed.
    assert answer.status_code == 200
    event = Event.objects.get()
    assert (event.state, event.attempts) == ("received", 0)
    connection = Connection.objects.get()
    assert connection.state == "failing"
    assert connection.last_error == "HubSpot refused the credential."
    assert Lead.objects.count() == 1


def test_another_event_type_is_stored_and_ignored(portal, deliver):
    deal = {**created(9100, 555, "2026-03-02 09:00"), "subscriptionType": "deal.creation"}
    with replay.use_cassette("contacts_read_any.yaml"):
        deliver(portal.connection, [deal])
    assert list(Event.objects.values_list("state", "hold_reason")) == [
        ("ignored", "HubSpot's deal.creation feeds no record.")
    ]


def _refused(answer, reason):
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == reason
    return answer.json()["error"]["message"]


def nothing_stored(refused):
    connection = Connection.objects.get()
    assert Event.objects.count() == 0
    assert Lead.objects.count() == 1
    assert (connection.events_received, connection.events_refused) == (0, refused)


def test_a_bad_signature_is_refused_and_nothing_is_stored(portal, deliver):
    message = _refused(deliver(portal.connection, FIRST, secret=OTHER_SECRET), "invalid_signature")
    assert message == (
        "The X-HubSpot-Signature-v3 header does not match this endpoint's app client secret."
    )
    _refused(
        deliver(portal.connection, FIRST, signature="bm90IGEgc2lnbmF0dXJl"), "invalid_signature"
    )
    nothing_stored(refused=2)


def test_a_signature_of_another_url_is_refused(portal, deliver, settings, make_workspace):
    # Another workspace's connection (a workspace has one per provider).
    other = hubspot_connection(make_workspace())
    # Signed for the other connection's URL, sent to this one's.

    body = json.dumps(FIRST)
    stamp = int(time.time() * 1000)
    signature = sign(
        CLIENT_SECRET, "POST", f"{settings.BASE_URL}/hooks/hubspot/{other.pk}", body, stamp
    )
    _refused(
        deliver(portal.connection, FIRST, timestamp=stamp, signature=signature), "invalid_signature"
    )
    assert Event.objects.count() == 0


def test_a_stale_timestamp_is_refused(portal, deliver):
    stale = int(time.time() * 1000) - 301_000
    message = _refused(deliver(portal.connection, FIRST, timestamp=stale), "stale_signature")
    assert message == (
        "The X-HubSpot-Request-Timestamp is more than 300 seconds old or not a time; HubSpot "
        "retries with a fresh one."
    )
    nothing_stored(refused=1)


def test_a_body_that_is_no_batch_of_events_is_refused(portal, deliver):
    assert _refused(deliver(portal.connection, [1, 2]), "invalid_body") == (
        "The body is not a JSON object or array of objects."
    )
    no_id = {**created(9001, 101, "2026-03-02 09:00")}
    del no_id["eventId"]
    assert _refused(deliver(portal.connection, [no_id]), "invalid_body") == (
        "The event carries no id."
    )
    nothing_stored(refused=2)
