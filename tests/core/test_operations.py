"""What an operator watches, in one process: /healthz and /readyz, the request id, the JSON
log line of a request, /metrics after known traffic, and Sentry's redaction. (The same
under gunicorn with several workers: tests/test_serving_operations.py.)"""

import io
import json
import logging
import random
import re
import threading
import uuid

import pytest
import redis
from celery import current_app
from django.db import connection
from django.test import Client
from prometheus_client import REGISTRY

from config.sentry import _redacted
from core import health, logs
from tests.accounts.test_signin import attempt, browser_client

pytestmark = pytest.mark.django_db

ALL_OK = {"database": "ok", "migrations": "ok", "broker": "ok", "cache": "ok"}


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_healthz_answers_whatever_host_the_probe_names():
    for host in ("testserver", "10.0.3.7:8000"):
        response = Client().get("/healthz", HTTP_HOST=host)
        assert (response.status_code, response.json()) == (200, {"status": "ok"})
        assert response["Cache-Control"] == "no-store"
    assert Client().post("/healthz").status_code == 405


def test_readyz_is_ready_when_every_check_passes(monkeypatch):
    monkeypatch.setattr(health, "_migrated", False)
    response = Client().get("/readyz", HTTP_HOST="10.0.3.7")
    assert (response.status_code, response.json()) == (200, {"status": "ready", "checks": ALL_OK})


def test_readyz_names_unapplied_migrations(monkeypatch):
    monkeypatch.setattr(health, "_migrated", False)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_migrations WHERE app = 'audit'")
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "failed": ["migrations"],
        "checks": {**ALL_OK, "migrations": "failed"},
    }


def test_readyz_names_an_unreachable_broker_and_cache_and_reveals_no_host(settings, monkeypatch):
    monkeypatch.setattr(health, "_migrated", True)
    # Nothing listens on port 1.
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    # Celery reads CELERY_BROKER_URL from the environment before its settings.
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    response = Client().get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body == {
        "status": "unavailable",
        "failed": ["broker", "cache"],
        "checks": {**ALL_OK, "broker": "failed", "cache": "failed"},
    }
    assert "127.0.0.1" not in response.content.decode()


def test_a_request_id_is_kept_when_it_is_a_uuid_and_made_otherwise(api):
    given = str(uuid.uuid4())
    kept = api().get("/api/v1/whoami", HTTP_X_REQUEST_ID=given)
    assert kept["X-Request-ID"] == given
    made = api().get("/api/v1/whoami")
    assert re.fullmatch(r"[0-9a-f]{32}", made["X-Request-ID"])
    # A value that is not an id (here a forged log line) is replaced, never echoed.
    forged = api().get("/api/v1/whoami", HTTP_X_REQUEST_ID="x\n{json}")
    assert re.fullmatch(r"[0-9a-f]{32}", forged["X-Request-ID"])


@pytest.mark.parametrize(
    "made_up",
    [
        "x" * 3000,
        # What django-guid alone takes for a UUID: braces, dashes and prefixes are ignored.
        "urn:uuid:{" + "-" * 3000 + uuid.uuid4().hex + "}",
        "x\n{json}",
    ],
)
def test_a_made_up_request_id_is_logged_as_one_fixed_sentence(made_up, caplog):
    with caplog.at_level(logging.DEBUG):
        response = Client().get("/accounts/login/", HTTP_X_REQUEST_ID=made_up)
    assert response.status_code == 200
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])
    warnings = [(r.name, r.getMessage()) for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        ("core.logs", "X-Request-ID is not a UUID: the request was given a new id.")
    ]
    assert not [r for r in caplog.records if made_up[:40] in r.getMessage()]
    # (The warning is written before the new id is made.)
    assert {r.request_id for r in caplog.records if hasattr(r, "request_id")} <= {
        "",
        response["X-Request-ID"],
    }


