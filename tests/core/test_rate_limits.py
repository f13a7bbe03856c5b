"""Request rates: per token (reads and writes apart) and per client address without one."""

import itertools
import os
import random
import uuid

import pytest
import redis
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from config.settings import env_rate
from core.throttling import ServiceRateThrottle, rate_count

pytestmark = pytest.mark.django_db

_addresses = itertools.count(1)


@pytest.fixture
def clock(monkeypatch, own_minute):
    """The test's own minute (a session token's id may come again in another test), which
    a test moves on."""
    now = [own_minute]
    monkeypatch.setattr(ServiceRateThrottle, "timer", staticmethod(lambda: now[0]))
    return now


@pytest.fixture
def limits(settings, clock):
    settings.RATE_LIMIT_READ = "3/min"
    settings.RATE_LIMIT_WRITE = "2/min"
    settings.RATE_LIMIT_ANON = "2/min"


def new_address() -> str:
    """A client address of the test's own (the counters may live in a shared Redis)."""
    return f"10.{random.randint(0, 255)}.{random.randint(0, 255)}.{next(_addresses) % 250 + 1}"


@pytest.fixture
def address():
    return new_address()


@pytest.fixture
def ws(make_workspace, workspace_token):
    workspace = make_workspace()
    return {
        "workspace": workspace,
        "read": workspace_token(workspace, scopes=("read",)),
        "write": workspace_token(workspace, scopes=("read", "data:write")),
    }


def client(token=None, address="127.0.0.1"):
    c = APIClient(REMOTE_ADDR=address)
    if token:
        c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return c


def rate_headers(response):
    return response.get("RateLimit-Policy"), response.get("RateLimit")


