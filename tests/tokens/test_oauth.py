"""OAuth 2 sign-in for embedded apps, done as a browser and an app would do it."""

import base64
import hashlib
import random
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_grant_model, get_refresh_token_model

from audit.models import AuditEvent

from .conftest import (
    APP_ORIGIN,
    PASSWORD,
    REDIRECT_URI,
    authorize_query,
    browser_client,
    hidden_fields,
    pkce_pair,
    query_of,
    sign_in,
)

pytestmark = pytest.mark.django_db

AccessToken = get_access_token_model()
RefreshToken = get_refresh_token_model()
Grant = get_grant_model()

BASE = settings.BASE_URL


def consent(client, query):
    """GET the authorization endpoint as a signed-in person; returns the consent page."""
    return client.get("/o/authorize/", query)


def allow(client, page, **tamper):
    fields = hidden_fields(page.content.decode(), "authorizationForm")
    fields.update(tamper)
    fields["allow"] = "Authorize"
    return client.post("/o/authorize/", fields)


def exchange(app_client_id, code, verifier, **overrides):
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT_URI,
        "client_id": app_client_id,
        "code_verifier": verifier,
        "resource": settings.API_AUDIENCE,
    }
    body.update(overrides)
    body = {key: value for key, value in body.items() if value is not None}
    return browser_client().post("/o/token/", body)


def full_sign_in(oauth_app, member):
    """Authorize → sign-in form → consent → code; returns (code, verifier, redirect)."""
    client = browser_client()
    verifier, challenge = pkce_pair()
    query = authorize_query(oauth_app.client_id, challenge)
    first = client.get("/o/authorize/", query)
    assert first.status_code == 302
    login_url = urlsplit(first["Location"])
    assert login_url.path == "/accounts/login/"
    next_url = query_of(first["Location"])["next"]
    assert next_url == "/o/authorize/?" + urlencode(query)

    signed_in = sign_in(client, member.email, next_url)
    assert signed_in.status_code == 302
    assert signed_in["Location"] == next_url

    page = client.get(next_url)
    assert page.status_code == 200
    redirect = allow(client, page)
    assert redirect.status_code == 302
    return query_of(redirect["Location"]), verifier, redirect["Location"], client


def test_full_sign_in_issues_a_token_bound_to_the_api(oauth_app, api):
    params, verifier, location, _ = full_sign_in(oauth_app, oauth_app.owner)
    assert location.startswith(REDIRECT_URI + "?")
    assert set(params) == {"code", "state", "iss"}
    assert params["state"] == "state-123"
    assert params["iss"] == BASE
    assert parse_qs(urlsplit(location).query)["iss"] == [BASE]  # once

    response = exchange(oauth_app.client_id, params["code"], verifier)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"access_token", "expires_in", "token_type", "scope", "refresh_token"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert body["scope"] == "read data:write"

    stored = AccessToken.objects.get()
    assert stored.resource == [settings.API_AUDIENCE]
    assert stored.user == oauth_app.owner.user
    # Hashed at rest: the token column is blank, only its checksum is kept.
    assert stored.token == ""
    assert stored.token_checksum == hashlib.sha256(body["access_token"].encode()).hexdigest()
    assert RefreshToken.objects.get().token == ""

    board = api(body["access_token"]).get("/api/v1/me/board")
    assert board.status_code == 200
    whoami = api(body["access_token"]).get("/api/v1/whoami")
    assert whoami.status_code == 200
    assert whoami.json() == {
        "workspace": {"id": str(oauth_app.workspace.pk)},
        "token": {"name": oauth_app.app.application.name},
        "access": "read-only",
    }

    event = AuditEvent.objects.get(action="session.signed_in")
    assert (event.actor_kind, event.actor_id) == ("member", str(oauth_app.owner.pk))
    assert event.workspace_id == oauth_app.workspace.pk
    assert event.detail == {
        "application": oauth_app.client_id,
        "scopes": ["read", "data:write"],
        "resource": [settings.API_AUDIENCE],
    }


