"""Applying stored events through the providers' mappings: in batches of BATCH_SIZE, one
batch of a connection at a time, each event in its own savepoint with its audit event;
a provider's set-based fast path first, the rest one by one."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import timedelta
from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record, audit_record_many
from core.locks import lock, try_lock
from core.metrics import webhook_outcomes_count
from core.testing_hooks import pause_for_tests
from workspaces.services import RecordInvalid

from .base import Applied, Held, ProviderError
from .connections import (
    connection_change,
    connection_credentials,
    connection_fail,
    integration_actor,
)
from .events import (
    ATTEMPTS_MAX,
    DRAIN_MARK_SECONDS,
    apply_lock,
    apply_request,
    drain_mark,
    event_attempts_save,
    event_outcome_save,
    events_applied_save,
    events_release,
)
from .models import Connection, Event
from .providers import provider_get

logger = logging.getLogger(__name__)

# Events applied in one transaction by the worker.
BATCH_SIZE = 100
# Test-only hook: makes an apply pause inside its transaction, after the records are
# written, so a test can kill the worker half-way and see the event applied once.
PAUSE_SECONDS_ENV = "INTEGRATIONS_APPLY_PAUSE_SECONDS"
PAUSE_MARKER_ENV = "INTEGRATIONS_APPLY_PAUSE_MARKER"


_COUNTER = {
    Event.State.APPLIED: "events_applied",
    Event.State.HELD: "events_held",
}


class Effects:
    """What settling events changes besides the events: the connection's counters, and the
    events held waiting for the records they made. Gathered over a batch, written once."""

    def __init__(self, connection_id, provider: str):
        self.connection_id = connection_id
        self.provider = provider
        self.counters: Counter = Counter()
        self.outcomes: Counter = Counter()
        self.records: set[str] = set()

    def moved(self, before: str, after: str) -> None:
        if before != after:
            self.counters[_COUNTER.get(before)] -= 1
            self.counters[_COUNTER.get(after)] += 1
            self.outcomes[after] += 1

    def write(self) -> None:
        counts = {name: count for name, count in self.counters.items() if name and count}
        if counts:
            connection_change(connection=self.connection_id, counts=counts)
        if self.outcomes:
            # Counted in the metrics once the outcomes are committed.
            transaction.on_commit(partial(webhook_outcomes_count, self.provider, self.outcomes))
        if self.records:
            events_release(
                Event.objects.filter(
                    connection_id=self.connection_id,
                    state=Event.State.HELD,
                    hold_code=Event.HoldCode.WAITING,
                    waits_for__in=sorted(self.records),
                )
            )
        self.counters.clear()
        self.outcomes = Counter()
        self.records.clear()


def outcome_write(
    event: Event, outcome, *, actor: Actor, effects: Effects, action: str | None = None
) -> None:
    """Record what became of the event: its state and audit event, its counters and the
    records it made (in `effects`)."""
    _outcome_settle(event, outcome, effects)
    audit_record(
        actor=actor,
        action=action or f"integration.event_{event.state}",
        target_type="integration_event",
        target_id=event.pk,
        workspace=event.workspace,
        reason=event.hold_reason,
        detail=_audit_detail(event, outcome),
    )


def _audit_detail(event: Event, outcome) -> dict:
    detail = {"provider": event.provider, "event_id": event.event_id, "type": event.event_type}
    if isinstance(outcome, Applied):
        detail["records"] = list(outcome.records)
    elif isinstance(outcome, Held):
        detail["hold"] = outcome.code
    return detail


def _outcome_settle(event: Event, outcome, effects: Effects) -> None:
    """Set and save the event's state, hold and times from its outcome; count it."""
    before = event.state
    now = timezone.now()
    event.hold_code = event.hold_reason = event.waits_for = ""
    if isinstance(outcome, Applied):
        event.state, event.applied_at = Event.State.APPLIED, now
        effects.records.update(outcome.records)
    elif isinstance(outcome, Held):
        event.state = Event.State.HELD
        event.hold_code, event.hold_reason = outcome.code, outcome.reason
        event.waits_for = outcome.waits_for
    else:
        event.state, event.applied_at = Event.State.IGNORED, now
        event.hold_reason = outcome.reason
    event_outcome_save(event)
    effects.moved(before, event.state)


