"""Reads of the integrations: connections, held events and their count for the notes, and
what the Integrations settings page shows (never a credential)."""

from __future__ import annotations

from django.conf import settings
from django.db.models import CharField, Exists, F, OuterRef, Q, QuerySet, UUIDField

from core.compiled import CompiledQuery
from core.display import day_text
from core.money import money_text
from workspaces.models import Sale

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


def _held_connection_query(*, workspace, provider):
    """A connection of the provider that holds events: the first found, as .exists() asks."""
    held = Connection.objects.filter(workspace=workspace, provider=provider, events_held__gt=0)
    return held.order_by().values_list("pk")[:1]


_held_connection = CompiledQuery(
    _held_connection_query,
    params={"workspace": UUIDField(), "provider": CharField()},
    model=Connection,
)


def held_count(*, workspace, provider: str, start, end) -> int:
    """Held events of a provider that happened in [start, end): each a payment or refund
    the figures leave out. An event waiting for another held event of the same object (a
    refund of a charge nobody placed yet) is counted once, with that event.

    Most workspaces hold nothing: the connections' held counters answer that first (one
    statement compiled once), so the figures pay for the full count only where an event
    is held."""
    if not _held_connection(workspace=workspace.pk, provider=provider):
        return 0
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
        .exclude(Q(hold_code=Event.HoldCode.WAITING) & Exists(same_object_held))
        .count()
    )


# --- The Integrations settings page -----------------------------------------------------

# How many sales the assign form offers; any other sale is named by its id.
SALES_OFFERED = 50

# The columns the page shows: the encrypted credential and signing secret are never read.
_CONNECTION_COLUMNS = (
    "id",
    "workspace_id",
    "provider",
    "state",
    "created_by",
    "connected_at",
    "disconnected_at",
    "events_received",
    "events_applied",
    "events_held",
    "events_refused",
    "last_event_at",
    "last_error",
    "last_error_at",
    "last_error_kind",
    "last_error_words",
    "backfill_finished_at",
)


def connection_page_list(*, workspace) -> QuerySet[Connection]:
    """The workspace's connections for the page, without their credential: those still
    connected first, then by provider, newest first."""
    return (
        Connection.objects.filter(workspace=workspace)
        .only(*_CONNECTION_COLUMNS)
        .order_by(F("disconnected_at").asc(nulls_first=True), "provider", "-connected_at")
    )


def held_event_page_list(*, workspace) -> QuerySet[Event]:
    """The workspace's held events, oldest first (the order to deal with them in)."""
    return Event.objects.filter(workspace=workspace, state=Event.State.HELD).order_by(
        F("occurred_at").asc(nulls_last=True), "received_at", "pk"
    )


def sales_with_balance(*, workspace, limit: int = SALES_OFFERED) -> list[Sale]:
    """The workspace's most recent sales with an unpaid balance (contract value above the
    succeeded payments), with their lead."""
    return list(
        Sale.objects.filter(workspace=workspace, cash_collected__lt=F("contract_value"))
        .select_related("lead")
        .only(
            "id",
            "closed_at",
            "contract_value",
            "cash_collected",
            "lead__id",
            "lead__name",
            "lead__email",
        )
        .order_by("-closed_at", "id")[:limit]
    )


def sale_label(sale: Sale, *, currency: str) -> str:
    """One line naming a sale in the assign form's select."""
    who = sale.lead.name or sale.lead.email or "a lead"
    if sale.lead.name and sale.lead.email:
        who = f"{sale.lead.name} <{sale.lead.email}>"
    balance = money_text(sale.contract_value - sale.cash_collected, currency)
    return f"{who} · closed {day_text(sale.closed_at)} · {balance} unpaid"


def sale_of_workspace(*, workspace, sale_id) -> Sale | None:
    return Sale.objects.filter(workspace=workspace, pk=sale_id).first()


def event_of_workspace(*, workspace, event_id) -> Event | None:
    return Event.objects.filter(workspace=workspace, pk=event_id).first()


def connection_of_workspace(*, workspace, connection_id) -> Connection | None:
    """The connection, for the disconnect page and its service; never shown whole."""
    return Connection.objects.filter(workspace=workspace, pk=connection_id).first()
