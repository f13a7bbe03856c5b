import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
    set_token_value,
)

from audit.services import Actor, audit_record
from core.crypto import encrypted_columns_rotate
from core.errors import InvalidField
from workspaces.models import Member
from workspaces.tenancy import workspace_update
from workspaces.validators import origin_normalise

from .models import (
    AGENCY_PREFIX,
    AGENCY_SCOPES,
    WORKSPACE_PREFIX,
    WORKSPACE_SCOPES,
    ApiToken,
    EmbeddedApp,
    RedeemedCode,
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
    member=None,
) -> MintedToken:
    """Make a workspace token (workspace=...) or an agency token (agency=...).

    A workspace token minted by a member (the settings page) records that member: their
    deactivation revokes it. Otherwise it records the program that minted it (the actor)."""
    if (workspace is None) == (agency is None):
        raise ValueError("A token belongs to exactly one workspace or one agency.")
    if member is not None and (workspace is None or member.workspace_id != workspace.pk):
        raise ValueError("A token's minter is a member of the token's workspace.")
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
            minted_by_member=member,
            minted_by=member.email if member is not None else actor.label[:200],
        )
        audit_record(
            actor=actor,
            action="token.minted",
            target_type="api_token",
            target_id=token.pk,
            workspace=workspace,
            agency=agency,
            detail={
                "name": name,
                "scopes": scopes,
                "display": token.display,
                "minted_by": token.minted_by,
            },
        )
    return MintedToken(token=token, plaintext=plaintext)


def token_revoke(*, actor: Actor, token: ApiToken, reason: str = "") -> ApiToken:
    # A revocation never fails for its note: a NUL, which no database column holds, is dropped.
    reason = (reason or "").replace("\x00", "")
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


def session_token_mint(
    *, actor: Actor, member, embedded_app: EmbeddedApp, resource: str | None = None
) -> str:
    """A member session token for an embedded app, as the sign-in flow would issue.

    Used where no browser is involved: the demo and a plan's new members. The token is
    bound to `resource` (default: the REST API), as a signed-in one is to what it asked.
    """
    if member.user is None:
        raise ValueError("A member needs a sign-in user before a session token can be made.")
    plaintext = secrets.token_urlsafe(32)
    with transaction.atomic():
        access_token = get_access_token_model()(
            user=member.user,
            application=embedded_app.application,
            expires=timezone.now() + SESSION_TOKEN_LIFETIME,
            scope=" ".join(WORKSPACE_SCOPES),
            resource=[resource or settings.API_AUDIENCE],
        )
        # Stored as the toolkit stores its own: hashed when RFC 9700 storage is on.
        set_token_value(access_token, plaintext)
        access_token.save()
        audit_record(
            actor=actor,
            action="session_token.minted",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={"application": embedded_app.application.client_id, "token_id": access_token.pk},
        )
    return plaintext


# --- Embedded apps: allowed origins and the OAuth application ---------------------------


def workspace_origins_set(*, actor: Actor, workspace, origins) -> list[str]:
    """Replace the origins from which the workspace's embedded apps may call the API."""
    normalised = list(dict.fromkeys(origin_normalise(origin) for origin in origins))
    before = list(workspace.embedded_origins or [])
    workspace_update(
        workspace=workspace,
        changes={"embedded_origins": normalised},
        actor=actor,
        action="workspace.embedded_origins_changed",
        detail={"before": before, "after": normalised},
    )
    return normalised


def _redirect_uris_validated(redirect_uris, application) -> str:
    uris = list(dict.fromkeys(uri.strip() for uri in redirect_uris if uri.strip()))
    if not uris:
        raise InvalidField("redirect_uris", "Give at least one redirect URI.")
    for uri in uris:
        if "#" in uri or "*" in uri:
            raise InvalidField(
                "redirect_uris", f"{uri!r}: a redirect URI is exact, with no fragment or wildcard."
            )
    application.redirect_uris = " ".join(uris)
    try:
        application.clean()
    except ValidationError as error:
        messages = error.message_dict.get("redirect_uris") or [str(error)]
        raise InvalidField("redirect_uris", messages[0]) from None
    return application.redirect_uris