def test_the_consent_page_names_the_app_the_workspace_and_the_scopes(oauth_app):
    client = browser_client()
    client.force_login(oauth_app.owner.user)
    _, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Allow {oauth_app.app.application.name}?" in html
    assert '<strong id="consent-workspace">Northwind Sales</strong>' in html
    assert "<li><code>read</code> — Read the workspace&#x27;s figures</li>" in html
    assert "<li><code>data:write</code> — File forms and drafts</li>" in html
    assert hidden_fields(html, "authorizationForm")["resource"] == settings.API_AUDIENCE


def test_a_closer_signs_in_and_carries_their_role(oauth_app, api):
    params, verifier, _, _ = full_sign_in(oauth_app, oauth_app.closer)
    token = exchange(oauth_app.client_id, params["code"], verifier).json()["access_token"]
    # Their own board, yes; workspace-wide figures, no.
    board = api(token).get("/api/v1/me/board")
    assert board.status_code == 200
    assert board.json()["workspace"]["id"] == str(oauth_app.workspace.pk)
    response = api(token).get("/api/v1/calls")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.member_scope"


# --- Refusals at the authorization step -------------------------------------------------


def signed_in_client(member):
    client = browser_client()
    client.force_login(member.user)
    return client


@pytest.mark.parametrize("signed_in", [True, False])
@pytest.mark.parametrize(
    ("overrides", "error", "description"),
    [
        (
            {"code_challenge_method": "plain"},
            "invalid_request",
            "Unsupported code_challenge_method 'plain'; use \"S256\".",
        ),
        (
            {"code_challenge_method": None},
            "invalid_request",
            "Unsupported code_challenge_method 'plain'; use \"S256\".",
        ),
        (
            {"code_challenge": None},
            "invalid_request",
            "Code challenge required.",
        ),
        (
            {"resource": "https://elsewhere.example.test/api"},
            "invalid_target",
            "The resource 'https://elsewhere.example.test/api' is not served here: "
            f"set resource to {settings.API_AUDIENCE} or {settings.MCP_AUDIENCE}.",
        ),
        (
            {"resource": None},
            "invalid_target",
            "The resource parameter is required: set it to "
            f"{settings.API_AUDIENCE} or {settings.MCP_AUDIENCE}.",
        ),
    ],
)
def test_authorization_requests_that_break_the_rules_are_refused(
    oauth_app, overrides, error, description, signed_in
):
    client = signed_in_client(oauth_app.owner) if signed_in else browser_client()
    _, challenge = pkce_pair()
    response = client.get(
        "/o/authorize/", authorize_query(oauth_app.client_id, challenge, **overrides)
    )
    # Refused straight back to the app, before anyone is asked to sign in.
    assert response.status_code == 302
    assert response["Location"].startswith(REDIRECT_URI + "?")
    assert query_of(response["Location"]) == {
        "error": error,
        "error_description": description,
        "state": "state-123",
        "iss": BASE,
    }
    assert Grant.objects.count() == 0


