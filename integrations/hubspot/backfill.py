"""The contacts created in the last 90 days, read page by page through HubSpot's search.

Each contact becomes a BackfillItem standing for a `contact.creation` event, with the
contact as read in its payload (so applying it makes no second call). Its event id is
`backfill:<contact id>:<read time>`; the lead is keyed on `hubspot:<contact id>` as the
webhooks' are, so the two never make the same lead twice.

The cursor is `{since, after}`: the creation time searched from (milliseconds, fixed when
the backfill starts) and HubSpot's paging token. HubSpot's search pages no further than
10,000 results, so before that the search starts again from the last creation time read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from core.times import from_epoch, parse_iso

from ..base import BackfillItem, BackfillPage, Described
from . import client as api
from .mapping import CREATION, properties_for

DAYS = 90
SEARCH_LIMIT = 10_000


def _ms(contact: dict) -> int | None:
    value = (contact.get("properties") or {}).get("createdate") or contact.get("createdAt")
    moment = parse_iso(value, naive_is_utc=True)
    return None if moment is None else int(moment.timestamp() * 1000)


def _item(contact: dict, read_at: int) -> BackfillItem:
    created = _ms(contact)
    payload = {
        "eventId": f"backfill:{contact['id']}:{read_at}",
        "subscriptionType": CREATION,
        "objectId": contact["id"],
        "occurredAt": created,
        "readAt": read_at / 1000,
        "contact": contact,
    }
    return BackfillItem(
        described=Described(
            event_id=payload["eventId"],
            event_type=CREATION,
            occurred_at=from_epoch(created, per_second=1000) if created else None,
            object_id=str(contact["id"]),
        ),
        payload=payload,
    )


def pages(*, connection, credentials: dict, cursor: dict | None) -> Iterator[BackfillPage]:
    cursor = dict(cursor or {})
    since = cursor.get("since")
    if not isinstance(since, int):
        since = int((datetime.now(tz=UTC) - timedelta(days=DAYS)).timestamp() * 1000)
    after = cursor.get("after")
    client = api.client_for(credentials)
    properties = properties_for(connection)
    while True:
        read_at = int(time.time() * 1000)
        contacts, following = api.contacts_search(
            client, since_ms=since, after=after, properties=properties
        )
        items = [_item(contact, read_at) for contact in contacts]
        if following is None:
            next_cursor = None
        elif int(following) + api.PAGE_SIZE > SEARCH_LIMIT and contacts:
            # The next page would pass HubSpot's limit: search again from here.
            since = max(since, _ms(contacts[-1]) or since)
            after = None
            next_cursor = {"since": since}
        else:
            after = following
            next_cursor = {"since": since, "after": after}
        yield BackfillPage(items=items, cursor=next_cursor)
        if next_cursor is None:
            return
