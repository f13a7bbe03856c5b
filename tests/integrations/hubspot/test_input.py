"""What a HubSpot delivery may carry without a server error."""

import time
from datetime import UTC, datetime

import pytest

from integrations.hubspot import backfill, mapping
from integrations.models import Connection, Event

from .conftest import created

pytestmark = pytest.mark.django_db


def test_a_signature_that_is_not_ascii_is_refused(portal, deliver):
    answer = deliver(
        portal.connection, [created(1, 101, "2026-03-05 09:00")], signature="\xe9t\xe9"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_signature"
    assert Connection.objects.get(pk=portal.connection.pk).events_refused == 1


def test_a_timestamp_in_the_future_is_refused(portal, deliver):
    next_year = int((time.time() + 365 * 86400) * 1000)
    answer = deliver(portal.connection, [created(1, 101, "2026-03-05 09:00")], timestamp=next_year)
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "stale_signature",
        "message": "The X-HubSpot-Request-Timestamp is more than 300 seconds ahead of now; "
        "check the sender's clock.",
    }
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    "written",
    [
        lambda ms: f"+{ms}",
        lambda ms: f"{str(ms)[:1]}_{str(ms)[1:]}",
        lambda ms: f" {ms}",
        lambda ms: "2.5e14",
        lambda ms: f"{ms}.0",
        lambda ms: f"0{ms}",
    ],
    ids=["sign", "underscore", "space", "exponent", "fraction", "14 digits"],
)
def test_a_timestamp_that_is_not_plain_digits_is_an_unreadable_signature(portal, deliver, written):
    """The library reads the timestamp with float() and checks it against the past only:
    signed with such a text, a time ahead of now must not slip through."""
    next_year = int((time.time() + 365 * 86400) * 1000)
    answer = deliver(
        portal.connection, [created(1, 101, "2026-03-05 09:00")], timestamp=written(next_year)
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "invalid_signature",
        "message": "The X-HubSpot-Request-Timestamp is not a time: 1 to 13 digits are expected.",
    }
    assert Event.objects.count() == 0
    assert Connection.objects.get(pk=portal.connection.pk).events_refused == 1


@pytest.mark.parametrize("occurred", [10**30, 1e30, -(10**18)])
def test_an_occurred_at_outside_the_calendar_is_stored_without_a_time(portal, deliver, occurred):
    item = created(7, 107, "2026-03-05 09:00")
    item["occurredAt"] = occurred
    answer = deliver(portal.connection, [item])
    assert answer.status_code == 200
    stored = Event.objects.get()
    assert (stored.event_id, stored.occurred_at) == ("7", None)


@pytest.mark.parametrize(
    ("createdate", "moment"),
    [
        ("2026-03-05T09:00:00.000Z", datetime(2026, 3, 5, 9, tzinfo=UTC)),
        ("2026-03-05T09:00:00", datetime(2026, 3, 5, 9, tzinfo=UTC)),
        ("9999-12-31T23:30:00-05:00", None),
        ("0001-01-01T00:30:00+01:00", None),
        ("yesterday", None),
    ],
)
def test_a_contacts_creation_time_is_read_as_every_instant_is(createdate, moment):
    """Read by core.times' one parser: a time outside the calendar's bounds is no time
    (rather than a moment no database column takes)."""
    contact = {"id": "101", "properties": {"createdate": createdate}}
    assert mapping._created(contact) == moment
    assert backfill._ms(contact) == (None if moment is None else int(moment.timestamp() * 1000))
