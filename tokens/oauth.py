"""OAuth 2 sign-in for a workspace's embedded apps, on django-oauth-toolkit.

What this adds to the toolkit's defaults:

- PKCE with S256 only: ``plain`` and a challenge without a method are refused.
- The ``resource`` parameter (RFC 8707) is required at the authorization step and must
  be one of ``settings.OAUTH_RESOURCES`` (the REST API, ``{BASE_URL}/api/v1``, or the MCP
  server, ``{BASE_URL}/mcp``); every access token issued is bound to exactly the one asked
  for, and the other refuses it.
- The signed-in person must be an active member of the app's workspace; anyone else
  gets a page saying so, and no code is issued.
- A refresh is refused once the person is no longer an active member.
- Each sign-in (a code exchanged for tokens) is recorded as an audit event.
- A code presented a second time revokes every token issued from it (RFC 6749, 4.1.2).
- Every authorization response redirect carries ``iss`` (RFC 9207), errors included.
"""

import base64
import binascii
import hashlib
from datetime import timedelta
from functools import wraps
from urllib.parse import unquote_plus

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from oauth2_provider.exceptions import OAuthToolkitError
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_refresh_token_model,
)
from oauth2_provider.oauth2_backends import _add_iss_to_redirect
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import (
    AuthorizationView,
    OAuthProtectedResourceMetadataView,
    TokenView,
)
from oauthlib.oauth2.rfc6749 import errors
from rest_framework.throttling import BaseThrottle

from audit.services import Actor, audit_record
from core.throttling import rate_count
from workspaces.models import Member

from .models import EmbeddedApp, RedeemedCode, token_digest
from .services import code_replayed_revoke

PKCE_METHOD = "S256"


def _active_member(*, application, user) -> Member | None:
    embedded_app = (
        EmbeddedApp.objects.select_related("workspace").filter(application=application).first()
    )
    if embedded_app is None or embedded_app.workspace.archived_at is not None:
        return None
    return (
        Member.objects.select_related("workspace")
        .filter(workspace=embedded_app.workspace, user=user, is_active=True)
        .first()
    )


def _resource_served(resources) -> bool:
    """Exactly one resource, and one this service serves."""
    return len(resources) == 1 and resources[0] in settings.OAUTH_RESOURCES


def _resource_error(resources, state) -> errors.OAuth2Error:
    served = " or ".join(settings.OAUTH_RESOURCES)
    if not resources:
        description = f"The resource parameter is required: set it to {served}."
    else:
        description = (
            f"The resource {' '.join(resources)!r} is not served here: set resource to {served}."
        )
    return errors.CustomOAuth2Error(error="invalid_target", description=description, state=state)


def _pkce_error(method, state) -> errors.OAuth2Error:
    return errors.InvalidRequestError(
        description=f'Unsupported code_challenge_method {method or "(none)"!r}; use "S256".',
        state=state,
    )


class MembershipRefused(Exception):
    def __init__(self, *, application, user):
        super().__init__("not a member")
        self.application = application
        self.user = user