def write_change(c):
    return c.post(
        "/api/v1/change-log",
        {
            "effective_at": "2026-03-01T09:00:00-05:00",
            "kind": "price",
            "title": "Mastermind price up",
            "what": "From 5000 to 6000.",
            "why": "Waitlist.",
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY=f"rate-limit-{random.getrandbits(64):x}",
    )


def test_reads_of_a_token_over_the_rate_answer_429_with_the_fields(limits, ws, clock):
    c = client(ws["read"])
    for remaining in (2, 1, 0):
        response = c.get("/api/v1/whoami")
        assert response.status_code == 200
        assert rate_headers(response) == ('"read";q=3;w=60', f'"read";r={remaining};t=45')
        assert "Retry-After" not in response

    refused = c.get("/api/v1/whoami")
    assert refused.status_code == 429
    assert refused.json() == {
        "error": {
            "reason": "rate_limited",
            "message": "This token may make 3 reads a minute. Retry in 45 seconds.",
        }
    }
    assert refused["Retry-After"] == "45"
    assert rate_headers(refused) == ('"read";q=3;w=60', '"read";r=0;t=45')

    clock[0] += 30
    assert c.get("/api/v1/whoami")["Retry-After"] == "15"
    clock[0] += 15  # the next window
    response = c.get("/api/v1/whoami")
    assert response.status_code == 200
    assert rate_headers(response) == ('"read";q=3;w=60', '"read";r=2;t=60')


def test_reads_and_writes_have_separate_counters(limits, ws):
    c = client(ws["write"])
    for _ in range(3):
        assert c.get("/api/v1/whoami").status_code == 200
    assert c.get("/api/v1/whoami").status_code == 429

    first = write_change(c)
    assert first.status_code == 201, first.content
    assert rate_headers(first) == ('"write";q=2;w=60', '"write";r=1;t=45')
    assert write_change(c).status_code == 201
    refused = write_change(c)
    assert refused.status_code == 429
    assert refused.json()["error"] == {
        "reason": "rate_limited",
        "message": "This token may make 2 writes a minute. Retry in 45 seconds.",
    }
    assert refused["Retry-After"] == "45"
    assert rate_headers(refused) == ('"write";q=2;w=60', '"write";r=0;t=45')


def test_each_token_has_its_own_counter_and_a_refusal_is_counted_too(
    limits, ws, make_member, session_token
):
    tired, fresh = client(ws["read"]), client(ws["write"])
    for _ in range(4):
        tired.get("/api/v1/whoami")
    assert tired.get("/api/v1/whoami").status_code == 429
    response = fresh.get("/api/v1/whoami")
    assert response.status_code == 200
    assert rate_headers(response) == ('"read";q=3;w=60', '"read";r=2;t=45')

    # A member's session token counts by itself, as well; a refused request counts.
    owner = make_member(ws["workspace"], "owner")
    member = client(session_token(owner))
    closer = make_member(ws["workspace"], "closer")
    refused = client(session_token(closer)).get("/api/v1/calls")
    assert refused.status_code == 403
    assert rate_headers(refused) == ('"read";q=3;w=60', '"read";r=2;t=45')
    response = member.get("/api/v1/whoami")
    assert response.status_code == 200
    assert rate_headers(response) == ('"read";q=3;w=60', '"read";r=2;t=45')


def test_requests_without_an_accepted_token_count_per_address(limits, ws, address):
    none = client(address=address).get("/api/v1/whoami")
    assert none.status_code == 401
    assert rate_headers(none) == ('"anonymous";q=2;w=60', '"anonymous";r=1;t=45')
    refused_token = client("svc_" + "0" * 64, address=address).post("/api/v1/change-log", {})
    assert refused_token.status_code == 401
    assert rate_headers(refused_token) == ('"anonymous";q=2;w=60', '"anonymous";r=0;t=45')

    over = client("svc_" + "1" * 64, address=address).get("/api/v1/calls")
    assert over.status_code == 429
    assert over.json() == {
        "error": {
            "reason": "rate_limited",
            "message": "Requests without an accepted token may make 2 requests a minute per "
            "client address. Retry in 45 seconds.",
        }
    }
    assert over["Retry-After"] == "45"
    assert rate_headers(over) == ('"anonymous";q=2;w=60', '"anonymous";r=0;t=45')

    # Another address has its own counter; an accepted token from this one has the token's.
    other = client(address=new_address()).get("/api/v1/whoami")
    assert other.status_code == 401
    assert rate_headers(other)[1] == '"anonymous";r=1;t=45'
    accepted = client(ws["read"], address=address).get("/api/v1/whoami")
    assert accepted.status_code == 200
    assert rate_headers(accepted) == ('"read";q=3;w=60', '"read";r=2;t=45')


def test_off_counts_nothing_and_sends_no_fields(settings, clock, ws, address):
    settings.RATE_LIMIT_READ = "off"
    settings.RATE_LIMIT_WRITE = "1/min"
    settings.RATE_LIMIT_ANON = "off"
    c = client(ws["write"], address=address)
    for _ in range(5):
        response = c.get("/api/v1/whoami")
        assert response.status_code == 200
        assert rate_headers(response) == (None, None)
    for _ in range(3):
        assert client(address=address).get("/api/v1/whoami").status_code == 401
    assert write_change(c).status_code == 201
    assert write_change(c).status_code == 429


def test_the_rate_settings_accept_a_rate_or_off(monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_READ", "600/min")
    assert env_rate("RATE_LIMIT_READ", "1200/min") == "600/min"
    monkeypatch.setenv("RATE_LIMIT_READ", "OFF")
    assert env_rate("RATE_LIMIT_READ", "1200/min") == "off"
    monkeypatch.delenv("RATE_LIMIT_READ")
    assert env_rate("RATE_LIMIT_READ", "1200/min") == "1200/min"
    monkeypatch.setenv("RATE_LIMIT_READ", "lots")
    with pytest.raises(ImproperlyConfigured):
        env_rate("RATE_LIMIT_READ", "1200/min")


@pytest.mark.parametrize("path", ["/api/v1/openapi.json", "/openapi/agent.json"])
def test_both_descriptions_document_429_and_the_fields_on_every_operation(path):
    description = APIClient().get(path).json()
    operations = [
        (route, method, operation)
        for route, methods in description["paths"].items()
        for method, operation in methods.items()
    ]
    assert operations
    for route, method, operation in operations:
        responses = operation["responses"]
        assert "429" in responses, (method, route)
        assert set(responses["429"]["headers"]) == {"RateLimit-Policy", "RateLimit", "Retry-After"}
        for status, response in responses.items():
            assert {"RateLimit-Policy", "RateLimit"} <= set(response.get("headers", {})), (
                method,
                route,
                status,
            )


def test_a_counter_in_redis_takes_one_round_trip_and_expires_with_its_window(settings, monkeypatch):
    url = os.environ.get("CACHE_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.skip("needs Redis (set CELERY_BROKER_URL=redis://...)")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"test-counter-{uuid.uuid4().hex}",
        }
    }
    settings.RATE_LIMIT_READ = "2/min"
    sent = []
    original = redis.Redis.execute_command

    def execute_command(self, *args, **kwargs):
        sent.append(args[0])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "execute_command", execute_command)
    now = 1_000_000_015.0
    states = [rate_count("read", "token:one", now=now) for _ in range(3)]
    assert [state.remaining for state in states] == [1, 0, 0]
    assert [state.allowed for state in states] == [True, True, False]
    assert sent == ["EVAL", "EVAL", "EVAL"]
    store = caches["default"]
    key = f"ratelimit:read:token:one:{int(now // 60) * 60}"
    client = store._cache.get_client(None, write=True)
    assert 0 < client.ttl(store.make_and_validate_key(key)) <= 60
    assert store.get(key) == 3
