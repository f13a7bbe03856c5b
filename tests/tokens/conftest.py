"""OAuth sign-in helpers: PKCE pairs, the consent form's hidden fields, a signed-in client."""

import base64
import hashlib
import secrets
from html.parser import HTMLParser
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.test import Client

PASSWORD = "correct-horse-battery"
REDIRECT_URI = "https://app.example.test/callback"
APP_ORIGIN = "https://app.example.test"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Passwords and client secrets hashed cheaply: these tests sign in a lot."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.rstrip(b"=").decode()


class _FormFields(HTMLParser):
    """The named inputs of the first form with the given id (or of every form)."""

    def __init__(self, form_id=None):
        super().__init__()
        self.form_id = form_id
        self.inside = form_id is None
        self.fields = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.form_id is not None:
            self.inside = attrs.get("id") == self.form_id
        if self.inside and tag == "input" and attrs.get("name") and attrs.get("type") == "hidden":
            self.fields[attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form" and self.form_id is not None:
            self.inside = False


def hidden_fields(html: str, form_id=None) -> dict:
    parser = _FormFields(form_id)
    parser.feed(html)
    return parser.fields


def query_of(location: str) -> dict:
    return {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}


@pytest.fixture
def oauth_app(make_workspace, make_member, embedded_app):
    """A workspace with an embedded app, an owner and a closer."""
    workspace = make_workspace(origins=[APP_ORIGIN], name="Northwind Sales")
    app = embedded_app(workspace, redirect_uri=REDIRECT_URI)
    return SimpleNamespace(
        workspace=workspace,
        app=app,
        client_id=app.application.client_id,
        owner=make_member(workspace, "owner"),
        closer=make_member(workspace, "closer"),
    )


def authorize_query(client_id, challenge, **overrides) -> dict:
    query = {
        "client_id": client_id,
        "response_type": "code",
        "redirect_uri": REDIRECT_URI,
        "scope": "read data:write",
        "state": "state-123",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "resource": settings.API_AUDIENCE,
    }
    query.update(overrides)
    return {key: value for key, value in query.items() if value is not None}


def browser_client() -> Client:
    return Client(enforce_csrf_checks=True)


def sign_in(client: Client, email: str, next_url: str = "/"):
    """Fill in and post the sign-in form as a browser would."""
    page = client.get("/accounts/login/", {"next": next_url})
    assert page.status_code == 200
    fields = hidden_fields(page.content.decode())
    return client.post(
        "/accounts/login/",
        {
            "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
            "username": email,
            "password": PASSWORD,
            "next": fields.get("next", next_url),
        },
    )