class EmbeddedAuthorizationView(AuthorizationView):
    """The authorization endpoint: checks, then the consent page naming app and workspace."""

    template_name = "oauth2_provider/authorize.html"

    def handle_no_permission(self):
        # A request that can never succeed is refused before asking anyone to sign in.
        try:
            self.validate_authorization_request(self.request)
        except OAuthToolkitError as error:
            return self.error_response(error, application=None)
        return super().handle_no_permission()

    def validate_authorization_request(self, request):
        scopes, credentials = super().validate_authorization_request(request)
        state = credentials.get("state")
        redirect_uri = credentials.get("redirect_uri")
        method = credentials.get("code_challenge_method")
        if method != PKCE_METHOD:
            raise OAuthToolkitError(error=_pkce_error(method, state), redirect_uri=redirect_uri)
        resources = request.GET.getlist("resource")
        if not _resource_served(resources):
            raise OAuthToolkitError(
                error=_resource_error(resources, state), redirect_uri=redirect_uri
            )
        if request.user.is_authenticated:
            application = self._application(credentials["client_id"])
            if _active_member(application=application, user=request.user) is None:
                raise MembershipRefused(application=application, user=request.user)
        return scopes, credentials

    def get(self, request, *args, **kwargs):
        # Always ask: a person approves each sign-in of an app, whatever tokens they hold
        # (the toolkit's approval_prompt=auto would skip the page for a returning member).
        request.GET = request.GET.copy()
        request.GET["approval_prompt"] = "force"
        try:
            return super().get(request, *args, **kwargs)
        except MembershipRefused as refusal:
            return self._refusal_page(refusal)

    def form_valid(self, form):
        # The hidden fields come back from the browser: check them again.
        data = form.cleaned_data
        application = self._application(data["client_id"])
        if application is None:
            error = errors.InvalidClientIdError()
            return self.render_to_response({"error": error}, status=error.status_code)
        state = data.get("state") or None
        method = data.get("code_challenge_method") or None
        if method != PKCE_METHOD:
            error = OAuthToolkitError(
                error=_pkce_error(method, state), redirect_uri=data["redirect_uri"]
            )
            return self._checked_error_response(error, application, data)
        resources = (data.get("resource") or "").split()
        if not _resource_served(resources):
            error = OAuthToolkitError(
                error=_resource_error(resources, state), redirect_uri=data["redirect_uri"]
            )
            return self._checked_error_response(error, application, data)
        if _active_member(application=application, user=self.request.user) is None:
            return self._refusal_page(
                MembershipRefused(application=application, user=self.request.user)
            )
        return super().form_valid(form)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        application = context.get("application")
        if application is not None:
            member = _active_member(application=application, user=self.request.user)
            context["member"] = member
            context["workspace"] = member.workspace if member else None
        context["scopes_with_descriptions"] = list(
            zip(context.get("scopes") or [], context.get("scopes_descriptions") or [], strict=False)
        )
        return context

    def redirect(self, redirect_to, application):
        # Every authorization response names its issuer (RFC 9207), errors included: the
        # toolkit adds it to a granted code only.
        issuer = oauth2_settings.oauth2_authorization_server_issuer(self.request)
        return super().redirect(_add_iss_to_redirect(redirect_to, issuer), application)

    # --- helpers -----------------------------------------------------------------------

    @staticmethod
    def _application(client_id):
        return get_application_model().objects.filter(client_id=client_id).first()

    def _checked_error_response(self, error, application, data):
        # Redirect with the error only to a redirect URI registered for the client.
        if application is None or not application.redirect_uri_allowed(data["redirect_uri"]):
            error.oauthlib_error.redirect_uri = None
            return self.render_to_response({"error": error.oauthlib_error}, status=400)
        return self.error_response(error, application)

    def _refusal_page(self, refusal: MembershipRefused):
        embedded_app = (
            EmbeddedApp.objects.select_related("workspace")
            .filter(application=refusal.application)
            .first()
        )
        return render(
            self.request,
            "tokens/oauth_refused.html",
            {
                "application": refusal.application,
                "workspace": embedded_app.workspace if embedded_app else None,
                "email": refusal.user.email or refusal.user.get_username(),
            },
            status=403,
        )


def _remember_redeemed(token, request) -> None:
    """Keep the code's digest and what it issued, so that a replay can revoke it."""
    access_token = (
        get_access_token_model()
        .objects.filter(token_checksum=hashlib.sha256(token["access_token"].encode()).hexdigest())
        .first()
    )
    refresh_token = get_refresh_token_model().objects.filter(access_token=access_token).first()
    now = timezone.now()
    try:
        with transaction.atomic():
            RedeemedCode.objects.create(
                digest=token_digest(request.code),
                application=request.client,
                token_family=refresh_token.token_family if refresh_token else None,
                access_token=access_token,
                redeemed_at=now,
            )
    except IntegrityError:
        # The same code redeemed twice at once: the other exchange keeps its tokens.
        raise errors.InvalidGrantError(request=request) from None
    keep = timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS)
    RedeemedCode.objects.filter(redeemed_at__lt=now - keep).delete()


