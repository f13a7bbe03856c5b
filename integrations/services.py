"""Writes of the integrations: connections, the events providers send, and held events.

Every function takes keyword arguments, runs in one transaction and records its audit
event inside it; tasks are sent with transaction.on_commit, by name, so this module
imports no task module (the worker's tasks import it).

Connection ids. The connect page shows the webhook URL, which names the connection,
before it asks for the webhook secret, so the id is known before the form is sent:
- a connect link's connection has a deterministic id, uuid5 of the link's id and the
  provider's key (`connection_id_for_link`): a link connects each provider once;
- another page (the workspace's Integrations settings) allocates a random id and carries
  it signed through its form (`connection_id_allocate` / `connection_id_unsign`).
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections import Counter
from datetime import timedelta

from celery import current_app as celery_app
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import connection as db_connection
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Least
from django.utils import timezone

from audit.services import Actor, audit_record, audit_record_many
from core.crypto import decrypt_json, decrypt_text, encrypt_json, encrypt_text
from core.errors import InvalidField, NotFound
from core.locks import lock, try_lock
from core.testing_hooks import pause_for_tests
from workspaces.models import Sale, Workspace
from workspaces.services import RecordInvalid

from .base import Applied, BackfillPage, Described, Held, ProviderError
from .models import Connection, Event
from .providers import credentials_check, provider_get
from .selectors import webhook_url  # noqa: F401 - named here for the pages

logger = logging.getLogger(__name__)

BACKFILL_TASK = "integrations.connection_backfill"
APPLY_TASK = "integrations.event_apply"
APPLY_CONNECTION_TASK = "integrations.events_apply"
# Events applied in one transaction by the worker.
BATCH_SIZE = 100
# How long the mark "a task applies this connection's events" lives unless renewed (each
# batch renews it): a worker killed mid-run leaves it to expire.
DRAIN_MARK_SECONDS = 120
# An event's attempts are counted in a smallint: they stop growing at its largest value.
ATTEMPTS_MAX = 32767
# Test-only hook: makes an apply pause inside its transaction, after the records are
# written, so a test can kill the worker half-way and see the event applied once.
PAUSE_SECONDS_ENV = "INTEGRATIONS_APPLY_PAUSE_SECONDS"
PAUSE_MARKER_ENV = "INTEGRATIONS_APPLY_PAUSE_MARKER"
_ALLOCATE_SALT = "integrations.connection-id"
# A pre-allocated id is good for a day: long enough to fill the form at the provider's.
ALLOCATED_ID_MAX_AGE = 24 * 3600


def integration_actor(connection: Connection) -> Actor:
    return Actor(kind="integration", id=str(connection.pk), label=connection.provider)


def connection_id_for_link(*, link_id, provider: str) -> uuid.UUID:
    return uuid.uuid5(uuid.UUID(str(link_id)), provider)


def connection_id_allocate() -> tuple[uuid.UUID, str]:
    """A new connection id, and the signed form of it a page's form carries."""
    connection_id = uuid.uuid4()
    return connection_id, signing.dumps(str(connection_id), salt=_ALLOCATE_SALT)


def connection_id_unsign(signed: str) -> uuid.UUID | None:
    """The id `connection_id_allocate` signed, or None if forged or more than a day old."""
    try:
        return uuid.UUID(signing.loads(signed, salt=_ALLOCATE_SALT, max_age=ALLOCATED_ID_MAX_AGE))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def task_send(name: str, *, args: list) -> None:
    """Send a task by its name. In eager mode (no worker: a laptop, the tests) a task this
    process knows runs at once, and one it does not know is skipped with a log line:
    `send_task` ignores eager mode and would leave the message in a broker nobody reads."""
    if celery_app.conf.task_always_eager:
        task = celery_app.tasks.get(name)
        if task is None:
            # The apps' task modules are imported on the first need (a worker imports
            # them when it starts).
            celery_app.loader.import_default_modules()
            task = celery_app.tasks.get(name)
        if task is None:
            logger.info("task %s is not known here; not run", name)
            return
        task.apply_async(args=args)
        return
    celery_app.send_task(name, args=args)


def _backfill_enqueue(connection_id) -> None:
    task_send(BACKFILL_TASK, args=[str(connection_id)])


def connection_credentials(connection: Connection) -> dict:
    return decrypt_json(connection.credentials_encrypted)


