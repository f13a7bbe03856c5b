"""Bearer authentication for both APIs and the MCP server.

One header, three kinds of token: workspace API tokens (svc_), agency tokens (agy_),
and members' OAuth access tokens from an embedded app. Anything else is 401. A session
token is accepted only by the resource it was issued for (its audience): the REST API
(settings.API_AUDIENCE) or the MCP server (settings.MCP_AUDIENCE).
"""

import hashlib

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from oauth2_provider.models import get_access_token_model
from rest_framework.authentication import BaseAuthentication

from core.compiled import CompiledLookup
from core.errors import Unauthenticated
from workspaces.models import Member

from .models import TOKEN_PATTERN, ApiToken, token_digest
from .principal import Principal


def bearer_credential(header: str | None) -> str | None:
    """The token of an Authorization header; None without one, 401 when malformed."""
    if header is None:
        return None
    scheme, _, credential = header.strip().partition(" ")
    credential = credential.strip()
    if scheme.lower() != "bearer" or not credential or " " in credential:
        raise Unauthenticated(
            "The Authorization header must be 'Bearer <token>' with a single token."
        )
    return credential


def _touch_last_used(token: ApiToken) -> None:
    """Write last use at most once a minute, without loading or saving the row."""
    now = timezone.now()
    threshold = now - settings.TOKEN_LAST_USED_RESOLUTION
    if token.last_used_at is None or token.last_used_at < threshold:
        ApiToken.objects.filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=threshold), pk=token.pk
        ).update(last_used_at=now)
        token.last_used_at = now


# Every request's token, with its workspace or agency: one indexed lookup, compiled once.
_token_by_digest = CompiledLookup(
    ApiToken,
    lambda digest: ApiToken.objects.select_related("workspace", "agency").filter(digest=digest),
)


def authenticate_api_token(raw: str) -> Principal:
    if not TOKEN_PATTERN.match(raw):
        raise Unauthenticated("This token is not a token of this service.")
    token = _token_by_digest.first(token_digest(raw))
    if token is None:
        raise Unauthenticated("This token is not a token of this service.")
    if token.revoked_at is not None:
        raise Unauthenticated("This token has been revoked. Create a new one in the settings.")
    if token.expires_at is not None and token.expires_at <= timezone.now():
        raise Unauthenticated("This token has expired. Create a new one in the settings.")
    if token.kind == ApiToken.Kind.WORKSPACE:
        if token.workspace.archived_at is not None:
            raise Unauthenticated("This token's workspace is archived.")
        principal = Principal(
            kind="workspace_token",
            scopes=frozenset(token.scopes),
            workspace=token.workspace,
            api_token=token,
        )
    else:
        principal = Principal(
            kind="agency_token",
            scopes=frozenset(token.scopes),
            agency=token.agency,
            api_token=token,
        )
    _touch_last_used(token)
    return principal


def authenticate_session_token(raw: str, audience: str | None = None) -> Principal:
    audience = audience or settings.API_AUDIENCE
    checksum = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    access_token = (
        get_access_token_model()
        .objects.select_related("application__embedded_app__workspace", "user")
        .filter(token_checksum=checksum)
        .first()
    )
    if access_token is None or access_token.is_expired():
        raise Unauthenticated("This token is not a token of this service, or it has expired.")
    if audience not in (access_token.resource or []):
        raise Unauthenticated(
            f"This access token was not issued for {audience}: "
            "sign in again with resource set to it."
        )
    embedded_app = getattr(access_token.application, "embedded_app", None)
    if embedded_app is None or access_token.user is None:
        raise Unauthenticated("This access token does not belong to a workspace's embedded app.")
    workspace = embedded_app.workspace
    if workspace.archived_at is not None:
        raise Unauthenticated("This token's workspace is archived.")
    member = Member.objects.filter(
        workspace=workspace, user=access_token.user, is_active=True
    ).first()
    if member is None:
        raise Unauthenticated("The signed-in person is no longer a member of this workspace.")
    return Principal(
        kind="session",
        scopes=frozenset(access_token.scope.split()),
        workspace=workspace,
        member=member,
        access_token=access_token,
    )


def authenticate_bearer(raw: str, *, audience: str) -> Principal:
    """The principal of a bearer token presented to the resource `audience`; else 401."""
    if raw.startswith(("svc_", "agy_")):
        return authenticate_api_token(raw)
    return authenticate_session_token(raw, audience)


# The attribute of a Django request on which the MCP server leaves the principal it has
# already authenticated for its own audience; set in-process only, never from a header.
AUTHENTICATED_PRINCIPAL = "authenticated_principal"


class BearerAuthentication(BaseAuthentication):
    def authenticate(self, request):
        principal = getattr(request._request, AUTHENTICATED_PRINCIPAL, None)
        if principal is not None:
            return principal, principal
        raw = bearer_credential(request.META.get("HTTP_AUTHORIZATION"))
        if raw is None:
            return None
        principal = authenticate_bearer(raw, audience=settings.API_AUDIENCE)
        return principal, principal

    def authenticate_header(self, request):
        return (
            f'Bearer resource_metadata="{settings.BASE_URL}/.well-known/oauth-protected-resource"'
        )
