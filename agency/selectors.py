"""Reads of the agency: its workspaces, plans, blueprints and connect links."""

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from core.times import utc_iso as _iso
from integrations.failures import connection_state_words
from integrations.models import Connection
from integrations.providers import PROVIDERS
from integrations.selectors import webhook_url
from workspaces.models import Agency, Invitation, Workspace

from .models import Blueprint, ConnectLink, Plan, link_digest


def agency_workspace_list(*, agency: Agency) -> QuerySet[Workspace]:
    return Workspace.active.filter(agency=agency).order_by("created_at", "slug")


def plans_waiting(*, agency: Agency) -> QuerySet[Plan]:
    return Plan.objects.filter(agency=agency, state=Plan.State.WAITING_FOR_APPROVAL).order_by(
        "created_at"
    )


def plans_recent(*, agency: Agency, limit: int = 20) -> QuerySet[Plan]:
    return (
        Plan.objects.filter(agency=agency)
        .exclude(state=Plan.State.WAITING_FOR_APPROVAL)
        .order_by("-created_at")[:limit]
    )


def blueprint_list(*, agency: Agency) -> QuerySet[Blueprint]:
    return Blueprint.objects.filter(agency=agency).order_by("key")


def connect_links_with_state(queryset) -> QuerySet[ConnectLink]:
    return queryset.select_related("workspace").prefetch_related(
        Prefetch("connections", queryset=Connection.objects.only("id", "provider", "state"))
    )


def connect_link_list(*, agency: Agency, limit: int = 50) -> QuerySet[ConnectLink]:
    return connect_links_with_state(ConnectLink.objects.filter(agency=agency))[:limit]


def connect_link_connected(link: ConnectLink) -> set[str]:
    """The providers the link has made a connection for (whatever that connection's state)."""
    return {connection.provider for connection in link.connections.all()}


def connect_link_integration(link: ConnectLink, key: str) -> dict:
    """One offered integration: offered, or the state of the connection the link made,
    with its id and, for a provider that sends webhooks, its webhook URL."""
    made = next((c for c in link.connections.all() if c.provider == key), None)
    if made is None:
        return {"key": key, "state": "offered"}
    answer = {"key": key, "state": made.state, "connection_id": str(made.pk)}
    if PROVIDERS[key].receives_webhooks:
        answer["webhook_url"] = webhook_url(made)
    return answer


def live_connections(workspace_ids) -> dict:
    """The connections that are not disconnected, by (workspace id, provider): one each."""
    return {
        (connection.workspace_id, connection.provider): connection
        for connection in Connection.objects.filter(workspace_id__in=list(workspace_ids))
        .exclude(state=Connection.State.DISCONNECTED)
        .only(
            "id",
            "workspace_id",
            "provider",
            "state",
            "last_error",
            "last_error_at",
            "last_error_kind",
            "last_error_words",
        )
    }


def connect_link_offered(link: ConnectLink, live: dict) -> list[dict]:
    """Each integration the link offers with the state of the workspace's connection of it,
    in the words the Integrations page uses (integrations.failures.connection_state_words):
    the workspace's live connection, else the one the link made (disconnected since), else
    none. `open`: the client may connect it here (not connected, or failing: a new
    credential replaces the failing one's)."""
    offered = []
    for key in link.integrations:
        integration = PROVIDERS.get(key)
        if integration is None:
            continue
        current = live.get((link.workspace_id, key)) or next(
            (c for c in link.connections.all() if c.provider == key), None
        )
        words = connection_state_words(
            current, name=integration.name, step=integration.refused_step
        )
        offered.append(
            {
                "integration": integration,
                "connection": current,
                "words": words,
                "open": words.state in ("not_connected", "failing"),
            }
        )
    return offered


def connect_link_data(link: ConnectLink) -> dict:
    """The state read: never the URL nor any credential."""
    connected = connect_link_connected(link)
    return {
        "id": str(link.pk),
        "workspace_id": str(link.workspace_id),
        "expires_at": _iso(link.expires_at),
        "expired": link.expires_at <= timezone.now(),
        "revoked": link.revoked_at is not None,
        "completed": set(link.integrations) <= connected,
        "integrations": [connect_link_integration(link, key) for key in link.integrations],
    }


def connect_link_by_secret(*, secret: str) -> ConnectLink | None:
    return connect_links_with_state(ConnectLink.objects.filter(digest=link_digest(secret))).first()


def agency_invitations(*, agency: Agency, limit: int = 50) -> list[Invitation]:
    """The people the agency's plans invited, newest first, with their invitation's state."""
    return list(
        Invitation.objects.filter(
            plan_id__in=Plan.objects.filter(agency=agency).values("pk"),
            workspace__agency=agency,
        )
        .select_related("workspace")
        .order_by("-created_at")[:limit]
    )