def connection_signing_secret(connection: Connection) -> str | None:
    if not connection.signing_secret_encrypted:
        return None
    return decrypt_text(connection.signing_secret_encrypted)


def connection_create(
    *,
    workspace: Workspace,
    provider: str,
    credentials: dict,
    actor: Actor,
    connection_id=None,
    created_by: str = "",
) -> Connection:
    """Check the credential's format (400 naming the field), store it and the webhook
    signing secret encrypted, and start the backfill once committed.

    An optional signing secret left empty is generated (the provider's package registers
    its webhook with it). A connection id already used answers 400 `invalid_field`.
    """
    integration = provider_get(provider)
    if integration is None:
        raise InvalidField("provider", f"Unknown integration {provider!r}.")
    clean, errors = credentials_check(integration, credentials or {})
    if errors:
        field, message = next(iter(errors.items()))
        raise InvalidField(field, message)
    signing_field = next((f for f in integration.credential_fields if f.signs_webhooks), None)
    signing_secret, options = None, {}
    if signing_field is not None:
        signing_secret = clean.pop(signing_field.name, None)
        if signing_secret is None:
            signing_secret = secrets.token_urlsafe(32)
            options["signing_secret_generated"] = True
    with transaction.atomic():
        if connection_id is not None and Connection.objects.filter(pk=connection_id).exists():
            raise InvalidField("connection_id", "This connection is already made.")
        connection = Connection.objects.create(
            id=connection_id or uuid.uuid4(),
            workspace=workspace,
            provider=provider,
            credentials_encrypted=encrypt_json(clean),
            signing_secret_encrypted=encrypt_text(signing_secret) if signing_secret else None,
            created_by=(created_by or actor.label)[:200],
            options=options,
        )
        audit_record(
            actor=actor,
            action="integration.connected",
            target_type="integration_connection",
            target_id=connection.pk,
            workspace=workspace,
            detail={"provider": provider, "fields": sorted(clean)},
        )
        transaction.on_commit(lambda: _backfill_enqueue(connection.pk))
    return connection


def connection_disconnect(*, connection: Connection, actor: Actor) -> Connection:
    """Stop accepting its webhooks (410) and forget its credential. Twice is a no-op."""
    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        if connection.state != Connection.State.DISCONNECTED:
            connection.state = Connection.State.DISCONNECTED
            connection.disconnected_at = timezone.now()
            connection.credentials_encrypted = encrypt_json({})
            connection.signing_secret_encrypted = None
            connection.save(
                update_fields=[
                    "state",
                    "disconnected_at",
                    "credentials_encrypted",
                    "signing_secret_encrypted",
                ]
            )
            audit_record(
                actor=actor,
                action="integration.disconnected",
                target_type="integration_connection",
                target_id=connection.pk,
                workspace=connection.workspace,
                detail={"provider": connection.provider},
            )
    return connection


def connection_fail(*, connection: Connection, error: str) -> Connection:
    """A provider call failed (unreachable, credential refused): the connection is failing
    with the error shown; webhooks are still accepted."""
    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        if connection.state == Connection.State.DISCONNECTED:
            return connection
        connection.state = Connection.State.FAILING
        connection.last_error = error[:2000]
        connection.last_error_at = timezone.now()
        connection.save(update_fields=["state", "last_error", "last_error_at"])
        audit_record(
            actor=integration_actor(connection),
            action="integration.failing",
            target_type="integration_connection",
            target_id=connection.pk,
            workspace=connection.workspace,
            reason=connection.last_error,
            detail={"provider": connection.provider},
        )
    return connection


def connection_recover(*, connection: Connection) -> Connection:
    """A provider call succeeded again: a failing connection is connected again."""
    with transaction.atomic():
        updated = Connection.objects.filter(
            pk=connection.pk, state=Connection.State.FAILING
        ).update(state=Connection.State.CONNECTED)
        if updated:
            audit_record(
                actor=integration_actor(connection),
                action="integration.recovered",
                target_type="integration_connection",
                target_id=connection.pk,
                workspace=connection.workspace,
                detail={"provider": connection.provider},
            )
    connection.refresh_from_db()
    return connection


