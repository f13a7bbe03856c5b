"""Connect links and the connections they make: a link is made (its URL shown once),
revoked, and opened by a client who stores a credential for each offered integration.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.errors import InvalidField
from integrations.providers import credentials_check, provider_get
from integrations.services import connection_create as integration_connection_create
from integrations.services import connection_id_for_link
from workspaces.models import Agency, Workspace

from .models import ConnectLink, Plan, link_digest
from .selectors import connect_link_offered, live_connections

DEFAULT_LINK_HOURS = 72
LINK_PATH = "/connect/"


def connect_link_create(
    *,
    agency: Agency,
    workspace: Workspace,
    integrations: list[str],
    expires_in_hours: int,
    actor: Actor,
    plan: Plan | None = None,
) -> tuple[ConnectLink, str]:
    """Make a link; its URL is returned here and never again (only its digest is kept)."""
    secret = secrets.token_urlsafe(32)
    with transaction.atomic():
        link = ConnectLink.objects.create(
            agency=agency,
            workspace=workspace,
            digest=link_digest(secret),
            integrations=list(integrations),
            expires_at=timezone.now() + timedelta(hours=expires_in_hours),
            plan=plan,
            created_by=actor.label,
        )
        audit_record(
            actor=actor,
            action="connect_link.created",
            target_type="connect_link",
            target_id=link.pk,
            workspace=workspace,
            agency=agency,
            detail={"integrations": link.integrations, "expires_at": link.expires_at.isoformat()},
        )
    return link, f"{settings.BASE_URL}{LINK_PATH}{secret}"


def connect_link_revoke(*, link: ConnectLink, actor: Actor) -> ConnectLink:
    """Stop the link opening; connections it already made stay. Revoking twice is a no-op."""
    with transaction.atomic():
        link = ConnectLink.objects.select_for_update().get(pk=link.pk)
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            audit_record(
                actor=actor,
                action="connect_link.revoked",
                target_type="connect_link",
                target_id=link.pk,
                workspace=link.workspace,
                agency=link.agency,
            )
    return link


class LinkClosed(Exception):
    """The link no longer opens: expired, revoked or completed (the attribute says which)."""

    def __init__(self, why: str):
        self.why = why
        super().__init__(why)


def link_closed_reason(link: ConnectLink, offered: list[dict]) -> str | None:
    """Why the link no longer opens, or None. `offered` is selectors.connect_link_offered's:
    the link is completed once every integration it offers is connected and working (a
    failing one keeps it open, for a new credential)."""
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at <= timezone.now():
        return "expired"
    if offered and all(item["words"].state == "connected" for item in offered):
        return "completed"
    return None


def link_connection_id(link: ConnectLink, integration_key: str, offered: list[dict]):
    """The id of the connection the link's page connects (its webhook URL is shown before
    the form is sent): the workspace's live connection of the provider, whose credentials
    a new one replaces, else the link's own (a UUID v5 of the link and the provider)."""
    current = next(
        (item["connection"] for item in offered if item["integration"].key == integration_key),
        None,
    )
    if current is not None and current.state != "disconnected":
        return current.pk
    return connection_id_for_link(link_id=link.pk, provider=integration_key)


def connection_create(*, link: ConnectLink, integration_key: str, values: dict) -> dict:
    """Connect one offered integration with a client's credential; returns errors by field
    name, if any. One connection per provider per workspace: a failing one's credentials
    are replaced (the same webhook URL); a working one is left alone, and the client is
    told why. The credential is stored encrypted and never shown again.
    """
    integration = provider_get(integration_key)
    with transaction.atomic():
        link = ConnectLink.objects.select_for_update().select_related("workspace").get(pk=link.pk)
        offered = connect_link_offered(link, live_connections([link.workspace_id]))
        closed = link_closed_reason(link, offered)
        if closed:
            raise LinkClosed(closed)
        item = next((i for i in offered if i["integration"].key == integration_key), None)
        if integration is None or item is None:
            return {"integration": "Choose one of the integrations this link offers."}
        workspace = link.workspace.name
        if item["words"].state == "connected":
            return {
                "integration": (
                    f"{integration.name} is already connected to {workspace} and working. "
                    f"An owner or admin of {workspace} replaces its credentials on the "
                    "Integrations page."
                )
            }
        if item["words"].state == "disconnected":
            return {
                "integration": (
                    f"{integration.name} was disconnected from {workspace} after this link "
                    "connected it: ask whoever sent the link for a new one."
                )
            }
        _clean, errors = credentials_check(integration, values)
        if errors:
            return errors
        try:
            connection = integration_connection_create(
                workspace=link.workspace,
                provider=integration_key,
                credentials=values,
                actor=Actor(kind="connect_link", id=str(link.pk), label="connect link"),
                connection_id=link_connection_id(link, integration_key, offered),
                created_by=f"connect link {link.pk}",
            )
        except InvalidField as refused:
            return {"integration": refused.message}
        link.connections.add(connection)
    return {}
