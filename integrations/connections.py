"""Connections: made (through a connect link or the Integrations page), disconnected,
failing and recovered, each with its audit event; their credentials and signing secrets,
stored encrypted.

Connection ids. The connect page shows the webhook URL, which names the connection,
before it asks for the webhook secret, so the id is known before the form is sent:
- a connect link's connection has a deterministic id, uuid5 of the link's id and the
  provider's key (`connection_id_for_link`): a link connects each provider once;
- another page (the workspace's Integrations settings) allocates a random id and carries
  it signed through its form (`connection_id_allocate` / `connection_id_unsign`)."""

from __future__ import annotations

import logging
import secrets
import uuid

from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from audit.services import Actor, audit_record
from core.crypto import decrypt_json, decrypt_text, encrypt_json, encrypt_text
from core.errors import InvalidField
from core.logs import redact_values
from core.tasks import task_send
from core.times import utc_iso
from events.services import event_record
from workspaces.models import Workspace

from .base import ProviderError
from .failures import RETRIED_KINDS, RETRY_AFTER, failure_summary
from .models import Connection
from .providers import credentials_check, provider_get
from .selectors import webhook_url

logger = logging.getLogger(__name__)

BACKFILL_TASK = "integrations.connection_backfill"
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


def connection_id_sign(connection_id) -> str:
    """The signed form of an existing connection's id (a form that replaces its
    credentials carries it)."""
    return signing.dumps(str(connection_id), salt=_ALLOCATE_SALT)


def connection_id_unsign(signed: str) -> uuid.UUID | None:
    """The id `connection_id_allocate` signed, or None if forged or more than a day old."""
    try:
        return uuid.UUID(signing.loads(signed, salt=_ALLOCATE_SALT, max_age=ALLOCATED_ID_MAX_AGE))
    except (signing.BadSignature, ValueError, TypeError):
        return None


def backfill_enqueue(connection_id) -> None:
    task_send(BACKFILL_TASK, args=[str(connection_id)])


def connection_credentials(connection: Connection) -> dict:
    return decrypt_json(connection.credentials_encrypted)


def connection_signing_secret(connection: Connection) -> str | None:
    if not connection.signing_secret_encrypted:
        return None
    return decrypt_text(connection.signing_secret_encrypted)


def connection_live(*, workspace, provider: str) -> Connection | None:
    """The workspace's connection of the provider that is not disconnected: there is at
    most one (a database constraint)."""
    return (
        Connection.objects.filter(workspace=workspace, provider=provider)
        .exclude(state=Connection.State.DISCONNECTED)
        .first()
    )


def connection_create(
    *,
    workspace: Workspace,
    provider: str,
    credentials: dict,
    actor: Actor,
    connection_id=None,
    created_by: str = "",
) -> Connection:
    """Connect the provider: check the credential's format (400 naming the field), store it
    and the webhook signing secret encrypted, and start the backfill once committed.

    One connection per provider per workspace. Where the workspace already has one (not
    disconnected), its credentials are replaced, and it keeps its id, webhook URL, events
    and counters (`integration.credentials_replaced`); its state is connected again until
    the provider answers otherwise. A page that showed another connection's webhook URL
    (the provider was connected meanwhile) is refused, 400 naming `connection_id`, with
    the URL to paste instead. A connection id already used otherwise (a disconnected
    connection's) answers 400 `invalid_field`.

    An optional signing secret left empty is generated for a new connection (the
    provider's package registers its webhook with it) and kept for a replaced one.
    """
    integration = provider_get(provider)
    if integration is None:
        raise InvalidField("provider", f"Unknown integration {provider!r}.")
    clean, errors = credentials_check(integration, credentials or {})
    if errors:
        field, message = next(iter(errors.items()))
        raise InvalidField(field, message)
    signing_field = next((f for f in integration.credential_fields if f.signs_webhooks), None)
    signing_secret = clean.pop(signing_field.name, None) if signing_field is not None else None
    with transaction.atomic():
        live = (
            Connection.objects.select_for_update()
            .filter(workspace=workspace, provider=provider)
            .exclude(state=Connection.State.DISCONNECTED)
            .first()
        )
        if live is None and connection_id is not None:
            if Connection.objects.filter(pk=connection_id).exists():
                raise InvalidField("connection_id", "This connection is already made.")
        elif live is not None and connection_id is not None and live.pk != connection_id:
            raise InvalidField(
                "connection_id",
                f"{integration.name} was connected to this workspace meanwhile: its webhook "
                f"URL is {webhook_url(live)}. Paste that URL at {integration.name}, then "
                "enter the credential again to replace the connection's.",
            )
        if live is not None:
            return _credentials_replace(
                live, clean=clean, signing_secret=signing_secret, actor=actor
            )
        options = {}
        if signing_field is not None and signing_secret is None:
            signing_secret = secrets.token_urlsafe(32)
            options["signing_secret_generated"] = True
        try:
            with transaction.atomic():
                connection = Connection.objects.create(
                    id=connection_id or uuid.uuid4(),
                    workspace=workspace,
                    provider=provider,
                    credentials_encrypted=encrypt_json(clean),
                    signing_secret_encrypted=(
                        encrypt_text(signing_secret) if signing_secret else None
                    ),
                    created_by=(created_by or actor.label)[:200],
                    options=options,
                )
        except IntegrityError:
            # Another request connected the provider at the same moment.
            raise InvalidField(
                "connection_id",
                f"{integration.name} is being connected to this workspace by someone else "
                "at this moment; reload the page to see it.",
            ) from None
        audit_record(
            actor=actor,
            action="integration.connected",
            target_type="integration_connection",
            target_id=connection.pk,
            workspace=workspace,
            detail={"provider": provider, "fields": sorted(clean)},
        )
        transaction.on_commit(lambda: backfill_enqueue(connection.pk))
    return connection


