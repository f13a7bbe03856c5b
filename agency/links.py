"""Connect links and the connections they make: a link is made (its URL shown once),
revoked, and opened by a client who stores a credential for each offered integration.
"""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from integrations.providers import credentials_check, provider_get
from integrations.services import connection_create as integration_connection_create
from integrations.services import connection_id_for_link
from workspaces.models import Agency, Workspace

from .models import ConnectLink, Plan, link_digest

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


def link_closed_reason(link: ConnectLink, connected: set[str]) -> str | None:
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at <= timezone.now():
        return "expired"
    if set(link.integrations) <= connected:
        return "completed"
    return None


def connection_create(*, link: ConnectLink, integration_key: str, values: dict) -> dict:
    """Connect one offered integration with a client's credential; returns format errors by
    field name, if any. The connection (integrations.Connection) has the id the page showed
    in its webhook URL; the credential is stored encrypted and never shown again.
    """
    integration = provider_get(integration_key)
    with transaction.atomic():
        link = ConnectLink.objects.select_for_update().select_related("workspace").get(pk=link.pk)
        connected = set(link.connections.values_list("provider", flat=True))
        closed = link_closed_reason(link, connected)
        if closed:
            raise LinkClosed(closed)
        if integration is None or integration_key not in link.integrations:
            return {"integration": "Choose one of the integrations this link offers."}
        if integration_key in connected:
            return {"integration": f"{integration.name} is already connected through this link."}
        _clean, errors = credentials_check(integration, values)
        if errors:
            return errors
        connection = integration_connection_create(
            workspace=link.workspace,
            provider=integration_key,
            credentials=values,
            actor=Actor(kind="connect_link", id=str(link.pk), label="connect link"),
            connection_id=connection_id_for_link(link_id=link.pk, provider=integration_key),
            created_by=f"connect link {link.pk}",
        )
        link.connections.add(connection)
    return {}