def test_a_second_resource_is_refused(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    query = authorize_query(oauth_app.client_id, challenge)
    url = "/o/authorize/?" + urlencode(query) + "&resource=https%3A%2F%2Fother.example.test%2F"
    response = client.get(url)
    assert response.status_code == 302
    assert query_of(response["Location"])["error"] == "invalid_target"
    assert query_of(response["Location"])["iss"] == BASE


@pytest.mark.parametrize(
    "redirect_uri",
    [
        "https://evil.example.test/callback",
        REDIRECT_URI + "/more",
        REDIRECT_URI + "?extra=1",
        "https://app.example.test/callbac",
    ],
)
def test_a_redirect_uri_not_registered_exactly_is_refused_without_redirecting(
    oauth_app, redirect_uri
):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    response = client.get(
        "/o/authorize/",
        authorize_query(oauth_app.client_id, challenge, redirect_uri=redirect_uri),
    )
    assert response.status_code == 400
    assert "Location" not in response
    assert response.context["error"].error == "invalid_request"
    assert response.context["error"].description == "Mismatching redirect URI."
    assert '<code id="oauth-error">invalid_request</code>' in response.content.decode()


def test_an_unknown_client_is_refused_without_redirecting(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    response = client.get("/o/authorize/", authorize_query("no-such-client", challenge))
    assert response.status_code == 400
    assert "Location" not in response
    assert response.context["error"].error == "invalid_request"
    assert response.context["error"].description == "Invalid client_id parameter value."


def test_someone_who_is_not_a_member_gets_a_clear_page_and_no_code(
    oauth_app, make_workspace, make_member
):
    outsider = make_member(make_workspace(name="Other team"), "owner")
    client = signed_in_client(outsider)
    _, challenge = pkce_pair()
    query = authorize_query(oauth_app.client_id, challenge)
    response = client.get("/o/authorize/", query)
    assert response.status_code == 403
    html = response.content.decode()
    assert f"You cannot sign in to {oauth_app.app.application.name}" in html
    assert f"{outsider.email} is not an active member of <strong>Northwind Sales</strong>" in html

    # Posting the consent form directly does not help either.
    forged = {**query, "scope": query["scope"], "allow": "Authorize"}
    assert client.post("/o/authorize/", forged).status_code == 403
    assert Grant.objects.count() == 0


def test_an_inactive_member_is_refused(oauth_app):
    oauth_app.owner.is_active = False
    oauth_app.owner.save()
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    response = client.get("/o/authorize/", authorize_query(oauth_app.client_id, challenge))
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("tamper", "error"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request"),
        ({"resource": "https://elsewhere.example.test/api"}, "invalid_target"),
        ({"resource": ""}, "invalid_target"),
    ],
)
def test_a_tampered_consent_form_is_refused(oauth_app, tamper, error):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    response = allow(client, page, **tamper)
    assert response.status_code == 302
    assert query_of(response["Location"])["error"] == error
    assert query_of(response["Location"])["iss"] == BASE
    assert Grant.objects.count() == 0


def test_cancelling_the_consent_answers_access_denied(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    fields = hidden_fields(page.content.decode(), "authorizationForm")
    response = client.post("/o/authorize/", fields)
    assert response.status_code == 302
    assert response["Location"].startswith(REDIRECT_URI + "?")
    assert query_of(response["Location"]) == {
        "error": "access_denied",
        "state": "state-123",
        "iss": BASE,
    }


def test_the_consent_form_needs_its_csrf_token(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    fields = hidden_fields(page.content.decode(), "authorizationForm")
    del fields["csrfmiddlewaretoken"]
    response = client.post("/o/authorize/", {**fields, "allow": "Authorize"})
    assert response.status_code == 403
    assert Grant.objects.count() == 0


# --- Refusals at the token endpoint -----------------------------------------------------


def code_for(oauth_app, member=None):
    client = signed_in_client(member or oauth_app.owner)
    verifier, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    redirect = allow(client, page)
    return query_of(redirect["Location"])["code"], verifier


def test_a_code_is_used_once_and_a_replay_revokes_what_it_issued(oauth_app, api):
    code, verifier = code_for(oauth_app)
    first = exchange(oauth_app.client_id, code, verifier)
    assert first.status_code == 200
    tokens = first.json()
    assert api(tokens["access_token"]).get("/api/v1/whoami").status_code == 200
    # Refreshed once: the refreshed tokens came from the code too.
    refreshed = refresh(oauth_app.client_id, tokens["refresh_token"]).json()
    assert api(refreshed["access_token"]).get("/api/v1/whoami").status_code == 200

    again = exchange(oauth_app.client_id, code, verifier)
    assert again.status_code == 400
    assert again.json() == {"error": "invalid_grant"}
    for access_token in (tokens["access_token"], refreshed["access_token"]):
        whoami = api(access_token).get("/api/v1/whoami")
        assert whoami.status_code == 401
        assert whoami.json()["error"]["reason"] == "unauthenticated"
    assert AccessToken.objects.count() == 0
    assert RefreshToken.objects.filter(revoked__isnull=True).count() == 0
    assert refresh(oauth_app.client_id, refreshed["refresh_token"]).status_code == 400
    event = AuditEvent.objects.get(action="session.code_replayed")
    assert (event.workspace_id, event.target_id) == (
        oauth_app.workspace.pk,
        str(oauth_app.app.application.pk),
    )


def test_a_replayed_code_leaves_other_sign_ins_alone(oauth_app, api):
    code, verifier = code_for(oauth_app)
    other_code, other_verifier = code_for(oauth_app)
    tokens = exchange(oauth_app.client_id, code, verifier).json()
    other = exchange(oauth_app.client_id, other_code, other_verifier).json()
    assert exchange(oauth_app.client_id, code, verifier).status_code == 400
    assert api(tokens["access_token"]).get("/api/v1/whoami").status_code == 401
    assert api(other["access_token"]).get("/api/v1/whoami").status_code == 200


@pytest.mark.parametrize(
    ("overrides", "status", "body"),
    [
        ({"code_verifier": "x" * 50}, 400, {"error": "invalid_grant"}),
        (
            {"code_verifier": None},
            400,
            {"error": "invalid_request", "error_description": "Code verifier required."},
        ),
        (
            {"resource": "https://elsewhere.example.test/api"},
            400,
            {
                "error": "invalid_target",
                "error_description": "The requested resource "
                "'https://elsewhere.example.test/api' is not allowed. Token request cannot "
                "escalate resource permissions beyond the original authorization grant",
            },
        ),
        (
            {"redirect_uri": "https://app.example.test/other"},
            400,
            {"error": "invalid_request", "error_description": "Mismatching redirect URI."},
        ),
        ({"client_id": "someone-else"}, 401, {"error": "invalid_client"}),
    ],
)
def test_token_requests_that_break_the_rules_are_refused(oauth_app, overrides, status, body):
    code, verifier = code_for(oauth_app)
    response = exchange(oauth_app.client_id, code, verifier, **overrides)
    assert response.status_code == status
    assert response.json() == body
    assert AccessToken.objects.count() == 0


def test_the_resource_may_be_left_out_at_the_token_step(oauth_app):
    code, verifier = code_for(oauth_app)
    response = exchange(oauth_app.client_id, code, verifier, resource=None)
    assert response.status_code == 200
    assert AccessToken.objects.get().resource == [settings.API_AUDIENCE]


def test_a_token_without_the_api_audience_answers_401(oauth_app, api):
    code, verifier = code_for(oauth_app)
    token = exchange(oauth_app.client_id, code, verifier).json()["access_token"]
    AccessToken.objects.update(resource=["https://elsewhere.example.test/api"])
    response = api(token).get("/api/v1/whoami")
    assert response.status_code == 401
    assert response.json()["error"]["reason"] == "unauthenticated"
    assert response["WWW-Authenticate"] == (
        f'Bearer resource_metadata="{BASE}/.well-known/oauth-protected-resource"'
    )


# --- Refresh: rotation and reuse protection ---------------------------------------------


def refresh(client_id, refresh_token):
    return browser_client().post(
        "/o/token/",
        {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id},
    )


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(oauth_app, api):
    code, verifier = code_for(oauth_app)
    first = exchange(oauth_app.client_id, code, verifier).json()

    second = refresh(oauth_app.client_id, first["refresh_token"])
    assert second.status_code == 200
    second = second.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert second["access_token"] != first["access_token"]
    assert second["expires_in"] == 3600
    assert AccessToken.objects.get().resource == [settings.API_AUDIENCE]
    # The old access token is gone with its refresh token; the new one works.
    assert api(first["access_token"]).get("/api/v1/whoami").status_code == 401
    assert api(second["access_token"]).get("/api/v1/whoami").status_code == 200

    # The first refresh token again: refused, and the whole family with it.
    replay = refresh(oauth_app.client_id, first["refresh_token"])
    assert replay.status_code == 400
    assert replay.json() == {"error": "invalid_grant"}
    assert api(second["access_token"]).get("/api/v1/whoami").status_code == 401
    assert refresh(oauth_app.client_id, second["refresh_token"]).json() == {
        "error": "invalid_grant"
    }
    assert AccessToken.objects.count() == 0
    assert RefreshToken.objects.filter(revoked__isnull=True).count() == 0


def test_refresh_is_refused_once_the_person_left_the_workspace(oauth_app):
    code, verifier = code_for(oauth_app)
    tokens = exchange(oauth_app.client_id, code, verifier).json()
    oauth_app.owner.is_active = False
    oauth_app.owner.save()
    response = refresh(oauth_app.client_id, tokens["refresh_token"])
    assert response.status_code == 400
    assert response.json() == {"error": "invalid_grant"}


def test_refresh_cannot_widen_the_resource(oauth_app):
    code, verifier = code_for(oauth_app)
    tokens = exchange(oauth_app.client_id, code, verifier).json()
    response = browser_client().post(
        "/o/token/",
        {
            "grant_type": "refresh_token",
            "refresh_token": tokens["refresh_token"],
            "client_id": oauth_app.client_id,
            "resource": "https://elsewhere.example.test/api",
        },
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_target"


@pytest.mark.parametrize(
    ("grant_type", "status", "error"),
    [
        ("password", 400, "unauthorized_client"),
        ("client_credentials", 401, "invalid_client"),
        ("implicit", 400, "unsupported_grant_type"),
    ],
)
def test_other_grants_are_refused(oauth_app, grant_type, status, error):
    body = {
        "grant_type": grant_type,
        "client_id": oauth_app.client_id,
        "username": oauth_app.owner.user.username,
        "password": PASSWORD,
    }
    response = browser_client().post("/o/token/", body)
    assert response.status_code == status
    assert response.json()["error"] == error
    assert AccessToken.objects.count() == 0


def test_the_implicit_flow_is_refused(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    response = client.get(
        "/o/authorize/", authorize_query(oauth_app.client_id, challenge, response_type="token")
    )
    assert response.status_code == 302
    assert query_of(response["Location"])["error"] == "unauthorized_client"


# --- Discovery ------------------------------------------------------------------------


def test_authorization_server_metadata(client):
    response = client.get("/.well-known/oauth-authorization-server")
    assert response.status_code == 200
    assert response.json() == {
        "issuer": BASE,
        "authorization_endpoint": f"{BASE}/o/authorize/",
        "token_endpoint": f"{BASE}/o/token/",
        "revocation_endpoint": f"{BASE}/o/revoke_token/",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "scopes_supported": ["data:write", "read"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": True,
        "client_id_metadata_document_supported": False,
    }


@pytest.mark.parametrize(
    "path",
    ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/api/v1"],
)
def test_protected_resource_metadata(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.json() == {
        "resource": settings.API_AUDIENCE,
        "authorization_servers": [BASE],
        "scopes_supported": ["data:write", "read"],
        "bearer_methods_supported": ["header"],
        "resource_name": "Sales Figures API",
        "resource_documentation": f"{BASE}/api/docs/",
    }


def test_the_401_challenge_names_the_metadata_document_that_exists(client, api):
    challenge = api().get("/api/v1/whoami")["WWW-Authenticate"]
    url = challenge.split('resource_metadata="', 1)[1].rstrip('"')
    assert url == f"{BASE}/.well-known/oauth-protected-resource"
    assert client.get(urlsplit(url).path).status_code == 200


# --- Browser rules and CORS -------------------------------------------------------------


@pytest.fixture
def session_of(oauth_app):
    code, verifier = code_for(oauth_app)
    return exchange(oauth_app.client_id, code, verifier).json()["access_token"]


def test_a_session_token_from_a_listed_origin_is_answered_with_cors_headers(session_of, api):
    response = api(session_of, HTTP_ORIGIN=APP_ORIGIN, HTTP_SEC_FETCH_SITE="cross-site").get(
        "/api/v1/whoami"
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert response["Access-Control-Expose-Headers"] == (
        "Idempotent-Replayed, RateLimit-Policy, RateLimit, Retry-After, X-Request-ID"
    )


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_ORIGIN": "https://evil.example.test"},
        {"HTTP_SEC_FETCH_SITE": "cross-site"},
        {"HTTP_ORIGIN": "https://app.example.test:8443"},
    ],
)
def test_a_session_token_from_another_origin_is_refused(session_of, api, headers):
    response = api(session_of, **headers).get("/api/v1/whoami")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.origin"
    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_ORIGIN": APP_ORIGIN},
        {"HTTP_SEC_FETCH_SITE": "same-origin"},
        {"HTTP_ORIGIN": APP_ORIGIN, "HTTP_SEC_FETCH_SITE": "cross-site"},
    ],
)
def test_a_workspace_token_from_a_browser_is_refused(oauth_app, workspace_token, api, headers):
    token = workspace_token(oauth_app.workspace)
    response = api(token, **headers).get("/api/v1/whoami")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.token_in_browser"


def test_an_agency_token_from_a_browser_is_refused(make_agency, agency_token, api):
    token = agency_token(make_agency())
    response = api(token, HTTP_SEC_FETCH_SITE="cross-site").get("/api/v1/whoami")
    # 401 comes first: agency tokens are not accepted on the figures API at all.
    assert response.status_code in {401, 403}
    if response.status_code == 403:
        assert response.json()["error"]["reason"] == "refused.token_in_browser"


def preflight(client, path, origin, method="GET"):
    return client.options(
        path,
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, idempotency-key",
    )


@pytest.mark.parametrize("path", ["/api/v1/whoami", "/o/token/"])
def test_preflight_from_a_listed_origin_is_answered(oauth_app, client, path):
    with_slash = [*oauth_app.workspace.embedded_origins, "https://second.example.test"]
    oauth_app.workspace.embedded_origins = with_slash
    oauth_app.workspace.save()
    for origin in (APP_ORIGIN, "https://second.example.test"):
        response = preflight(client, path, origin, "POST")
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == origin
        assert response["Access-Control-Allow-Headers"] == (
            "authorization, content-type, idempotency-key"
        )
        assert response["Access-Control-Allow-Methods"] == "GET, POST, PUT, PATCH, DELETE, OPTIONS"
        assert response["Access-Control-Expose-Headers"] == (
            "Idempotent-Replayed, RateLimit-Policy, RateLimit, Retry-After, X-Request-ID"
        )
        assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.parametrize("origin", ["https://evil.example.test", "http://app.example.test", "null"])
def test_preflight_from_an_unlisted_origin_gets_no_cors_headers(oauth_app, client, origin):
    response = preflight(client, "/api/v1/whoami", origin)
    assert "Access-Control-Allow-Origin" not in response


def test_an_archived_workspace_origin_is_not_allowed(oauth_app, client):
    oauth_app.workspace.archived_at = timezone.now()
    oauth_app.workspace.save()
    assert "Access-Control-Allow-Origin" not in preflight(client, "/api/v1/whoami", APP_ORIGIN)


def test_pages_never_answer_cors_even_for_a_listed_origin(oauth_app, client):
    response = preflight(client, f"/settings/{oauth_app.workspace.pk}/tokens/", APP_ORIGIN)
    assert "Access-Control-Allow-Origin" not in response
    response = preflight(client, "/accounts/login/", APP_ORIGIN, "POST")
    assert "Access-Control-Allow-Origin" not in response


def test_cors_costs_one_query_per_request(oauth_app, client, django_assert_num_queries):
    with django_assert_num_queries(1):
        preflight(client, "/api/v1/whoami", APP_ORIGIN)


def test_the_app_can_revoke_a_session(oauth_app, api):
    code, verifier = code_for(oauth_app)
    tokens = exchange(oauth_app.client_id, code, verifier).json()
    response = browser_client().post(
        "/o/revoke_token/",
        {"token": tokens["refresh_token"], "client_id": oauth_app.client_id},
    )
    assert response.status_code == 200
    assert api(tokens["access_token"]).get("/api/v1/whoami").status_code == 401
    assert refresh(oauth_app.client_id, tokens["refresh_token"]).json() == {
        "error": "invalid_grant"
    }


def test_the_token_endpoint_answers_a_listed_origin_with_cors_headers(oauth_app):
    code, verifier = code_for(oauth_app)
    body = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT_URI,
        "client_id": oauth_app.client_id,
        "code_verifier": verifier,
    }
    response = browser_client().post("/o/token/", body, HTTP_ORIGIN=APP_ORIGIN)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert response["Cache-Control"] == "no-store"


def test_session_tokens_minted_without_a_browser_are_stored_hashed(oauth_app, session_token, api):
    plaintext = session_token(oauth_app.owner)
    stored = AccessToken.objects.get()
    assert stored.token == ""
    assert stored.token_checksum == hashlib.sha256(plaintext.encode()).hexdigest()
    assert api(plaintext).get("/api/v1/whoami").status_code == 200


def test_a_consent_form_naming_an_unknown_client_is_refused(oauth_app):
    client = signed_in_client(oauth_app.owner)
    _, challenge = pkce_pair()
    page = consent(client, authorize_query(oauth_app.client_id, challenge))
    response = allow(client, page, client_id="no-such-client")
    assert response.status_code == 400
    assert "Location" not in response
    assert response.context["error"].error == "invalid_request"
    assert Grant.objects.count() == 0


@pytest.mark.parametrize(
    ("method", "path", "params"),
    [
        ("get", "/o/authorize/", {"client_id": "\x00", "response_type": "code"}),
        ("post", "/o/token/", {"client_id": "\x00", "grant_type": "authorization_code"}),
        (
            "post",
            "/o/token/",
            {"client_id": "x", "grant_type": "authorization_code", "code": "\x00"},
        ),
        ("post", "/o/revoke_token/", {"client_id": "\x00", "token": "x"}),
    ],
)
def test_a_nul_in_an_oauth_parameter_is_400_invalid_request(method, path, params):
    response = getattr(browser_client(), method)(path, params)
    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid_request",
        "error_description": "A parameter holds a NUL character.",
    }


@pytest.mark.parametrize("path", ["/o/token/", "/o/revoke_token/"])
@pytest.mark.parametrize(
    "credentials",
    [
        b"\x00:secret",
        b"%00:secret",
        b"client\x00id:secret",
        b"client:sec\x00ret",
        b"client:sec%00ret",
    ],
)
def test_a_nul_in_basic_client_credentials_is_400_invalid_request(oauth_app, path, credentials):
    response = browser_client().post(
        path,
        {"grant_type": "authorization_code", "code": "x", "token": "x"},
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(credentials).decode(),
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid_request",
        "error_description": "The client credentials hold a NUL character.",
    }


@pytest.mark.parametrize(
    "header", ["Basic !!!", "Basic " + base64.b64encode(b"\xff:x").decode(), "Basic bm9jb2xvbg=="]
)
def test_undecodable_basic_client_credentials_stay_invalid_client(oauth_app, header):
    response = browser_client().post(
        "/o/token/", {"grant_type": "authorization_code", "code": "x"}, HTTP_AUTHORIZATION=header
    )
    assert response.status_code == 401
    assert response.json() == {"error": "invalid_client"}


def test_a_loopback_redirect_uri_must_match_its_port(make_workspace, make_member, embedded_app):
    workspace = make_workspace(origins=[APP_ORIGIN])
    app = embedded_app(workspace, redirect_uri="http://127.0.0.1:8765/callback")
    client = signed_in_client(make_member(workspace, "owner"))
    _, challenge = pkce_pair()
    other_port = client.get(
        "/o/authorize/",
        authorize_query(
            app.application.client_id, challenge, redirect_uri="http://127.0.0.1:9999/callback"
        ),
    )
    assert other_port.status_code == 400
    assert "Location" not in other_port
    registered = client.get(
        "/o/authorize/",
        authorize_query(
            app.application.client_id, challenge, redirect_uri="http://127.0.0.1:8765/callback"
        ),
    )
    assert registered.status_code == 200


def test_a_member_who_holds_a_token_is_asked_again_even_with_approval_prompt_auto(oauth_app):
    code, verifier, _, client = full_sign_in(oauth_app, oauth_app.owner)
    assert exchange(oauth_app.client_id, code["code"], verifier).status_code == 200
    _, challenge = pkce_pair()
    again = client.get(
        "/o/authorize/",
        authorize_query(oauth_app.client_id, challenge, approval_prompt="auto"),
    )
    # The consent page, not a redirect carrying a new code.
    assert again.status_code == 200
    assert "authorizationForm" in again.content.decode()


def test_the_token_endpoint_counts_each_address(settings, monkeypatch):
    settings.RATE_LIMIT_ANON = "2/min"
    address = f"10.77.{random.randint(0, 255)}.{random.randint(1, 254)}"
    answers = [
        browser_client().post(
            "/o/token/", {"grant_type": "authorization_code"}, REMOTE_ADDR=address
        )
        for _ in range(3)
    ]
    assert [a.status_code for a in answers[:2]] != [429, 429]
    refused = answers[2]
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1
    assert refused["RateLimit-Policy"] == '"anonymous";q=2;w=60'
