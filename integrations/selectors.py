"""Reads of the integrations: connections, held events and their count for the notes."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet

from .models import Connection, Event


def webhook_url(connection_or_id, provider: str | None = None) -> str:
    """{BASE_URL}/hooks/{provider}/{connection id}: where the provider sends its webhooks."""
    if isinstance(connection_or_id, Connection):
        provider, connection_id = connection_or_id.provider, connection_or_id.pk
    else:
        connection_id = connection_or_id
    return f"{settings.BASE_URL}/hooks/{provider}/{connection_id}"


def connection_list(*, workspace) -> QuerySet[Connection]:
    return Connection.objects.filter(workspace=workspace)


def held_events(*, workspace, provider: str | None = None) -> QuerySet[Event]:
    events = Event.objects.filter(workspace=workspace, state=Event.State.HELD)
    if provider is not None:
        events = events.filter(provider=provider)
    return events.select_related("connection").order_by("-occurred_at", "-pk")


def held_count(*, workspace, provider: str, start, end) -> int:
    """Held events of a provider that happened in [start, end): each a payment or refund
    the figures leave out. An event waiting for another held event of the same object (a
    refund of a charge nobody placed yet) is counted once, with that event."""
    same_object_held = Event.objects.filter(
        connection=OuterRef("connection"),
        object_id=OuterRef("waits_for"),
        state=Event.State.HELD,
    )
    return (
        Event.objects.filter(
            workspace=workspace,
            provider=provider,
            state=Event.State.HELD,
            occurred_at__gte=start,
            occurred_at__lt=end,
        )
        .exclude(Q(hold_code="waiting") & Exists(same_object_held))
        .count()
    )