def delivery_refuse(*, connection: Connection) -> None:
    """A delivery with a bad or stale signature: only the refused counter moves."""
    Connection.objects.filter(pk=connection.pk).update(events_refused=F("events_refused") + 1)


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
    meta = Event._meta
    quote = db_connection.ops.quote_name
    columns, params = [], []
    for name in _EVENT_FIELDS:
        field = meta.get_field(name)
        columns.append(quote(field.column))
        params.append(field.get_db_prep_save(values[name], db_connection))
    placeholders = ", ".join(["%s"] * len(columns))
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(columns)}) VALUES ({placeholders}) "
        f"ON CONFLICT ({quote(meta.get_field('connection').column)}, "
        f"{quote(meta.get_field('event_id').column)}) DO NOTHING "
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
        Connection.objects.filter(pk=connection.pk).update(
            events_received=F("events_received") + 1, last_event_at=now
        )
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


# --- Applying events ------------------------------------------------------------------
#
# A delivery is stored, then applied by the worker: one task per connection at a time
# applies its received events oldest first, BATCH_SIZE to a transaction, so the commit,
# the task's own cost and the connection's counters are paid once per batch, not once per
# event. A mark in the shared cache says a task is queued or running for the connection;
# a delivery sends a task only when it can set the mark.


def _drain_mark(connection_id) -> str:
    return f"integrations:apply:{connection_id}"


def _apply_lock(connection_id) -> str:
    return f"integrations.apply|{connection_id}"


def _marks_shared() -> bool:
    """Whether the web processes and the worker see the same marks: a cache in process
    memory is shared only when tasks run in the process that sends them (eager mode)."""
    local = settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
    return not local or bool(celery_app.conf.task_always_eager)


def _apply_request(connection_id) -> None:
    if not _marks_shared() or cache.add(_drain_mark(connection_id), 1, timeout=DRAIN_MARK_SECONDS):
        task_send(APPLY_CONNECTION_TASK, args=[str(connection_id)])


def events_apply_soon(connection_id) -> None:
    """Have the connection's received events applied once the current transaction commits."""
    transaction.on_commit(lambda: _apply_request(connection_id))


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
        Connection.objects.filter(pk=connection_id).update(events_held=F("events_held") - count)
        events_apply_soon(connection_id)
    return len(rows)


_COUNTER = {
    Event.State.APPLIED: "events_applied",
    Event.State.HELD: "events_held",
}


class _Effects:
    """What settling events changes besides the events: the connection's counters, and the
    events held waiting for the records they made. Gathered over a batch, written once."""

    def __init__(self, connection_id):
        self.connection_id = connection_id
        self.counters: Counter = Counter()
        self.records: set[str] = set()

    def moved(self, before: str, after: str) -> None:
        if before != after:
            self.counters[_COUNTER.get(before)] -= 1
            self.counters[_COUNTER.get(after)] += 1

    def write(self) -> None:
        changes = {name: F(name) + count for name, count in self.counters.items() if name and count}
        if changes:
            Connection.objects.filter(pk=self.connection_id).update(**changes)
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
        self.records.clear()


