"""The production web process as `make serve` starts it (gunicorn, the service's uvicorn
workers, config.asgi): it names no server software, and a forwarded address is trusted
only as NUM_PROXIES says, not because the peer is on loopback."""

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


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    port = _free_port()
    env = production_environment(database_url=f"sqlite:///{folder / 'db.sqlite3'}", port=port)
    env.update(RATE_LIMIT_ANON="3/min", CACHE_URL="", CELERY_BROKER_URL="")
    server = Server(env, port=port, workers=1, log_path=folder / "gunicorn.log")
    try:
        server.wait_ready(lambda: _get(port, "/accounts/login/")[0] in {200, 429})
        yield port
    finally:
        server.stop()


def test_no_server_header_and_forwarded_addresses_from_loopback_are_not_trusted(served):
    # The first answer (the readiness probe's) already counted one request of 127.0.0.1.
    answers = [
        _get(served, "/accounts/login/", **{"X-Forwarded-For": f"203.0.113.{n}"})
        for n in range(1, 4)
    ]
    assert all("Server" not in headers and "server" not in headers for _, headers in answers)
    # Every request counted against the peer, 127.0.0.1, whatever it forwarded.
    assert [status for status, _ in answers] == [200, 200, 429]
