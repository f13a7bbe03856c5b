"""Agency fixtures: an agency on the Agency plan with a token per scope set, and write helpers."""

import itertools
from types import SimpleNamespace

import pytest

_keys = itertools.count(1)

ALL_SCOPES = ("read", "config:plan", "config:apply", "connect:links")

STRIPE_KEY = "sk_test_" + "a1B2c3D4e5F6g7H8i9J0k1L2"
CALENDLY_TOKEN = (
    "eyJraWQiOiIxY2UxZTEzNjE3ZGNmNzY2YjNjZWJjY2Y4ZGM1YmFmYThhNjVlNjg0MDIzZjdjMzJiZTgzNDliMjM4MDEz"
    "NWI0IiwidHlwIjoiUEFUIiwiYWxnIjoiRVMyNTYifQ.eyJpc3MiOiJodHRwczovL2F1dGguY2FsZW5kbHkuY29tIn0"
    ".c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu"
)
HUBSPOT_TOKEN = "pat-na1-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
STRIPE_WEBHOOK_SECRET = "whsec_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6"
STRIPE = {"secret_key": STRIPE_KEY, "webhook_secret": STRIPE_WEBHOOK_SECRET}


def new_key() -> str:
    return f"test-key-{next(_keys):06d}"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def write(api):
    """write(token, method, path, body, key=None) -> response, with an Idempotency-Key."""

    def send(token, method, path, body=None, key=None):
        client = api(token)
        return getattr(client, method.lower())(
            path,
            body if body is not None else {},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key or new_key(),
        )

    return send


@pytest.fixture
def agency_world(make_agency, make_workspace, agency_token):
    """An agency on the Agency plan, one workspace of its own, and its tokens."""
    agency = make_agency(tier="agency", name="Northwind Agency")
    workspace = make_workspace(agency=agency, slug="northwind-one", currency="EUR")
    return SimpleNamespace(
        agency=agency,
        workspace=workspace,
        full=agency_token(agency, scopes=ALL_SCOPES, name="full"),
        no_apply=agency_token(
            agency, scopes=("read", "config:plan", "connect:links"), name="no apply"
        ),
        read=agency_token(agency, scopes=("read",), name="read only"),
    )


def new_workspace_plan(slug="acme", **extra) -> dict:
    body = {
        "workspace": {
            "name": "Acme Coaching",
            "slug": slug,
            "currency": "USD",
            "timezone": "America/New_York",
        },
        "team": [
            {"email": "ana@acme.test", "name": "Ana Closer", "role": "closer"},
            {"email": "ben@acme.test", "name": "Ben Owner", "role": "owner"},
        ],
        "programmes": [{"name": "Mastermind", "price": "4997.00"}],
        "integrations": ["stripe"],
    }
    body.update(extra)
    return body