def _outcome_write(
    event: Event, outcome, *, actor: Actor, effects: _Effects, action: str | None = None
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


def _outcome_settle(event: Event, outcome, effects: _Effects) -> None:
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
    effects.moved(before, event.state)


def _event_locked(event_id) -> Event | None:
    return (
        Event.objects.select_for_update(of=("self",))
        .select_related("connection__workspace", "workspace")
        .filter(pk=event_id)
        .first()
    )


class _Unexpected(Exception):
    """A mapping failed in a way no outcome describes (a defect): its event stays received."""


def _provider_apply(event: Event):
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


def _event_settle(event: Event, effects: _Effects) -> None:
    """Apply one locked event and record its outcome."""
    event.attempts = min(event.attempts + 1, ATTEMPTS_MAX)
    try:
        outcome = _provider_apply(event)
    except _Unexpected as failure:
        if event.attempts < UNEXPECTED_ATTEMPTS_MAX:
            Event.objects.filter(pk=event.pk).update(attempts=event.attempts)
            raise
        outcome = Held(
            Event.HoldCode.INVALID,
            f"Applying it failed {event.attempts} times ({str(failure)[:200]}); dismiss it, "
            "or ask support to look at the server's log.",
        )
    _outcome_write(event, outcome, actor=integration_actor(event.connection), effects=effects)


FINAL_STATES = (Event.State.APPLIED, Event.State.IGNORED, Event.State.DISMISSED)


def event_apply(*, event_id) -> Event | None:
    """Apply one stored event through its provider's mapping: applied, held with why, or
    ignored. Running it again on an applied, ignored or dismissed event changes nothing;
    a held one is tried again.

    A provider whose mapping reads its API (HubSpot) may fail to: the event is left
    received (the beat schedule sends it again) and the connection is failing."""
    try:
        with transaction.atomic():
            event = _event_locked(event_id)
            if event is None or event.state in FINAL_STATES:
                return event
            if provider_get(event.provider) is None:
                logger.warning("event %s: no provider %s is built", event.pk, event.provider)
                return event
            # After the batch its connection may be applying (which skips this event).
            lock(_apply_lock(event.connection_id))
            effects = _Effects(event.connection_id)
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
            connection_fail(connection=connection, error=str(error))
        return Event.objects.filter(pk=event_id).first()


def _outcomes_write_many(connection: Connection, settled: list, effects: _Effects) -> None:
    """As _outcome_write for many events at once: the applied ones in one update and
    every audit event in one insert."""
    now = timezone.now()
    applied = [event for event, outcome in settled if isinstance(outcome, Applied)]
    if applied:
        Event.objects.filter(pk__in=[event.pk for event in applied]).update(
            state=Event.State.APPLIED,
            applied_at=now,
            attempts=Least(F("attempts") + 1, ATTEMPTS_MAX),
            hold_code="",
            hold_reason="",
            waits_for="",
        )
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


def _fast_apply(connection: Connection, events: list, effects: _Effects) -> list:
    """The provider's set-based apply of what it can (see Provider.apply_many); returns
    the events left to apply one by one."""
    provider = provider_get(connection.provider)
    many = provider.apply_many if provider is not None else None
    if many is None or not events:
        return events
    fast = _Effects(connection.pk)
    try:
        with transaction.atomic():
            outcomes = many(events=events, connection=connection)
            settled = [(event, outcomes[event.pk]) for event in events if event.pk in outcomes]
            _outcomes_write_many(connection, settled, fast)
    except RecordInvalid:
        return events
    except Exception:
        # A defect of the fast path stops no event: each is applied one by one instead.
        logger.exception("connection %s: the %s fast path failed", connection.pk,
                         connection.provider)  # fmt: skip
        return events
    effects.counters.update(fast.counters)
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
        if not try_lock(_apply_lock(connection.pk)):
            raise _Busy()
        events = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(connection_id=connection.pk, state=Event.State.RECEIVED)
            .exclude(pk__in=skipped)
            .order_by("pk")[:size]
        )
        effects = _Effects(connection.pk)
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
    mark, taken, skipped, failure = _drain_mark(connection.pk), 0, set(), None
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
        connection_fail(connection=connection, error=str(failure))
    elif (
        Event.objects.filter(connection_id=connection.pk, state=Event.State.RECEIVED)
        .exclude(pk__in=skipped)
        .exists()
    ):
        # Stored after the last batch looked, by a request that found the mark still set.
        _apply_request(connection.pk)
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


def _held(event: Event) -> Event:
    locked = _event_locked(event.pk)
    if locked is None or locked.connection.workspace_id != event.workspace_id:
        raise NotFound("No such event.")
    if locked.state != Event.State.HELD:
        raise InvalidField("event", f"The event is {locked.state}, not held.")
    return locked


def event_assign(*, event: Event, sale: Sale, actor: Actor) -> Event:
    """Place a held Stripe payment on a sale a person chose, and apply it there.

    A payment in another currency than the workspace's cannot be placed: dismiss it.
    """
    with transaction.atomic():
        locked = _held(event)
        if sale.workspace_id != locked.workspace_id:
            raise NotFound("No such sale.")
        if locked.hold_code == Event.HoldCode.CURRENCY:
            raise InvalidField("sale", "A payment in another currency cannot be placed on a "
                               "sale of this workspace; dismiss it instead.")  # fmt: skip
        locked.assigned_sale = sale
        locked.attempts = min(locked.attempts + 1, ATTEMPTS_MAX)
        effects = _Effects(locked.connection_id)
        outcome = _provider_apply(locked)
        _outcome_write(
            locked, outcome, actor=actor, effects=effects, action="integration.event_assigned"
        )
        effects.write()
        if not isinstance(outcome, Applied):
            raise InvalidField("sale", outcome.reason or "The event cannot be placed there.")
    return locked


