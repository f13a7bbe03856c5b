"""Live servers of /mcp (config.wsgi and config.asgi, in threads) and the mcp library's client.

The server's threads reach the test database through their own connections, so the
tests use transactional_db: what a test writes is committed and visible to the server.
"""

import asyncio
import socket
import threading
import time

import httpx2
import pytest
import uvicorn
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.db import connection
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def _served_wsgi(application):
    """config.wsgi's application on Django's threaded WSGI server (as the live server of
    Django's own tests), which runs each request in a thread of its own."""
    server = ThreadedWSGIServer(("127.0.0.1", 0), WSGIRequestHandler, allow_reuse_address=True)
    server.set_app(application)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _served_asgi(application):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(application, lifespan="on", log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session", params=["wsgi", "asgi"])
def mcp_base_url(request, django_db_setup, django_db_blocker):
    """The base URL of a live server of /mcp: config.wsgi (what `make serve` runs) and
    config.asgi (what `make run` runs), each test running against both."""
    # Imports have effects (log filters, gc.freeze): made here, not at collection.
    if request.param == "wsgi":
        from config.wsgi import application  # noqa: PLC0415

        served = _served_wsgi(application)
    else:
        from config.asgi import application  # noqa: PLC0415

        served = _served_asgi(application)
    with django_db_blocker.unblock():
        try:
            yield next(served)
        finally:
            served.close()
            _close_server_connections()


def _close_server_connections() -> None:
    """The server's worker threads keep their connections open (CONN_MAX_AGE): end them,
    so that the test database can be dropped."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def mcp(mcp_base_url, transactional_db):
    """mcp(token, work, **headers): runs `await work(client)` with a connected client."""

    def run(token, work, **headers):
        async def session():
            if token:
                headers["Authorization"] = f"Bearer {token}"
            async with (
                httpx2.AsyncClient(headers=headers, timeout=30) as http,
                Client(streamable_http_client(f"{mcp_base_url}/mcp", http_client=http)) as client,
            ):
                return await work(client)

        return asyncio.run(session())

    return run


@pytest.fixture
def call_tool(mcp):
    """call_tool(token, name, **arguments) -> the CallToolResult."""

    def call(token, name, **arguments):
        return mcp(token, lambda client: client.call_tool(name, arguments))

    return call


@pytest.fixture
def mcp_post(mcp_base_url, transactional_db):
    """A raw POST to /mcp (tools/list), for the answers refused before any MCP message."""

    def post(token=None, **headers):
        if token:
            headers["Authorization"] = f"Bearer {token}"
        headers.setdefault("Accept", "application/json, text/event-stream")
        return httpx2.post(
            f"{mcp_base_url}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers=headers,
            timeout=30,
        )

    return post
