"""Recording an event: the one function every writer calls, inside its own transaction.
This module is the only writer of `events.Event`: the dispatcher's claim of an event
(`event_claim`) and the pruning of old events (`events_prune`) are here too.

The event is one insert. Who delivers it is not this module's business: the webhooks
app registers a dispatcher (``dispatcher_set``) that says whether any endpoint wants
the event, and hands it over once the transaction commits. Without a dispatcher (or
when no endpoint wants it) the event is only kept for the feed.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Protocol

from django.db import connection, transaction
from django.utils import timezone

from core.ids import parse_uuid
from core.times import parse_iso

from .models import Event
from .types import EVENT_TYPES, PING


class Dispatcher(Protocol):
    def wanted(self, workspace, type: str) -> bool: ...

    def dispatch(self, event: Event) -> None: ...


_dispatcher: Dispatcher | None = None


def dispatcher_set(dispatcher: Dispatcher | None) -> None:
    global _dispatcher
    _dispatcher = dispatcher


def event_record(*, workspace, type: str, data: dict) -> Event:
    """Record one event of the workspace. Must run inside the transaction of the write it
    announces, so that neither exists without the other."""
    return _record(workspace, [(type, data)], ping_allowed=True)[0]


def events_bulk_record(*, workspace, events: list[tuple[str, dict]]) -> int:
    """Many events of one workspace at once (one insert), for writers that write many
    records at once. Same rule: inside the writes' transaction."""
    return len(_record(workspace, events)) if events else 0


def _record(workspace, events: list[tuple[str, dict]], *, ping_allowed=False) -> list[Event]:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("An event must be recorded inside the transaction of its write")
    now = timezone.now()
    rows = []
    wanted_of: dict[str, bool] = {}  # asked once per type of the batch
    for type, data in events:
        if type not in EVENT_TYPES and not (ping_allowed and type == PING):
            raise ValueError(f"Unknown event type {type!r}")
        # A ping goes to the one endpoint it tests (webhooks.services.endpoint_ping), never
        # to the endpoints that want every type.
        wanted = wanted_of.get(type)
        if wanted is None:
            wanted = wanted_of[type] = (
                type != PING and _dispatcher is not None and _dispatcher.wanted(workspace, type)
            )
        rows.append(
            Event(
                workspace_id=workspace.pk,
                type=type,
                created_at=now,
                data=data,
                dispatched=not wanted,
            )
        )
    made = Event.objects.bulk_create(rows, batch_size=1000)
    for event in made:
        if not event.dispatched:
            _dispatcher.dispatch(event)
    return made


def event_claim(seq: int) -> Event | None:
    """Mark an event that waits for its hand-over dispatched and read it, in one
    statement; None if it is not waiting (another run claimed it, or none wanted it)."""
    table = Event._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET dispatched = %s WHERE seq = %s AND dispatched = %s "
            "RETURNING seq, id, workspace_id, type, created_at, data",
            [True, seq, False],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    seq, id, workspace_id, type, created_at, data = row
    if isinstance(data, str):  # the JSON's text, as Django's database settings leave it
        data = json.loads(data)
    if not isinstance(workspace_id, uuid.UUID):  # SQLite answers the UUID's hex
        workspace_id = parse_uuid(workspace_id)
    if isinstance(created_at, str):  # SQLite answers a naive text in UTC
        created_at = parse_iso(created_at, naive_is_utc=True)
    return Event(
        seq=seq,
        id=id,
        workspace_id=workspace_id,
        type=type,
        created_at=created_at,
        data=data,
        dispatched=True,
    )


def events_undispatched(*, before: datetime, limit: int = 1000) -> list[int]:
    """The events recorded before that time still waiting for their hand-over, oldest
    first (their hand-over after commit was lost)."""
    return list(
        Event.objects.filter(dispatched=False, created_at__lt=before)
        .order_by("seq")
        .values_list("seq", flat=True)[:limit]
    )


def events_prune(*, before: datetime, batch: int = 5000) -> int:
    """Forget the events recorded before that time (their deliveries go with them), a
    batch at a time; how many."""
    pruned = 0
    while True:
        seqs = list(
            Event.objects.filter(created_at__lt=before).values_list("seq", flat=True)[:batch]
        )
        if not seqs:
            return pruned
        pruned += Event.objects.filter(seq__in=seqs).delete()[1].get("events.Event", 0)