def event_dismiss(*, event: Event, actor: Actor) -> Event:
    """Leave a held event unapplied for good; the events waiting for its object go too."""
    with transaction.atomic():
        locked = _held(event)
        dismissed = [locked]
        if locked.object_id and locked.hold_code != Event.HoldCode.WAITING:
            dismissed += list(
                Event.objects.select_for_update()
                .filter(
                    connection_id=locked.connection_id,
                    state=Event.State.HELD,
                    hold_code=Event.HoldCode.WAITING,
                    waits_for=locked.object_id,
                )
                .select_related("workspace")
            )
        effects = _Effects(locked.connection_id)
        for item in dismissed:
            item.state = Event.State.DISMISSED
            item.save(update_fields=["state"])
            effects.moved(Event.State.HELD, Event.State.DISMISSED)
            audit_record(
                actor=actor,
                action="integration.event_dismissed",
                target_type="integration_event",
                target_id=item.pk,
                workspace=item.workspace,
                reason=item.hold_reason,
                detail={"provider": item.provider, "event_id": item.event_id},
            )
        effects.write()
    return locked


def backfill_page_record(*, connection: Connection, page: BackfillPage) -> list[int]:
    """Store a backfill page's items as events (each once, as webhooks are), keep where the
    backfill stands, then apply the new events. Returns the new events' ids."""
    received = []
    now = timezone.now()
    with transaction.atomic():
        for item in page.items:
            event = event_receive(
                connection=connection,
                described=item.described,
                payload=item.payload,
                source=Event.Source.BACKFILL,
            )
            if event is not None:
                received.append(event.pk)
        Connection.objects.filter(pk=connection.pk).update(
            backfill=page.cursor or {},
            backfill_started_at=connection.backfill_started_at or now,
            backfill_finished_at=now if page.cursor is None else None,
        )
    if received:
        events_apply(connection_id=connection.pk)
    return received


def connection_on_connect(*, connection: Connection, credentials: dict) -> Connection:
    """Run the provider's optional `on_connect` hook once (Calendly subscribes to its
    webhooks with the generated signing key) and keep what it returns in the connection's
    options. Raises ProviderError when the provider refuses."""
    provider = provider_get(connection.provider)
    hook = provider.on_connect if provider is not None else None
    if hook is None:
        return connection
    options = hook(
        connection=connection,
        credentials=credentials,
        signing_secret=connection_signing_secret(connection),
    )
    if not options:
        return connection
    with transaction.atomic():
        locked = Connection.objects.select_for_update().get(pk=connection.pk)
        locked.options = {**(locked.options or {}), **options}
        locked.save(update_fields=["options"])
        audit_record(
            actor=integration_actor(locked),
            action="integration.subscribed",
            target_type="integration_connection",
            target_id=locked.pk,
            workspace=connection.workspace,
            detail={"provider": locked.provider, **options},
        )
    connection.options = locked.options
    return connection


def connection_backfill(*, connection_id) -> Connection | None:
    """What a new connection does with the provider: the `on_connect` hook, then the
    backfill from the stored cursor, page by page. A refused call makes the connection
    failing with the provider's sentence (webhooks are still accepted)."""
    connection = Connection.objects.select_related("workspace").filter(pk=connection_id).first()
    if connection is None or connection.state == Connection.State.DISCONNECTED:
        return connection
    provider = provider_get(connection.provider)
    if provider is None:
        return connection
    credentials = connection_credentials(connection)
    refused = False
    try:
        connection_on_connect(connection=connection, credentials=credentials)
    except ProviderError as error:
        connection = connection_fail(connection=connection, error=str(error))
        refused = True
    if connection.backfill_finished_at is not None:
        return connection
    try:
        for page in provider.backfill(
            connection=connection, credentials=credentials, cursor=connection.backfill or None
        ):
            backfill_page_record(connection=connection, page=page)
    except ProviderError as error:
        return connection_fail(connection=connection, error=str(error))
    if not refused:
        # Every call to the provider went through: a connection failing since an earlier
        # run is connected again.
        return connection_recover(connection=connection)
    connection.refresh_from_db()
    return connection