def event_locked(event_id) -> Event | None:
    return (
        Event.objects.select_for_update(of=("self",))
        .select_related("connection__workspace", "workspace")
        .filter(pk=event_id)
        .first()
    )


class _Unexpected(Exception):
    """A mapping failed in a way no outcome describes (a defect): its event stays received."""


def provider_apply(event: Event):
    provider = provider_get(event.provider)
    try:
        # A savepoint: a writer that refuses leaves no half-written record behind.
        with transaction.atomic():
            return provider.apply(
                event=event,
                connection=event.connection,
                credentials=connection_credentials(event.connection),
            )
    except RecordInvalid as refused:
        return Held(Event.HoldCode.INVALID, f"The record cannot be written: {refused}")
    except ProviderError:
        raise
    except Exception as error:
        logger.exception("event %s: the %s mapping failed", event.pk, event.provider)
        raise _Unexpected(str(error)) from error


# An event whose mapping fails this many times, in a way no outcome describes, is held
# (listed on the Integrations page, where a person can dismiss it) rather than tried again
# for ever: one bad event never keeps a connection's queue busy.
UNEXPECTED_ATTEMPTS_MAX = 5


def _event_settle(event: Event, effects: Effects) -> None:
    """Apply one locked event and record its outcome."""
    event.attempts = min(event.attempts + 1, ATTEMPTS_MAX)
    try:
        outcome = provider_apply(event)
    except _Unexpected:
        if event.attempts < UNEXPECTED_ATTEMPTS_MAX:
            event_attempts_save(event)
            raise
        outcome = Held(
            Event.HoldCode.INVALID,
            f"Applying it failed {event.attempts} times (an error of the service); dismiss "
            "it, or ask support to look at the server's log.",
        )
    outcome_write(event, outcome, actor=integration_actor(event.connection), effects=effects)


FINAL_STATES = (Event.State.APPLIED, Event.State.IGNORED, Event.State.DISMISSED)


def event_apply(*, event_id) -> Event | None:
    """Apply one stored event through its provider's mapping: applied, held with why, or
    ignored. Running it again on an applied, ignored or dismissed event changes nothing;
    a held one is tried again.

    A provider whose mapping reads its API (HubSpot) may fail to: the event is left
    received (the beat schedule sends it again) and the connection is failing."""
    try:
        with transaction.atomic():
            event = event_locked(event_id)
            if event is None or event.state in FINAL_STATES:
                return event
            if provider_get(event.provider) is None:
                logger.warning("event %s: no provider %s is built", event.pk, event.provider)
                return event
            # After the batch its connection may be applying (which skips this event).
            lock(apply_lock(event.connection_id))
            effects = Effects(event.connection_id, event.provider)
            try:
                _event_settle(event, effects)
            except _Unexpected:
                return event
            effects.write()
            pause_for_tests(PAUSE_SECONDS_ENV, PAUSE_MARKER_ENV)
        return event
    except ProviderError as error:
        connection = Connection.objects.filter(events__pk=event_id).first()
        if connection is not None:
            connection_fail(connection=connection, error=error)
        return Event.objects.filter(pk=event_id).first()


def _outcomes_write_many(connection: Connection, settled: list, effects: Effects) -> None:
    """As outcome_write for many events at once: the applied ones in one update and
    every audit event in one insert."""
    now = timezone.now()
    applied = [event for event, outcome in settled if isinstance(outcome, Applied)]
    if applied:
        events_applied_save(applied, applied_at=now)
    entries = []
    for event, outcome in settled:
        if isinstance(outcome, Applied):
            effects.moved(event.state, Event.State.APPLIED)
            event.state, event.applied_at = Event.State.APPLIED, now
            effects.records.update(outcome.records)
        else:
            event.attempts = min(event.attempts + 1, ATTEMPTS_MAX)
            _outcome_settle(event, outcome, effects)
        entries.append(
            {
                "action": f"integration.event_{event.state}",
                "target_type": "integration_event",
                "target_id": event.pk,
                "workspace": connection.workspace,
                "reason": event.hold_reason,
                "detail": _audit_detail(event, outcome),
            }
        )
    audit_record_many(actor=integration_actor(connection), entries=entries)


