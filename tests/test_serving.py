"""The production web process as `make serve` starts it (gunicorn, the service's sync
workers, config.wsgi): it names no server software, a forwarded address is trusted only
as NUM_PROXIES says, not because the peer is on loopback, and /mcp is served beside
Django's routes."""

import json
import socket
import urllib.error
import urllib.request

import pytest

from scripts.served import HOST, Server, production_environment


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _get(port: int, path: str, **headers) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def _serve(folder, **settings):
    port = _free_port()
    env = production_environment(database_url=f"sqlite:///{folder / 'db.sqlite3'}", port=port)
    env.update(CACHE_URL="", CELERY_BROKER_URL="", **settings)
    server = Server(env, port=port, workers=1, log_path=folder / "gunicorn.log")
    try:
        server.wait_ready(lambda: _get(port, "/accounts/login/")[0] in {200, 429})
        yield port
    finally:
        server.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    yield from _serve(tmp_path_factory.mktemp("served"), RATE_LIMIT_ANON="3/min")


@pytest.fixture(scope="module")
def served_unlimited(tmp_path_factory):
    yield from _serve(tmp_path_factory.mktemp("served-unlimited"))


def test_no_server_header_and_forwarded_addresses_from_loopback_are_not_trusted(served):
    # The first answer (the readiness probe's) already counted one request of 127.0.0.1.
    answers = [
        _get(served, "/accounts/login/", **{"X-Forwarded-For": f"203.0.113.{n}"})
        for n in range(1, 4)
    ]
    assert all("Server" not in headers and "server" not in headers for _, headers in answers)
    # Every request counted against the peer, 127.0.0.1, whatever it forwarded.
    assert [status for status, _ in answers] == [200, 200, 429]


def test_mcp_is_served_by_the_same_process(served_unlimited):
    """/mcp answers from the MCP endpoint (its own refusal, with the challenge naming its
    metadata document), not from Django's URLconf (which has no such route: 404)."""
    request = urllib.request.Request(
        f"http://{HOST}:{served_unlimited}/mcp",
        data=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}',
        headers={"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    try:
        urllib.request.urlopen(request, timeout=15)
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, json.loads(error.read())
    assert status == 401
    assert "Server" not in headers
    assert headers["WWW-Authenticate"] == (
        f'Bearer resource_metadata="http://{HOST}:{served_unlimited}'
        '/.well-known/oauth-protected-resource/mcp"'
    )
    assert body["error"]["reason"] == "unauthenticated"