def test_a_request_writes_one_json_line_with_its_route_workspace_and_request_id(
    make_workspace, workspace_token, api
):
    workspace = make_workspace()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.json_formatter())
    handler.addFilter(logs.RequestId())
    # Only this thread's lines: a live server left by an earlier test may still be answering.
    handler.addFilter(lambda record: record.thread == threading.get_ident())
    logger = logging.getLogger("service.request")
    logger.addHandler(handler)
    try:
        given = str(uuid.uuid4())
        response = api(workspace_token(workspace)).get(
            "/api/v1/calls?period=2026-03-01..2026-03-31", HTTP_X_REQUEST_ID=given
        )
    finally:
        logger.removeHandler(handler)
    assert response.status_code == 200
    [line] = stream.getvalue().splitlines()
    record = json.loads(line)
    assert set(record) >= {
        "time",
        "level",
        "logger",
        "message",
        "request_id",
        "route",
        "method",
        "status",
        "duration_ms",
        "workspace_id",
    }
    assert (record["level"], record["logger"], record["request_id"]) == (
        "INFO",
        "service.request",
        given,
    )
    assert (record["route"], record["method"], record["status"]) == ("/api/v1/calls", "GET", 200)
    assert record["workspace_id"] == str(workspace.pk)
    assert record["duration_ms"] > 0
    assert "period=" not in line  # the route's template, never the address


def test_metrics_answers_only_its_token(settings):
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    settings.METRICS_TOKEN = "m-" + "7" * 30
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    answer = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {settings.METRICS_TOKEN}")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    assert "http_requests_total" in answer.content.decode()


def test_the_scrape_with_its_token_is_not_counted_against_the_anonymous_rate(settings):
    settings.RATE_LIMIT_ANON = "2/min"
    settings.METRICS_TOKEN = "m-" + "8" * 30
    address = f"10.78.{random.randint(0, 255)}.{random.randint(1, 254)}"
    scrapes = [
        Client().get(
            "/metrics",
            HTTP_AUTHORIZATION=f"Bearer {settings.METRICS_TOKEN}",
            REMOTE_ADDR=address,
        )
        for _ in range(4)
    ]
    assert [answer.status_code for answer in scrapes] == [200, 200, 200, 200]
    assert "RateLimit" not in scrapes[-1]
    # A guess at the token is a page like any other: counted, and refused over the rate.
    guesses = [
        Client().get("/metrics", HTTP_AUTHORIZATION="Bearer guess", REMOTE_ADDR=address)
        for _ in range(3)
    ]
    assert [answer.status_code for answer in guesses] == [404, 404, 429]


def test_metrics_count_known_traffic(settings, api, make_workspace, workspace_token, db):
    workspace = make_workspace()
    token = workspace_token(workspace)
    route = {"route": "/api/v1/whoami", "method": "GET"}

    def counts():
        return (
            sample("http_requests_total", **route, status="200"),
            sample("http_requests_total", **route, status="401"),
            sample("http_request_duration_seconds_count", **route),
            sample("http_request_db_queries_count", route="/api/v1/whoami"),
            sample("sign_in_failures_total"),
            sample("rate_limit_refusals_total", policy="read"),
        )

    before = counts()
    for _ in range(3):
        assert api(token).get("/api/v1/whoami").status_code == 200
    assert api().get("/api/v1/whoami").status_code == 401
    attempt(browser_client(), "nobody@example.test", "wrong-password")
    settings.RATE_LIMIT_READ = "1/min"
    assert api(token).get("/api/v1/whoami").status_code == 200
    assert api(token).get("/api/v1/whoami").status_code == 429
    after = counts()
    assert [a - b for a, b in zip(after, before, strict=True)] == [4, 1, 6, 6, 1, 1]


def request_series() -> set[tuple]:
    """The label sets of the request metrics' series this process has."""
    return {
        (sample.name, tuple(sorted(sample.labels.items())))
        for family in REGISTRY.collect()
        if family.name in {"http_requests", "http_request_duration_seconds"}
        for sample in family.samples
        if sample.name in {"http_requests_total", "http_request_duration_seconds_count"}
    }