def redirect_uri_check(uri, *, field: str) -> str:
    """One redirect URI under the rule of the settings page, for an app not made yet."""
    if not isinstance(uri, str):
        raise InvalidField(field, f"{field} must be a URL string.")
    application = get_application_model()(
        name="check",
        client_type="public",
        authorization_grant_type="authorization-code",
    )
    try:
        return _redirect_uris_validated([uri], application)
    except InvalidField as error:
        raise InvalidField(field, error.message) from None


def embedded_app_create(
    *, actor: Actor, workspace, name: str, redirect_uris, allowed_origins=()
) -> EmbeddedApp:
    """A workspace's embedded app: a public OAuth client (PKCE), consent always asked.

    The one way an embedded app is made, from the settings page, a plan's apply or the
    demo. A public client has no secret, so none is made (hashing one would only cost
    time). allowed_origins, for the token endpoint's CORS, follow the rule of the
    workspace's origins (plain http on a loopback host), not the OAuth library's https-only
    one.
    """
    name = (name or "").strip()
    if not name:
        raise InvalidField("name", "Give the app a name; members see it on the consent page.")
    if len(name) > 200:
        raise InvalidField("name", "An app name has at most 200 characters.")
    application_model = get_application_model()
    application = application_model(
        name=name,
        client_type=application_model.CLIENT_PUBLIC,
        authorization_grant_type=application_model.GRANT_AUTHORIZATION_CODE,
        skip_authorization=False,
        client_secret="",
        hash_client_secret=False,
    )
    _redirect_uris_validated(redirect_uris, application)
    application.allowed_origins = " ".join(
        dict.fromkeys(
            origin_normalise(origin, field="allowed_origins") for origin in allowed_origins
        )
    )
    with transaction.atomic():
        application.save()
        embedded_app = EmbeddedApp.objects.create(workspace=workspace, application=application)
        audit_record(
            actor=actor,
            action="embedded_app.created",
            target_type="embedded_app",
            target_id=embedded_app.pk,
            workspace=workspace,
            detail={
                "name": name,
                "client_id": application.client_id,
                "redirect_uris": application.redirect_uris.split(),
            },
        )
    return embedded_app


def embedded_app_update(*, actor: Actor, embedded_app: EmbeddedApp, redirect_uris) -> EmbeddedApp:
    """Replace an embedded app's exact redirect URIs."""
    with transaction.atomic():
        application = (
            get_application_model().objects.select_for_update().get(pk=embedded_app.application_id)
        )
        before = application.redirect_uris.split()
        _redirect_uris_validated(redirect_uris, application)
        after = application.redirect_uris.split()
        if before != after:
            application.save(update_fields=["redirect_uris", "updated"])
            audit_record(
                actor=actor,
                action="embedded_app.redirect_uris_changed",
                target_type="embedded_app",
                target_id=embedded_app.pk,
                workspace=embedded_app.workspace,
                detail={"client_id": application.client_id, "before": before, "after": after},
            )
    embedded_app.application = application
    return embedded_app


@transaction.atomic
def field_encryption_rotate(*, actor: Actor) -> dict:
    """Encrypt every stored secret again with the first FIELD_ENCRYPTION_KEY (after a new
    key was put first); the older keys can then be dropped."""
    counts = encrypted_columns_rotate()
    audit_record(
        actor=actor,
        action="field_encryption.rotated",
        target_type="field_encryption",
        target_id="",
        detail=counts,
    )
    return counts


def member_minted_tokens(member) -> list[ApiToken]:
    """The member's tokens that still work: the ones their deactivation revokes."""
    return list(
        ApiToken.objects.filter(minted_by_member=member, revoked_at__isnull=True).order_by(
            "created_at"
        )
    )


