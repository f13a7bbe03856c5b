"""Backfills: a new connection's provider hook, then its last 90 days read page by page
through the same mapping as the webhooks; for a provider pulled on a schedule, its last
days read again when they are due."""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from core.times import utc_today

from . import connections
from .apply import events_apply
from .base import BackfillPage, ProviderError
from .connections import (
    connection_change,
    connection_credentials,
    connection_fail,
    connection_recover,
    connection_signing_secret,
)
from .events import event_receive
from .models import Connection, Event
from .providers import PROVIDERS, provider_get

# The day a pull counts back from (UTC, as the platforms' reports are asked for): a name of
# this module, so a test can pin it.
backfills_day = utc_today


def pull_window(provider, *, days: int, today: date | None = None) -> dict:
    """The cursor of a pulled provider's read of its last ``days`` days, today included
    (days in UTC, as the platforms' reports are asked for)."""
    today = today or backfills_day()
    return {
        "since": (today - timedelta(days=days - 1)).isoformat(),
        "until": today.isoformat(),
    }


def backfill_page_record(*, connection: Connection, page: BackfillPage) -> list[int]:
    """Store a backfill page's items as events (each once, as webhooks are), or, for a
    provider that places no events, write its records through the provider's ``write``
    hook (audited ``integration.pulled``); keep where the read stands, then apply the new
    events. Returns the new events' ids."""
    received = []
    provider = provider_get(connection.provider)
    with transaction.atomic():
        if provider is not None and not provider.places_events:
            written = provider.write(connection=connection, records=page.records)
            connection_change(
                connection=connection,
                counts={"events_received": len(page.records), "events_applied": written},
                last_event_at=timezone.now(),
                cursor=page.cursor,
                action="integration.pulled",
                detail={"records": len(page.records), "written": written},
            )
        else:
            for item in page.items:
                event = event_receive(
                    connection=connection,
                    described=item.described,
                    payload=item.payload,
                    source=Event.Source.BACKFILL,
                )
                if event is not None:
                    received.append(event.pk)
            connection_change(connection=connection, cursor=page.cursor)
    if received:
        events_apply(connection_id=connection.pk)
    return received


def connection_on_connect(*, connection: Connection, credentials: dict) -> Connection:
    """Run the provider's optional `on_connect` hook once (Calendly subscribes to its
    webhooks with the generated signing key; an ad platform checks the account's
    currency) and keep what it returns in the connection's options. Raises ProviderError
    when the provider refuses."""
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
    connection_change(
        connection=connection,
        options=options,
        action="integration.subscribed" if provider.receives_webhooks else "integration.checked",
        detail=options,
    )
    return connection


def _connect_hook(connection: Connection, provider, credentials: dict) -> tuple:
    """The `on_connect` hook (a pulled provider's only before its first read); (the
    connection, whether the provider refused)."""
    if connection.backfill_started_at is not None and provider.pull is not None:
        return connection, False
    try:
        connection_on_connect(connection=connection, credentials=credentials)
    except ProviderError as error:
        return connection_fail(connection=connection, error=error), True
    return connection, False


def connection_backfill(*, connection_id) -> Connection | None:
    """What a new connection does with the provider: the `on_connect` hook, then the
    backfill from the stored cursor, page by page (a pulled provider: the window its
    cursor names, its first days when none). A refused call makes the connection failing
    with the error's kind (webhooks are still accepted)."""
    connection = Connection.objects.select_related("workspace").filter(pk=connection_id).first()
    if connection is None or connection.state == Connection.State.DISCONNECTED:
        return connection
    provider = provider_get(connection.provider)
    if provider is None:
        return connection
    credentials = connection_credentials(connection)
    connection, refused = _connect_hook(connection, provider, credentials)
    if refused and provider.pull is not None:
        # Nothing is read from an account the service refused (its currency).
        return connection
    if connection.backfill_finished_at is not None:
        return connection
    cursor = connection.backfill or None
    if cursor is None and provider.pull is not None:
        cursor = pull_window(provider, days=provider.pull.first_days)
    try:
        for page in provider.backfill(
            connection=connection, credentials=credentials, cursor=cursor
        ):
            backfill_page_record(connection=connection, page=page)
    except ProviderError as error:
        return connection_fail(connection=connection, error=error)
    if not refused:
        # Every call to the provider went through: a connection failing since an earlier
        # run is connected again.
        return connection_recover(connection=connection)
    connection.refresh_from_db()
    return connection


def connections_pull_due(*, now=None) -> list:
    """The connections of pulled providers whose last read ended ``pull.every`` ago and
    that are connected: each starts a new read of its last ``pull.again_days`` days (the
    platforms revise recent days), audited ``integration.pull_started``, and its backfill
    task is sent once that commits. A failing one is left to the retries (or a person).
    Returns the ids."""
    now = now or timezone.now()
    due = []
    for provider in PROVIDERS.values():
        if provider.pull is None:
            continue
        ids = Connection.objects.filter(
            provider=provider.key,
            state=Connection.State.CONNECTED,
            backfill_finished_at__lte=now - provider.pull.every,
        ).values_list("pk", flat=True)
        for pk in ids:
            window = pull_window(provider, days=provider.pull.again_days, today=now.date())
            with transaction.atomic():
                connection_change(
                    connection=pk,
                    cursor=window,
                    restart=True,
                    action="integration.pull_started",
                    detail=window,
                )
                transaction.on_commit(lambda pk=pk: connections.backfill_enqueue(pk))
            due.append(pk)
    return due