def test_made_up_methods_and_paths_add_a_fixed_number_of_series():
    client = Client()
    odd = [f"M{n}X" for n in range(40)] + ["PROPFIND", "X" * 200, "TRACE"]
    paths = [f"/no-such-page-{n}/" for n in range(40)]
    unmatched = {"route": "unmatched", "method": "other", "status": "404"}
    refused = {"route": "/accounts/login/", "method": "other", "status": "405"}
    counted = (sample("http_requests_total", **unmatched), sample("http_requests_total", **refused))
    before = request_series()
    for method in odd:
        assert client.generic(method, "/accounts/login/").status_code == 405
        assert client.generic(method, paths[0]).status_code == 404
    for path in paths:
        assert client.get(path).status_code == 404
        assert client.generic(odd[0], path).status_code == 404
    added = request_series() - before
    assert {dict(labels)["method"] for _, labels in added} <= {"GET", "other"}
    assert {dict(labels)["route"] for _, labels in added} <= {"/accounts/login/", "unmatched"}
    # Twice as many again: not one series more.
    for method in [f"N{n}Y" for n in range(80)]:
        client.generic(method, f"/elsewhere-{method}/")
        client.generic(method, "/accounts/login/")
    assert request_series() - before == added
    assert (
        sample("http_requests_total", **unmatched) - counted[0],
        sample("http_requests_total", **refused) - counted[1],
    ) == (43 + 40 + 80, 43 + 80)


def test_sentry_events_carry_no_secret_of_a_path():
    event = {
        "request": {
            "url": "https://sales.example/connect/AbC123secret",
            "query_string": "next=/invite/tok3n",
            "cookies": {"sessionid": "s"},
            "data": {"password": "p"},
        },
        "transaction": "/accounts/reset/MQ/abc-123/",
        "breadcrumbs": {"values": [{"message": "GET /connect/AbC123secret"}]},
    }
    redacted = _redacted(event, None)
    text = json.dumps(redacted)
    assert "AbC123secret" not in text and "tok3n" not in text and "abc-123" not in text
    assert "cookies" not in redacted["request"] and "data" not in redacted["request"]
    assert redacted["request"]["url"] == "https://sales.example/connect/[redacted]"


def test_sentry_events_carry_no_credential_a_library_wrote():
    event = {
        "exception": {
            "values": [
                {
                    "type": "ConnectionError",
                    "value": "Max retries exceeded with url: /v26.0/act_1?access_token=EAAsecret1",
                }
            ]
        },
        "logentry": {"message": "token answer {'refresh_token': '1//secret2'}"},
    }
    redacted = _redacted(event, None)
    assert redacted["exception"]["values"][0]["value"] == (
        "Max retries exceeded with url: /v26.0/act_1?access_token=[redacted]"
    )
    assert redacted["logentry"]["message"] == "token answer {'refresh_token': '[redacted]'}"


def test_every_log_line_is_redacted_of_named_credentials():
    assert logs.redact(
        "GET /v26.0/me?fields=id&access_token=EAAx1 "
        'form client_secret=GOCSPX-y2&refresh_token=1//z3 {"Authorization": "Bearer ya29.w4"}'
    ) == (
        "GET /v26.0/me?fields=id&access_token=[redacted] "
        'form client_secret=[redacted]&refresh_token=[redacted] {"Authorization": "Bearer [redacted]"}'
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.server_fault
@pytest.mark.postgres
def test_a_database_that_cannot_be_reached_answers_503_in_the_error_shape(api, django_user_model):
    """The connection is pointed where no server answers (a restart, as the driver sees
    it): the API answers 503 `unavailable` with Retry-After, a page the plain 503 page."""
    browser = Client(raise_request_exception=False)
    browser.force_login(django_user_model.objects.create_user("ann", "ann@example.test", "pw"))
    connection.close()
    saved = dict(connection.settings_dict)
    connection.settings_dict["PORT"] = "1"
    try:
        client = api()
        client.raise_request_exception = False
        answer = client.get("/api/v1/whoami", HTTP_AUTHORIZATION="Bearer svc_" + "0" * 64)
        page = browser.get("/")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    assert answer.json() == {
        "error": {
            "reason": "unavailable",
            "message": "The service cannot reach its database right now; retry after 5 seconds.",
        }
    }
    assert (page.status_code, page["Retry-After"]) == (503, "5")
    assert "Unavailable for a moment" in page.content.decode()


@pytest.mark.redis
def test_metrics_report_the_broker_queue_length(settings):
    """Read from Redis at scrape time: the tasks waiting in each listed queue."""
    queue = f"metrics-test-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    settings.METRICS_QUEUES = [queue]
    settings.METRICS_TOKEN = "m-" + "8" * 30
    try:
        client.rpush(queue, "one", "two", "three")
        answer = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {settings.METRICS_TOKEN}")
    finally:
        client.delete(queue)
    assert f'celery_queue_length{{queue="{queue}"}} 3.0' in answer.content.decode()
