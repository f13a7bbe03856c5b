"""The production web process as `make serve` starts it, with 3 workers: /healthz and
/readyz, static files served compressed under hashed names, and /metrics adding up every
worker's counts (prometheus_client's multiprocess mode)."""

import json
import re
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scripts.served import BIN, HOST, ROOT, Server, production_environment
from tests.test_serving import _free_port

TOKEN = "metrics-" + "k" * 32


def _get(port: int, path: str, **headers):
    """(status, headers (read in any case), body)."""
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served-ops")
    port = _free_port()
    env = production_environment(database_url=f"sqlite:///{folder / 'db.sqlite3'}", port=port)
    env.update(
        CACHE_URL="",
        CELERY_BROKER_URL="",
        STATIC_ROOT=str(folder / "static"),
        STATIC_HASHED="true",
        PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
        METRICS_TOKEN=TOKEN,
        LOG_FORMAT="json",
        LOG_LEVEL="INFO",
    )
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [str(BIN / "python"), "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
    server = Server(
        env,
        port=port,
        workers=3,
        log_path=folder / "gunicorn.log",
        extra_args=("--config", "python:config.gunicorn"),
    )
    try:
        server.wait_ready(lambda: _get(port, "/healthz")[0] == 200)
        yield port, folder / "gunicorn.log"
    finally:
        server.stop()


def test_health_and_readiness(served):
    served, _log = served
    status, _headers, body = _get(served, "/healthz", Host="10.0.0.9")
    assert (status, body) == (200, b'{"status": "ok"}')
    status, _headers, body = _get(served, "/readyz")
    assert status == 200
    assert body == (
        b'{"status": "ready", "checks": {"database": "ok", "migrations": "ok", '
        b'"broker": "ok", "cache": "ok"}}'
    )


def test_static_files_are_served_compressed_under_hashed_names(served):
    served, _log = served
    _status, _headers, page = _get(served, "/accounts/login/")
    [stylesheet] = re.findall(rb'href="(/static/[^"]+\.css)"', page)[:1]
    assert re.search(rb"\.[0-9a-f]{12}\.css$", stylesheet), stylesheet
    status, headers, _body = _get(served, stylesheet.decode(), **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers.get("Content-Encoding") == "gzip"
    assert headers.get("Cache-Control") == "max-age=315360000, public, immutable"


def _count(text: str, name: str, **labels) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


def test_metrics_add_up_every_worker(served):
    served, _log = served
    assert _get(served, "/metrics")[0] == 404
    assert _get(served, "/metrics", Authorization="Bearer wrong")[0] == 404
    # 30 requests spread over the 3 workers by the kernel, each answered 401.
    for _ in range(30):
        assert _get(served, "/api/v1/whoami", Connection="close")[0] == 401
    status, _headers, body = _get(served, "/metrics", Authorization=f"Bearer {TOKEN}")
    assert status == 200
    text = body.decode()
    route = {"route": "/api/v1/whoami", "method": "GET"}
    assert _count(text, "http_requests_total", **route, status="401") == 30
    assert _count(text, "http_request_duration_seconds_count", **route) == 30


def test_every_log_line_is_one_json_object(served):
    """LOG_FORMAT=json: Django's and gunicorn's lines alike."""
    port, log = served
    assert (
        _get(port, "/api/v1/whoami", **{"X-Request-ID": "0f1e2d3c-4b5a-4697-8877-665544332211"})[0]
        == 401
    )
    time.sleep(0.5)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    loggers = {line["logger"] for line in lines}
    assert {"gunicorn.error", "service.request"} <= loggers
    [mine] = [
        line
        for line in lines
        if line.get("request_id") == "0f1e2d3c-4b5a-4697-8877-665544332211"
        and line["logger"] == "service.request"
    ]
    assert (mine["route"], mine["status"], mine["level"]) == ("/api/v1/whoami", 401, "INFO")


def test_the_favicon_is_linked_and_served(served):
    port, _log = served
    _status, _headers, page = _get(port, "/accounts/login/")
    [icon] = re.findall(rb'<link rel="icon" href="(/static/favicon\.[0-9a-f]{12}\.svg)"', page)
    status, headers, body = _get(port, icon.decode())
    assert (status, headers.get("Content-Type")) == (200, "image/svg+xml")
    assert body.startswith(b"<svg")
    request = urllib.request.Request(f"http://{HOST}:{port}/favicon.ico")
    opener = urllib.request.build_opener(urllib.request.HTTPRedirectHandler())
    with opener.open(request, timeout=15) as answer:
        assert answer.status == 200
        assert answer.url.endswith(icon.decode())
