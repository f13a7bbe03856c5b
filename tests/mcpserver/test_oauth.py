"""Sign-in for the MCP server: the OAuth flow with resource={BASE_URL}/mcp, then a tool."""

from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from oauth2_provider.models import get_access_token_model

from tests.tokens.conftest import (
    REDIRECT_URI,
    authorize_query,
    browser_client,
    hidden_fields,
    pkce_pair,
    query_of,
    sign_in,
)
from tests.tokens.test_oauth import exchange, refresh

AccessToken = get_access_token_model()

APP_ORIGIN = "https://app.example.test"


@pytest.fixture
def signed_in_app(make_workspace, make_member, embedded_app, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    workspace = make_workspace(origins=[APP_ORIGIN], name="Northwind Sales")
    app = embedded_app(workspace, redirect_uri=REDIRECT_URI)
    return workspace, app.application, make_member(workspace, "owner")


def _sign_in_for(application, member, resource):
    """Authorize → sign-in form → consent → code, as a browser does; returns (code, verifier)."""
    client = browser_client()
    verifier, challenge = pkce_pair()
    query = authorize_query(application.client_id, challenge, resource=resource)
    first = client.get("/o/authorize/", query)
    assert first.status_code == 302
    assert urlsplit(first["Location"]).path == "/accounts/login/"
    next_url = "/o/authorize/?" + urlencode(query)
    assert sign_in(client, member.email, next_url).status_code == 302
    page = client.get(next_url)
    assert page.status_code == 200
    fields = hidden_fields(page.content.decode(), "authorizationForm")
    assert fields["resource"] == resource
    redirect = client.post("/o/authorize/", {**fields, "allow": "Authorize"})
    assert redirect.status_code == 302
    return query_of(redirect["Location"])["code"], verifier


def test_signing_in_for_the_mcp_server_then_calling_a_tool(signed_in_app, call_tool, api):
    workspace, application, owner = signed_in_app
    code, verifier = _sign_in_for(application, owner, settings.MCP_AUDIENCE)
    answer = exchange(application.client_id, code, verifier, resource=settings.MCP_AUDIENCE)
    assert answer.status_code == 200
    tokens = answer.json()
    assert AccessToken.objects.get().resource == [settings.MCP_AUDIENCE]

    result = call_tool(tokens["access_token"], "whoami")
    assert result.is_error is False
    assert result.structured_content == {
        "workspace": {"id": str(workspace.pk)},
        "token": {"name": application.name},
        "access": "read-only",
    }
    figures = call_tool(tokens["access_token"], "listCallFigures")
    assert figures.is_error is False
    assert figures.structured_content["workspace"]["id"] == str(workspace.pk)
    # Bound to the MCP server: the REST API refuses it.
    assert api(tokens["access_token"]).get("/api/v1/whoami").status_code == 401

    # A refresh keeps the binding.
    refreshed = refresh(application.client_id, tokens["refresh_token"]).json()
    assert AccessToken.objects.get().resource == [settings.MCP_AUDIENCE]
    assert call_tool(refreshed["access_token"], "whoami").is_error is False


def test_a_code_for_the_mcp_server_cannot_be_exchanged_for_the_rest_api(signed_in_app):
    _, application, owner = signed_in_app
    code, verifier = _sign_in_for(application, owner, settings.MCP_AUDIENCE)
    answer = exchange(application.client_id, code, verifier, resource=settings.API_AUDIENCE)
    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_target"
    assert AccessToken.objects.count() == 0


def test_two_resources_at_once_are_refused(signed_in_app):
    _, application, owner = signed_in_app
    client = browser_client()
    client.force_login(owner.user)
    _, challenge = pkce_pair()
    query = authorize_query(application.client_id, challenge)
    url = "/o/authorize/?" + urlencode(query) + "&" + urlencode({"resource": settings.MCP_AUDIENCE})
    response = client.get(url)
    assert response.status_code == 302
    assert query_of(response["Location"])["error"] == "invalid_target"