def _credentials_replace(
    connection: Connection, *, clean: dict, signing_secret: str | None, actor: Actor
) -> Connection:
    """The connection (locked, not disconnected) takes the new credentials and is
    connected again until the provider answers otherwise. Runs inside connection_create's
    transaction."""
    connection.credentials_encrypted = encrypt_json(clean)
    fields = ["credentials_encrypted", "state", "last_error", "last_error_at"]
    if signing_secret is not None:
        connection.signing_secret_encrypted = encrypt_text(signing_secret)
        fields.append("signing_secret_encrypted")
    connection.state = Connection.State.CONNECTED
    connection.last_error, connection.last_error_at = "", None
    connection.last_error_kind = connection.last_error_words = ""
    fields += ["last_error_kind", "last_error_words"]
    connection.save(update_fields=fields)
    integration = provider_get(connection.provider)
    if integration is not None and integration.pull is not None:
        # Another account may be named: checked again at connect, and its first days read.
        connection_change(connection=connection, forget_read=True)
    audit_record(
        actor=actor,
        action="integration.credentials_replaced",
        target_type="integration_connection",
        target_id=connection.pk,
        workspace=connection.workspace,
        detail={"provider": connection.provider, "fields": sorted(clean)},
    )
    transaction.on_commit(lambda: backfill_enqueue(connection.pk))
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


