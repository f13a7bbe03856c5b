"""Sign in, mint a token and see it once, revoke it; sign in to an embedded app."""

import base64
import hashlib
import re
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.conf import settings

from tokens.models import ApiToken
from workspaces.models import Workspace

from .conftest import PHONE, call_api, post_form, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOKEN = re.compile(r"^svc_[0-9a-f]{64}$")
REDIRECT_URI = "https://app.example.test/callback"


@pytest.fixture
def team(make_workspace, make_member, make_user):
    workspace = make_workspace(name="Northwind Sales", origins=["https://app.example.test"])
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    return workspace, owner


def test_mint_see_once_reload_revoke_and_the_api_answers_401(page, live_server, team):
    workspace, owner = team
    tokens_url = f"/settings/{workspace.pk}/tokens/"

    page.goto(tokens_url)
    assert urlsplit(page.url).path == "/accounts/login/"
    shot(page, "login.png")
    sign_in(page, owner.email)
    assert urlsplit(page.url).path == tokens_url
    shot(page, "workspace-tokens.png")

    page.fill("#id_name", "Reporting dashboard")
    page.check("input[name=scopes][value='data:write']")
    page.click("#mint")
    plaintext = page.text_content("#minted-token").strip()
    assert TOKEN.match(plaintext)
    assert page.is_visible("#copy-token")
    shot(page, "workspace-token-minted.png")
    assert call_api(live_server, "/api/v1/whoami", plaintext) == (
        200,
        {
            "workspace": {"id": str(workspace.pk)},
            "token": {"name": "Reporting dashboard"},
            "access": "read-only",
        },
    )

    # From a web page the same token is refused: it must stay on a server.
    status, body = page.evaluate(
        """async (token) => {
            const answer = await fetch('/api/v1/whoami', {headers: {Authorization: 'Bearer ' + token}});
            return [answer.status, await answer.json()];
        }""",
        plaintext,
    )
    assert (status, body["error"]["reason"]) == (403, "refused.token_in_browser")

    page.reload()
    assert page.query_selector("#minted-token") is None
    html = page.content()
    assert plaintext not in html
    row = page.text_content("#tokens tbody tr")
    assert f"svc_…{plaintext[-4:]}" in row
    assert "Reporting dashboard" in row

    page.click("text=Revoke…")
    assert "Revoke Reporting dashboard?" in page.text_content("h2")
    shot(page, "workspace-token-revoke.png")
    page.fill("#reason", "rotating")
    page.click("#confirm-revoke")
    assert urlsplit(page.url).path == tokens_url
    assert "revoked" in page.text_content("#tokens tbody tr")
    shot(page, "workspace-tokens-revoked.png")

    status, body = call_api(live_server, "/api/v1/whoami", plaintext)
    assert status == 401
    assert body["error"] == {
        "reason": "unauthenticated",
        "message": "This token has been revoked. Create a new one in the settings.",
    }
    assert ApiToken.objects.get().revoked_at is not None

    page.set_viewport_size(PHONE)
    page.reload()
    # Usable on a phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "workspace-tokens-phone.png")


def test_embedded_app_settings_and_sign_in_to_the_app(page, live_server, team, make_member):
    workspace, owner = team
    page.goto(f"/settings/{workspace.pk}/apps/")
    sign_in(page, owner.email)
    page.fill("#id_origins", "https://app.example.test\nhttp://localhost:5173")
    page.click("#save-origins")
    assert page.is_visible("text=Allowed origins saved.")
    page.fill("#id_name", "Northwind board")
    page.fill("#id_redirect_uris", REDIRECT_URI)
    page.click("#create-app")
    client_id = page.text_content("code.client-id").strip()
    shot(page, "workspace-apps.png")
    workspace.refresh_from_db()
    assert workspace.embedded_origins == ["https://app.example.test", "http://localhost:5173"]

    # The app sends the person to sign in; the browser lands back on the app with a code.
    page.route(
        "https://app.example.test/**",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body="<p>Back in the app</p>"
        ),
    )
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=")
    query = {
        "client_id": client_id,
        "response_type": "code",
        "redirect_uri": REDIRECT_URI,
        "scope": "read data:write",
        "state": "s-1",
        "code_challenge": challenge.decode(),
        "code_challenge_method": "S256",
        "resource": settings.API_AUDIENCE,
    }
    page.goto("/o/authorize/?" + urlencode(query))
    assert "Allow Northwind board?" in page.text_content("h1")
    assert page.text_content("#consent-workspace") == "Northwind Sales"
    scopes = page.text_content("#consent-scopes")
    assert "read" in scopes and "data:write" in scopes
    shot(page, "oauth-consent.png")
    page.click("#allow")
    page.wait_for_url(REDIRECT_URI + "?**")
    params = {key: values[0] for key, values in parse_qs(urlsplit(page.url).query).items()}
    assert params["state"] == "s-1"

    status, tokens = post_form(
        live_server,
        "/o/token/",
        {
            "grant_type": "authorization_code",
            "code": params["code"],
            "redirect_uri": REDIRECT_URI,
            "client_id": client_id,
            "code_verifier": verifier,
            "resource": settings.API_AUDIENCE,
        },
    )
    assert status == 200
    status, whoami = call_api(live_server, "/api/v1/whoami", tokens["access_token"])
    assert (status, whoami["token"]["name"]) == (200, "Northwind board")

    # Someone outside the workspace is told plainly, and sent nowhere.
    outsider = make_member(make_workspace_for_outsider(workspace), "owner", user=False)
    outsider.user = type(owner.user).objects.create_user(
        username="otto@else.test", email="otto@else.test", password="correct-horse-battery"
    )
    outsider.save()
    page.context.clear_cookies()
    page.goto("/o/authorize/?" + urlencode(query))
    sign_in(page, "otto@else.test")
    assert "You cannot sign in to Northwind board" in page.text_content("h1")
    shot(page, "oauth-refused.png")


def make_workspace_for_outsider(workspace):
    return Workspace.objects.create(name="Elsewhere", slug=f"elsewhere-{workspace.slug}")
