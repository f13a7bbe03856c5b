"""Fixtures shared by every test module: tenants, members, tokens and an API client."""

import itertools
import random
import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from oauth2_provider.models import get_application_model
from rest_framework.test import APIClient

from audit.services import SYSTEM
from config.celery import app as celery_app
from integrations import connections as integration_connections
from tokens.models import EmbeddedApp
from tokens.services import session_token_mint, token_mint
from workspaces.models import Agency, Member, Workspace

from . import contract, writers

writers.install()

_counter = itertools.count(1)


def at_once(count: int, work) -> list:
    """Run work(n) for n in 0..count-1 in threads released together, each on its own
    database connection (PostgreSQL tests of concurrency). Returns the results in the
    order the threads finished; an error met in a thread is raised here.
    """
    barrier = threading.Barrier(count)
    results, errors = [], []
    lock = threading.Lock()

    def run(n):
        try:
            barrier.wait()
            result = work(n)
            with lock:
                results.append(result)
        except Exception as error:  # raised below, in the test's thread
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


@pytest.fixture
def own_minute() -> float:
    """A time 15 seconds into a minute of the test's own, for the fixed-window rate counters:
    they may live in a shared Redis, and requests on both sides of a minute's end would be
    counted in two windows. A one-minute counter resets 45 seconds after it."""
    return float(1_800_000_000 + 60 * random.randrange(10**9) + 15)


@pytest.fixture(autouse=True)
def backfills(monkeypatch):
    """The backfill a new connection starts is recorded, not run: it calls the provider,
    which no test reaches (the backfill tests replay its answers and call it themselves)."""
    sent = []
    monkeypatch.setattr(integration_connections, "backfill_enqueue", sent.append)
    return sent


@pytest.fixture(autouse=True)
def _rate_limits_off(settings):
    """No request rates, except where a test sets its own (tests/tokens/test_rate_limits.py)."""
    settings.RATE_LIMIT_READ = settings.RATE_LIMIT_WRITE = settings.RATE_LIMIT_ANON = "off"
    settings.RATE_LIMIT_PLAN_APPLIES = "off"


@pytest.fixture(autouse=True)
def _answers_match_the_served_descriptions(request, monkeypatch):
    """Every answer of an API route that a test receives through Django's test client (the
    APIClient included) is checked against the served description: the test that got an
    answer outside it fails there (see tests/contract.py). A test marked server_fault makes
    the server fail on purpose: its 5xx answers need only the error shape."""
    send = Client.request
    server_fault = request.node.get_closest_marker("server_fault") is not None

    def checked(self, **environ):
        response = send(self, **environ)
        path = environ.get("PATH_INFO", "")
        if contract.is_checked(path):
            contract.check(
                environ.get("REQUEST_METHOD", "GET"),
                path,
                environ.get("QUERY_STRING", ""),
                response,
                server_fault=server_fault,
            )
        return response

    monkeypatch.setattr(Client, "request", checked)


@pytest.fixture(autouse=True)
def _eager_celery():
    """Tasks run in-process unless a test starts a real worker itself."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = previous


def aware(text: str, tz: str = "UTC") -> datetime:
    """'2026-03-01 09:30' in the given timezone."""
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz))


@pytest.fixture
def make_agency(db):
    def make(tier="agency", name=None):
        return Agency.objects.create(name=name or f"Agency {next(_counter)}", tier=tier)

    return make


@pytest.fixture
def make_workspace(db):
    def make(*, agency=None, currency="USD", timezone="UTC", origins=(), **extra):
        n = next(_counter)
        return Workspace.objects.create(
            agency=agency,
            name=extra.pop("name", f"Workspace {n}"),
            slug=extra.pop("slug", f"workspace-{n}"),
            currency=currency,
            timezone=timezone,
            embedded_origins=list(origins),
            **extra,
        )

    return make


@pytest.fixture
def make_member(db):
    def make(workspace, role="closer", *, name=None, email=None, joined_at=None, user=True):
        n = next(_counter)
        email = email or f"{role}{n}@example.test"
        django_user = None
        if user:
            django_user = get_user_model().objects.create_user(
                username=f"user{n}", email=email, password="correct-horse-battery"
            )
        return Member.objects.create(
            workspace=workspace,
            user=django_user,
            name=name or f"{role.title()} {n}",
            email=email,
            role=role,
            joined_at=joined_at,
        )

    return make


@pytest.fixture
def workspace_token(db):
    """Mint a workspace API token; returns its plaintext."""

    def mint(workspace, scopes=("read",), name="test token"):
        return token_mint(actor=SYSTEM, name=name, scopes=scopes, workspace=workspace).plaintext

    return mint


@pytest.fixture
def agency_token(db):
    def mint(
        agency, scopes=("read", "config:plan", "config:apply", "connect:links"), name="agency"
    ):
        return token_mint(actor=SYSTEM, name=name, scopes=scopes, agency=agency).plaintext

    return mint


@pytest.fixture
def embedded_app(db):
    def make(workspace, redirect_uri="https://app.example.test/callback"):
        application = get_application_model().objects.create(
            name=f"Embedded app of {workspace.slug}",
            client_type="public",
            authorization_grant_type="authorization-code",
            redirect_uris=redirect_uri,
            skip_authorization=False,
        )
        return EmbeddedApp.objects.create(workspace=workspace, application=application)

    return make


@pytest.fixture
def session_token(db, embedded_app):
    """A member's OAuth session token for their workspace's embedded app."""

    def mint(member):
        app = EmbeddedApp.objects.filter(workspace=member.workspace).first() or embedded_app(
            member.workspace
        )
        return session_token_mint(actor=SYSTEM, member=member, embedded_app=app)

    return mint


@pytest.fixture
def api():
    """An API client; api(token) returns one that sends that bearer token."""

    def client(token=None, **headers):
        c = APIClient()
        if token:
            c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}", **headers)
        elif headers:
            c.credentials(**headers)
        return c

    return client


def pytest_collection_modifyitems(config, items):
    """Tests marked postgres need PostgreSQL's locks; on SQLite they are skipped."""
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL=postgres://...)")
    for item in items:
        if "postgres" in item.keywords or "redis" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def receiver(settings):
    """A real HTTP receiver on 127.0.0.1 for outbound webhooks (tests/webhooks/receiver.py);
    loopback endpoints are allowed, as with DEBUG on."""
    from .webhooks.receiver import Receiver  # noqa: PLC0415

    settings.WEBHOOK_ALLOW_LOOPBACK = True
    server = Receiver()
    yield server
    server.close()