def _credential_values(value) -> list[str]:
    """Every string a connection's credentials hold, at any depth."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in _credential_values(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _credential_values(item)]
    return [value] if isinstance(value, str) else []


def _provider_text_log(connection: Connection, error: ProviderError) -> None:
    """The provider's own message, for the operators only: in the worker's log, with every
    credential the connection holds (and any named credential) redacted."""
    secrets_held = _credential_values(connection_credentials(connection))
    signing = connection_signing_secret(connection)
    if signing:
        secrets_held.append(signing)
    logger.warning(
        "%s connection %s is failing (%s): %s",
        connection.provider,
        connection.pk,
        error.kind,
        redact_values(error.message, secrets_held)[:2000],
    )


def connection_fail(*, connection: Connection, error: ProviderError | str) -> Connection:
    """A provider call failed: the connection is failing with the error's kind (from its
    type: refused, unreachable, limited; a plain message is unexpected) and a summary in
    the service's words (failure_summary); the provider's text goes to the log only,
    redacted. Webhooks are still accepted."""
    if not isinstance(error, ProviderError):
        error = ProviderError(str(error))
    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        if connection.state == Connection.State.DISCONNECTED:
            return connection
        _provider_text_log(connection, error)
        provider = provider_get(connection.provider)
        newly_failing = connection.state != Connection.State.FAILING
        connection.state = Connection.State.FAILING
        connection.last_error = failure_summary(
            kind=error.kind,
            name=provider.name if provider is not None else connection.provider,
            words=error.words,
        )[:2000]
        connection.last_error_kind = error.kind
        connection.last_error_words = error.words[:500]
        connection.last_error_at = timezone.now()
        connection.save(
            update_fields=[
                "state",
                "last_error",
                "last_error_kind",
                "last_error_words",
                "last_error_at",
            ]
        )
        audit_record(
            actor=integration_actor(connection),
            action="integration.failing",
            target_type="integration_connection",
            target_id=connection.pk,
            workspace=connection.workspace,
            reason=connection.last_error,
            detail={"provider": connection.provider, "kind": error.kind},
        )
        if newly_failing:
            event_record(
                workspace=connection.workspace,
                type="integration.failing",
                data={
                    "id": str(connection.pk),
                    "provider": connection.provider,
                    "state": connection.state,
                    "error": connection.last_error,
                    "failing_since": utc_iso(connection.last_error_at),
                },
            )
    return connection


def connection_retry(*, connection: Connection, actor: Actor) -> Connection:
    """Try a failing connection's provider calls again now (an owner or admin pressed
    Retry): the backfill task runs again from its cursor once this commits, and succeeds
    (connected again) or fails (failing, with the new error)."""
    with transaction.atomic():
        locked = Connection.objects.select_for_update().get(pk=connection.pk)
        if locked.state != Connection.State.FAILING:
            return locked
        audit_record(
            actor=actor,
            action="integration.retried",
            target_type="integration_connection",
            target_id=locked.pk,
            workspace=locked.workspace,
            detail={"provider": locked.provider},
        )
        transaction.on_commit(lambda: backfill_enqueue(locked.pk))
    return locked


def connections_retry_due(*, now=None) -> list:
    """The failing connections whose trouble may have passed (the provider could not be
    reached, or asked us to slow down) and whose failure is RETRY_AFTER old: their
    backfill task is sent again. A refused credential is left to a person. Returns the ids."""
    now = now or timezone.now()
    retried = list(
        Connection.objects.filter(
            state=Connection.State.FAILING,
            last_error_at__lte=now - RETRY_AFTER,
            last_error_kind__in=sorted(RETRIED_KINDS),
        ).values_list("pk", flat=True)
    )
    for pk in retried:
        backfill_enqueue(pk)
    return retried


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
    connection_change(connection=connection, counts={"events_refused": 1})


# --- Counters, cursors and options --------------------------------------------------------

COUNTERS = frozenset({"events_received", "events_applied", "events_held", "events_refused"})
_UNSET = object()


def _counted_changes(counts: dict | None, last_event_at) -> dict:
    changes: dict = {}
    for name, count in (counts or {}).items():
        if name not in COUNTERS:
            raise ValueError(f"{name} is not a connection counter")
        if count:
            changes[name] = F(name) + count
    if last_event_at is not None:
        changes["last_event_at"] = last_event_at
    return changes


def _cursor_changes(cursor: dict | None, *, restart: bool) -> dict:
    now = timezone.now()
    return {
        "backfill": cursor or {},
        "backfill_started_at": now if restart else Coalesce("backfill_started_at", now),
        "backfill_finished_at": now if cursor is None else None,
    }


def connection_change(
    *,
    connection,
    counts: dict[str, int] | None = None,
    last_event_at=None,
    cursor=_UNSET,
    restart: bool = False,
    forget_read: bool = False,
    options: dict | None = None,
    actor: Actor | None = None,
    action: str = "",
    detail: dict | None = None,
    then=None,
) -> dict | None:
    """The one way a connection's counters, cursor and options change, in one transaction
    (the caller's when there is one) with the audit event ``action`` when given.

    - ``counts``: counters moved by these amounts (F() expressions: no lock, no lost
      update), and ``last_event_at`` set;
    - ``cursor``: where the read of the provider stands, None once read to its end
      (``backfill_finished_at`` set); ``restart`` starts a new read (a scheduled pull);
      ``forget_read`` forgets every read, as for a new connection (new credentials of a
      pulled provider);
    - ``options``: merged into the connection's options under its row lock; ``then(
      connection=, before=, after=)`` runs inside the transaction once they are kept (an
      ad connection re-maps its stored spend) and what it returns joins the audit detail.

    ``connection`` is a Connection or its id (an audited change needs the row). Returns
    the options kept when they changed, else None."""
    pk = getattr(connection, "pk", connection)
    changes = _counted_changes(counts, last_event_at)
    if cursor is not _UNSET:
        changes.update(_cursor_changes(cursor, restart=restart))
    if forget_read:
        changes.update(backfill={}, backfill_started_at=None, backfill_finished_at=None)
    with transaction.atomic():
        locked = None
        if options is not None or action:
            locked = Connection.objects.select_for_update().select_related("workspace").get(pk=pk)
        kept = None
        extra = {}
        if options is not None:
            before = dict(locked.options or {})
            kept = {**before, **options}
            changes["options"] = kept
        if changes:
            Connection.objects.filter(pk=pk).update(**changes)
        if options is not None:
            locked.options = kept
            if then is not None:
                extra = then(connection=locked, before=before, after=kept) or {}
        if action:
            audit_record(
                actor=actor or integration_actor(locked),
                action=action,
                target_type="integration_connection",
                target_id=locked.pk,
                workspace=locked.workspace,
                detail={"provider": locked.provider, **(detail or {}), **extra},
            )
    if kept is not None and isinstance(connection, Connection):
        connection.options = kept
    return kept
