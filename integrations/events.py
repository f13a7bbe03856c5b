"""The events providers send: stored once per provider event id, and queued for the
worker (one apply task per connection at a time); events waiting for a record released
when it arrives. The one writer of the events' table: the apply and the held events'
resolution store what became of an event through the functions here."""

from __future__ import annotations

import logging
from collections import Counter

from celery import current_app as celery_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection as db_connection
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Least
from django.utils import timezone
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

from core.tasks import task_send

from .base import Described
from .connections import connection_change
from .models import Connection, Event

logger = logging.getLogger(__name__)

APPLY_TASK = "integrations.event_apply"
APPLY_CONNECTION_TASK = "integrations.events_apply"
# How long the mark "a task applies this connection's events" lives unless renewed (each
# batch renews it): a worker killed mid-run leaves it to expire.
DRAIN_MARK_SECONDS = 120


# An event's attempts are counted in a smallint: they stop growing at its largest value.
ATTEMPTS_MAX = 32767


# --- Events ----------------------------------------------------------------------------

_EVENT_FIELDS = (
    "connection",
    "workspace",
    "provider",
    "event_id",
    "event_type",
    "object_id",
    "source",
    "payload",
    "received_at",
    "occurred_at",
    "state",
    "attempts",
    "hold_code",
    "hold_reason",
    "waits_for",
)


def _event_insert(values: dict) -> int | None:
    """INSERT … ON CONFLICT (connection, event_id) DO NOTHING RETURNING id: the new row's
    id, or None when the event is already stored (both SQLite and PostgreSQL)."""
    table = Event._meta
    quote = db_connection.ops.quote_name
    columns, params = [], []
    for name in _EVENT_FIELDS:
        field = table.get_field(name)
        columns.append(quote(field.column))
        params.append(field.get_db_prep_save(values[name], db_connection))
    placeholders = ", ".join(["%s"] * len(columns))
    sql = (
        f"INSERT INTO {quote(table.db_table)} ({', '.join(columns)}) VALUES ({placeholders}) "
        f"ON CONFLICT ({quote(table.get_field('connection').column)}, "
        f"{quote(table.get_field('event_id').column)}) DO NOTHING "
        f"RETURNING {quote('id')}"
    )
    with db_connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def event_receive(
    *, connection: Connection, described: Described, payload: dict, source: str = "webhook"
) -> Event | None:
    """Store a verified event once per (connection, provider event id); None when it is
    already stored (a provider's retry). The caller has it applied (events_apply_soon).

    Inside the caller's transaction when there is one (no savepoint of its own: the insert
    and the counter stand or fall with the caller's other writes)."""
    now = timezone.now()
    with transaction.atomic(savepoint=False):
        event_pk = _event_insert(
            {
                "connection": connection.pk,
                "workspace": connection.workspace_id,
                "provider": connection.provider,
                "event_id": described.event_id[:500],
                "event_type": described.event_type[:100],
                "object_id": described.object_id[:200],
                "source": source,
                "payload": payload,
                "received_at": now,
                "occurred_at": described.occurred_at,
                "state": Event.State.RECEIVED,
                "attempts": 0,
                "hold_code": "",
                "hold_reason": "",
                "waits_for": "",
            }
        )
        if event_pk is None:
            return None
        connection_change(connection=connection, counts={"events_received": 1}, last_event_at=now)
    return Event(
        pk=event_pk,
        connection=connection,
        workspace_id=connection.workspace_id,
        provider=connection.provider,
        event_id=described.event_id,
        event_type=described.event_type,
        object_id=described.object_id,
        source=source,
        payload=payload,
        received_at=now,
        occurred_at=described.occurred_at,
    )


def event_outcome_save(event: Event) -> None:
    """Store the state, hold, times and attempts an outcome gave the event."""
    event.save(
        update_fields=[
            "state",
            "applied_at",
            "attempts",
            "hold_code",
            "hold_reason",
            "waits_for",
            "assigned_sale",
        ]
    )


def event_attempts_save(event: Event) -> None:
    """Store the event's attempts (a try that failed, the event left received)."""
    Event.objects.filter(pk=event.pk).update(attempts=event.attempts)


def events_applied_save(events: list[Event], *, applied_at) -> None:
    """Mark the events applied at that time in one update, each counting one more try."""
    Event.objects.filter(pk__in=[event.pk for event in events]).update(
        state=Event.State.APPLIED,
        applied_at=applied_at,
        attempts=Least(F("attempts") + 1, ATTEMPTS_MAX),
        hold_code="",
        hold_reason="",
        waits_for="",
    )


def event_dismissed_save(event: Event) -> None:
    """Store a held event dismissed."""
    event.state = Event.State.DISMISSED
    event.save(update_fields=["state"])


# --- Applying events ------------------------------------------------------------------
#
# A delivery is stored, then applied by the worker: one task per connection at a time
# applies its received events oldest first, apply.BATCH_SIZE to a transaction, so the commit,
# the task's own cost and the connection's counters are paid once per batch, not once per
# event. A mark in the shared cache says a task is queued or running for the connection;
# a delivery sends a task only when it can set the mark.


def drain_mark(connection_id) -> str:
    return f"integrations:apply:{connection_id}"


def apply_lock(connection_id) -> str:
    return f"integrations.apply|{connection_id}"


def _marks_shared() -> bool:
    """Whether the web processes and the worker see the same marks: a cache in process
    memory is shared only when tasks run in the process that sends them (eager mode)."""
    local = settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    return not local or bool(celery_app.conf.task_always_eager)


def apply_request(connection_id) -> None:
    """Send the connection's apply task. The events are already stored: when the cache or
    the broker cannot be reached (Redis restarting), the delivery is still answered as
    received, and the beat schedule's events_apply_pending sends the task later."""
    try:
        if not _marks_shared() or cache.add(
            drain_mark(connection_id), 1, timeout=DRAIN_MARK_SECONDS
        ):
            task_send(APPLY_CONNECTION_TASK, args=[str(connection_id)])
    except (RedisError, KombuError, OSError) as error:
        logger.warning(
            "connection %s: apply task not sent (%s); the beat schedule sends it again",
            connection_id,
            type(error).__name__,
        )


def events_apply_soon(connection_id) -> None:
    """Have the connection's received events applied once the current transaction commits."""
    transaction.on_commit(lambda: apply_request(connection_id))


def events_release(events) -> int:
    """Send held events (a queryset) back to be applied: they are received again, and
    applied once the current transaction commits. Returns how many."""
    rows = list(
        events.filter(state=Event.State.HELD)
        .select_for_update()
        .order_by("pk")
        .values_list("pk", "connection_id")
    )
    if not rows:
        return 0
    Event.objects.filter(pk__in=[pk for pk, _ in rows]).update(
        state=Event.State.RECEIVED, hold_code="", hold_reason="", waits_for=""
    )
    for connection_id, count in Counter(connection for _, connection in rows).items():
        connection_change(connection=connection_id, counts={"events_held": -count})
        events_apply_soon(connection_id)
    return len(rows)