def _fast_apply(connection: Connection, events: list, effects: Effects) -> list:
    """The provider's set-based apply of what it can (see Provider.apply_many); returns
    the events left to apply one by one."""
    provider = provider_get(connection.provider)
    many = provider.apply_many if provider is not None else None
    if many is None or not events:
        return events
    fast = Effects(connection.pk, connection.provider)
    try:
        with transaction.atomic():
            outcomes = many(events=events, connection=connection)
            settled = [(event, outcomes[event.pk]) for event in events if event.pk in outcomes]
            _outcomes_write_many(connection, settled, fast)
    except RecordInvalid:
        return events
    except Exception:
        # A defect of the fast path stops no event: each is applied one by one instead.
        logger.exception(
            "connection %s: the %s fast path failed", connection.pk, connection.provider
        )
        return events
    effects.counters.update(fast.counters)
    effects.outcomes.update(fast.outcomes)
    effects.records |= fast.records
    return [event for event in events if event.pk not in outcomes]


class _Busy(Exception):
    """Another run is applying a batch of the same connection's events."""


def events_apply_batch(
    *, connection: Connection, size: int, skipped: set
) -> tuple[int, ProviderError | None]:
    """Apply up to `size` of the connection's received events, oldest first, in one
    transaction. Returns how many were taken, and the provider's refusal that stopped the
    batch, if one did. One batch of a connection at a time (on PostgreSQL, a lock held
    until the batch commits): raises _Busy when another run holds it."""
    failure = None
    with transaction.atomic():
        if not try_lock(apply_lock(connection.pk)):
            raise _Busy()
        events = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(connection_id=connection.pk, state=Event.State.RECEIVED)
            .exclude(pk__in=skipped)
            .order_by("pk")[:size]
        )
        effects = Effects(connection.pk, connection.provider)
        for event in events:
            event.connection, event.workspace = connection, connection.workspace
        taken = len(events)
        for event in _fast_apply(connection, events, effects):
            try:
                _event_settle(event, effects)
            except _Unexpected:
                skipped.add(event.pk)
            except ProviderError as error:
                failure = error
                break
        effects.write()
        pause_for_tests(PAUSE_SECONDS_ENV, PAUSE_MARKER_ENV)
    return taken, failure


def events_apply(*, connection_id, batch_size: int = BATCH_SIZE) -> int:
    """Apply the connection's received events, batch after batch, until none is left
    (events that fail in a way no outcome describes are logged, left received for the
    beat schedule, and not taken again by this run). Returns how many were taken.

    A provider that refuses (HubSpot's API) stops the run: the connection is failing and
    its events stay received until the beat schedule sends them again."""
    connection = Connection.objects.select_related("workspace").filter(pk=connection_id).first()
    if connection is None or provider_get(connection.provider) is None:
        return 0
    mark, taken, skipped, failure = drain_mark(connection.pk), 0, set(), None
    try:
        while failure is None:
            cache.set(mark, 1, timeout=DRAIN_MARK_SECONDS)
            count, failure = events_apply_batch(
                connection=connection, size=batch_size, skipped=skipped
            )
            taken += count
            if count == 0:
                break
    except _Busy:
        # The other run goes on until none is left, and looks again at its end.
        return taken
    finally:
        cache.delete(mark)
    if failure is not None:
        connection_fail(connection=connection, error=failure)
    elif (
        Event.objects.filter(connection_id=connection.pk, state=Event.State.RECEIVED)
        .exclude(pk__in=skipped)
        .exists()
    ):
        # Stored after the last batch looked, by a request that found the mark still set.
        apply_request(connection.pk)
    return taken


def connections_pending(*, older_than: timedelta) -> list[str]:
    """The connections with events stored but not applied for a while (their task was
    lost: a web process that stopped between the commit and the send, a worker killed
    mid-apply, a provider that refused)."""
    return [
        str(connection_id)
        for connection_id in Event.objects.filter(
            state=Event.State.RECEIVED, received_at__lte=timezone.now() - older_than
        )
        .order_by("connection_id")
        .values_list("connection_id", flat=True)
        .distinct()
    ]