class EmbeddedAppValidator(OAuth2Validator):
    """Binds every token to the one resource asked for and checks membership on refresh."""

    def _check_and_set_request_resource(self, request):
        super()._check_and_set_request_resource(request)
        if not _resource_served(request.resource):
            error = _resource_error(request.resource, None)
            raise errors.CustomOAuth2Error(
                error=error.error, description=error.description, request=request
            )

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        """Exactly one of the registered URIs, character for character: the toolkit lets a
        loopback address (RFC 8252) come back on any port, which docs/auth.md does not."""
        registered = request.client.redirect_uris.split()
        return redirect_uri in registered and super().validate_redirect_uri(
            client_id, redirect_uri, request, *args, **kwargs
        )

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        if not super().validate_refresh_token(refresh_token, client, request, *args, **kwargs):
            return False
        return _active_member(application=client, user=request.user) is not None

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        if super().validate_code(client_id, code, client, request, *args, **kwargs):
            return True
        redeemed = RedeemedCode.objects.filter(digest=token_digest(code), application=client)
        for redemption in redeemed:
            code_replayed_revoke(redemption=redemption)
        return False

    def _save_bearer_token(self, token, request, *args, **kwargs):
        super()._save_bearer_token(token, request, *args, **kwargs)
        if request.grant_type != "authorization_code":
            return
        member = _active_member(application=request.client, user=request.user)
        if member is None:
            raise errors.InvalidGrantError(
                description="The signed-in person is not an active member of this workspace.",
                request=request,
            )
        _remember_redeemed(token, request)
        audit_record(
            actor=Actor(kind="member", id=str(member.pk), label=member.email),
            action="session.signed_in",
            target_type="member",
            target_id=member.pk,
            workspace=member.workspace,
            detail={
                "application": request.client.client_id,
                "scopes": token["scope"].split(),
                "resource": list(request.resource),
            },
        )


class EmbeddedTokenView(TokenView):
    """The token endpoint; every answer is JSON and never cached."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        # Errors raised while saving a token (invalid_target) come without a content type.
        if response.content.startswith(b"{"):
            response["Content-Type"] = "application/json"
        response["Cache-Control"] = "no-store"
        response["Pragma"] = "no-cache"
        return response


class McpResourceMetadataView(OAuthProtectedResourceMetadataView):
    """RFC 9728 metadata of the MCP server, the resource {BASE_URL}/mcp."""

    def get_resource(self, request):
        return settings.MCP_AUDIENCE

    def get_resource_name(self):
        return "Sales Figures MCP server"


def basic_credentials(request) -> tuple[str, str] | None:
    """The client id and secret of an ``Authorization: Basic`` header, decoded as the
    toolkit decodes them (base64, the request's charset, then each half form-urlencoded,
    RFC 6749 2.3.1); None without such a header or when it cannot be decoded (the
    toolkit then answers invalid_client)."""
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    if scheme != "Basic" or not encoded:
        return None
    try:
        decoded = base64.b64decode(encoded).decode(request.encoding or settings.DEFAULT_CHARSET)
    except (binascii.Error, ValueError):
        return None
    client_id, colon, secret = decoded.partition(":")
    if not colon:
        return None
    return unquote_plus(client_id), unquote_plus(secret)


def _invalid_request(description: str) -> JsonResponse:
    return JsonResponse({"error": "invalid_request", "error_description": description}, status=400)


def refuse_nul_parameters(view):
    """An OAuth request whose parameters or HTTP Basic client credentials hold a NUL
    character answers 400 invalid_request (no database stores one, and no client id,
    secret, code or token holds one)."""

    @wraps(view)
    def checked(request, *args, **kwargs):
        values = [*request.GET.lists(), *(request.POST.lists() if request.method == "POST" else ())]
        if any("\x00" in key or any("\x00" in value for value in items) for key, items in values):
            return _invalid_request("A parameter holds a NUL character.")
        credentials = basic_credentials(request)
        if credentials is not None and any("\x00" in part for part in credentials):
            return _invalid_request("The client credentials hold a NUL character.")
        return view(request, *args, **kwargs)

    return checked


def limited_by_address(view):
    """The token endpoint counts each client address as the API counts requests without an
    accepted token (RATE_LIMIT_ANON); over it, 429 with Retry-After."""
    address = BaseThrottle()

    @wraps(view)
    def counted(request, *args, **kwargs):
        state = rate_count("anonymous", f"address:{address.get_ident(request)}")
        if state is not None and not state.allowed:
            response = JsonResponse(
                {
                    "error": "rate_limited",
                    "error_description": state.message,
                },
                status=429,
            )
            response["Retry-After"] = str(state.reset)
        else:
            response = view(request, *args, **kwargs)
        if state is not None:
            for name, value in state.headers().items():
                response[name] = value
        return response

    return counted
