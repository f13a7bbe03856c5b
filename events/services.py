"""Recording an event: the one function every writer calls, inside its own transaction.

The event is one insert. Who delivers it is not this module's business: the webhooks
app registers a dispatcher (``dispatcher_set``) that says whether any endpoint wants
the event, and hands it over once the transaction commits. Without a dispatcher (or
when no endpoint wants it) the event is only kept for the feed.
"""

from __future__ import annotations

from typing import Protocol

from django.db import transaction
from django.utils import timezone

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
    for type, data in events:
        if type not in EVENT_TYPES and not (ping_allowed and type == PING):
            raise ValueError(f"Unknown event type {type!r}")
        # A ping goes to the one endpoint it tests (webhooks.services.endpoint_ping), never
        # to the endpoints that want every type.
        wanted = type != PING and _dispatcher is not None and _dispatcher.wanted(workspace, type)
        rows.append(
            Event(workspace_id=workspace.pk, type=type, created_at=now, data=data,
                  dispatched=not wanted)
        )  # fmt: skip
    made = Event.objects.bulk_create(rows, batch_size=1000)
    for event in made:
        if not event.dispatched:
            _dispatcher.dispatch(event)
    return made
