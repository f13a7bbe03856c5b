import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from audit.services import Actor, audit_record
from config.errors import InvalidField

from .models import (
    AGENCY_PREFIX,
    AGENCY_SCOPES,
    WORKSPACE_PREFIX,
    WORKSPACE_SCOPES,
    ApiToken,
    EmbeddedApp,
    token_digest,
)

SESSION_TOKEN_LIFETIME = timedelta(days=30)


@dataclass(frozen=True)
class MintedToken:
    """A token just made: the only moment its plaintext exists."""

    token: ApiToken
    plaintext: str


def _validate_scopes(scopes, allowed) -> list[str]:
    scopes = list(dict.fromkeys(scopes))
    if not scopes:
        raise InvalidField("scopes", "Choose at least one scope.")
    unknown = [scope for scope in scopes if scope not in allowed]
    if unknown:
        raise InvalidField(
            "scopes", f"Unknown scope {unknown[0]!r}; choose from {', '.join(allowed)}."
        )
    return scopes


def token_mint(
    *,
    actor: Actor,
    name: str,
    scopes,
    workspace=None,
    agency=None,
    created_by=None,
    expires_at=None,
) -> MintedToken:
    """Make a workspace token (workspace=...) or an agency token (agency=...)."""
    if (workspace is None) == (agency is None):
        raise ValueError("A token belongs to exactly one workspace or one agency.")
    name = (name or "").strip()
    if not name:
        raise InvalidField("name", "Give the token a name, so it can be told apart later.")
    if len(name) > 100:
        raise InvalidField("name", "A token name has at most 100 characters.")
    if workspace is not None:
        kind, prefix, scopes = (
            "workspace",
            WORKSPACE_PREFIX,
            _validate_scopes(scopes, WORKSPACE_SCOPES),
        )
    else:
        kind, prefix, scopes = "agency", AGENCY_PREFIX, _validate_scopes(scopes, AGENCY_SCOPES)
    plaintext = prefix + secrets.token_hex(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            kind=kind,
            workspace=workspace,
            agency=agency,
            name=name,
            digest=token_digest(plaintext),
            prefix=prefix,
            last_four=plaintext[-4:],
            scopes=scopes,
            created_by=created_by,
            expires_at=expires_at,
        )
        audit_record(
            actor=actor,
            action="token.minted",
            target_type="api_token",
            target_id=token.pk,
            workspace=workspace,
            agency=agency,
            detail={"name": name, "scopes": scopes, "display": token.display},
        )
    return MintedToken(token=token, plaintext=plaintext)


def token_revoke(*, actor: Actor, token: ApiToken, reason: str = "") -> ApiToken:
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().get(pk=token.pk)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            audit_record(
                actor=actor,
                action="token.revoked",
                target_type="api_token",
                target_id=token.pk,
                workspace=token.workspace,
                agency=token.agency,
                reason=reason,
                detail={"name": token.name, "display": token.display},
            )
    return token


def session_token_mint(*, actor: Actor, member, embedded_app: EmbeddedApp) -> str:
    """A member session token for an embedded app, as the sign-in flow would issue.

    Used where no browser is involved: the demo and a plan's new members.
    """
    if member.user is None:
        raise ValueError("A member needs a sign-in user before a session token can be made.")
    plaintext = secrets.token_urlsafe(32)
    with transaction.atomic():
        access_token = get_access_token_model().objects.create(
            user=member.user,
            application=embedded_app.application,
            token=plaintext,
            expires=timezone.now() + SESSION_TOKEN_LIFETIME,
            scope=" ".join(WORKSPACE_SCOPES),
            resource=[settings.API_AUDIENCE],
        )
        audit_record(
            actor=actor,
            action="session_token.minted",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={"application": embedded_app.application.client_id, "token_id": access_token.pk},
        )
    return plaintext