def member_access_end(*, member, actor: Actor) -> dict:
    """Everything a deactivated member held in the workspace stops working, in the caller's
    transaction: their sessions in its embedded apps and the workspace tokens they minted,
    each revoked with its audit event. Returns how many of each."""
    with transaction.atomic():
        sessions = member_sessions_revoke(member=member, actor=actor)
        # token_revoke locks each token and leaves one revoked meanwhile as it is.
        minted = [
            token_revoke(actor=actor, token=token, reason="Its minter was deactivated.")
            for token in member_minted_tokens(member)
        ]
    return {"sessions": sessions, "tokens": len(minted)}


ROLE_LOWERED_REASON = "Its minter's role no longer mints tokens."


def member_role_lowered(*, member, actor: Actor) -> int:
    """A member's new role may not mint tokens: the workspace tokens they minted are
    revoked, each with its audit event, in the role change's transaction (registered with
    workspaces.tenancy.on_role_lowered). Returns how many."""
    return len(
        [
            token_revoke(actor=actor, token=token, reason=ROLE_LOWERED_REASON)
            for token in member_minted_tokens(member)
        ]
    )


def member_sessions_revoke(*, member, actor: Actor) -> int:
    """End every session the member holds in the workspace's embedded apps at once (their
    access and refresh tokens); tokens of their other workspaces stay. Returns how many."""
    if member.user_id is None:
        return 0
    applications = EmbeddedApp.objects.filter(workspace_id=member.workspace_id).values(
        "application_id"
    )
    with transaction.atomic():
        tokens = get_access_token_model().objects.filter(
            user_id=member.user_id, application_id__in=applications
        )
        count = tokens.count()
        get_refresh_token_model().objects.filter(
            user_id=member.user_id, application_id__in=applications, revoked__isnull=True
        ).update(revoked=timezone.now())
        tokens.delete()
        if count:
            audit_record(
                actor=actor,
                action="session_token.revoked",
                target_type="member",
                target_id=member.pk,
                workspace=member.workspace,
                detail={"tokens": count},
            )
    return count


def code_replayed_revoke(*, redemption: RedeemedCode) -> None:
    """A code presented again has leaked: revoke every token issued from it."""
    with transaction.atomic():
        get_refresh_token_model().revoke_family(redemption.token_family)
        if redemption.access_token_id is not None:
            get_access_token_model().objects.filter(pk=redemption.access_token_id).delete()
        embedded_app = (
            EmbeddedApp.objects.select_related("workspace")
            .filter(application_id=redemption.application_id)
            .first()
        )
        audit_record(
            actor=Actor(kind="system", label="authorization server"),
            action="session.code_replayed",
            target_type="oauth_application",
            target_id=redemption.application_id,
            workspace=embedded_app.workspace if embedded_app else None,
            detail={"redeemed_at": redemption.redeemed_at.isoformat()},
        )


def user_sessions_end(*, user, actor: Actor, reason: str) -> int:
    """End every OAuth session of the account, in every workspace and app: each workspace's
    embedded apps' tokens with that membership's audit event, then any other token the
    account holds (an MCP client's), audited once. Returns how many access tokens ended."""
    with transaction.atomic():
        ended = sum(
            member_sessions_revoke(member=member, actor=actor)
            for member in Member.objects.filter(user=user).select_related("workspace")
        )
        rest = get_access_token_model().objects.filter(user_id=user.pk)
        others = rest.count()
        get_refresh_token_model().objects.filter(user_id=user.pk, revoked__isnull=True).update(
            revoked=timezone.now()
        )
        rest.delete()
        audit_record(
            actor=actor,
            action="sessions.ended",
            target_type="user",
            target_id=user.pk,
            reason=reason,
            detail={"tokens": ended + others},
        )
    return ended + others
