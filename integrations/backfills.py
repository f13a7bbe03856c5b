"""Backfills: a new connection's provider hook, then its last 90 days read page by page
through the same mapping as the webhooks."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.services import audit_record

from .apply import events_apply
from .base import BackfillPage, ProviderError
from .connections import (
    connection_credentials,
    connection_fail,
    connection_recover,
    connection_signing_secret,
    integration_actor,
)
from .events import event_receive
from .models import Connection, Event
from .providers import provider_get


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
