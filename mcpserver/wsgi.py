"""The /mcp endpoint inside a WSGI process (config.wsgi, which `make serve` runs).

The endpoint (mcpserver.asgi.McpEndpoint) is an ASGI app whose MCP transport runs in a
task group that lives as long as the process: under an ASGI server that is the lifespan.
Here the process gets one event loop of its own, on a daemon thread, started with the
first request to /mcp (never in gunicorn's master before it forks its workers): a task
on that loop starts the endpoint and then waits, keeping the transport's task group open,
and a2wsgi's `ASGIMiddleware` hands each request from the WSGI thread to that loop and the
answer back. Each POST to /mcp is a whole exchange answered with JSON (the transport is
stateless), so the WSGI thread waits for one answer, as it waits for a Django view.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future

from a2wsgi import ASGIMiddleware

from .asgi import McpEndpoint


class McpWsgi:
    """A WSGI app serving /mcp from the process's own event loop."""

    def __init__(self):
        self._lock = threading.Lock()
        self._middleware: ASGIMiddleware | None = None
        self._serving: Future | None = None

    def _start(self) -> ASGIMiddleware:
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="mcp", daemon=True).start()
        endpoint = McpEndpoint()
        started: Future = Future()
        # Kept: the task that holds the transport open lives as long as this object.
        self._serving = asyncio.run_coroutine_threadsafe(_serve(endpoint, started), loop)
        started.result()  # the startup's own error, if it failed
        return ASGIMiddleware(endpoint, loop=loop)

    def __call__(self, environ, start_response):
        middleware = self._middleware
        if middleware is None:
            with self._lock:
                if self._middleware is None:
                    self._middleware = self._start()
                middleware = self._middleware
        if environ.get("REMOTE_ADDR") and not environ.get("REMOTE_PORT"):
            # a2wsgi names the client only with both (gunicorn sets both; wsgiref only the
            # address), and the endpoint counts refused tokens per client address.
            environ = {**environ, "REMOTE_PORT": "0"}
        return middleware(environ, start_response)


async def _serve(endpoint: McpEndpoint, started: Future) -> None:
    """Start the endpoint, then wait for ever: the transport's task group, opened by the
    startup, belongs to this task and stays open while it waits."""
    try:
        await endpoint.startup()
    except BaseException as error:
        started.set_exception(error)
        raise
    started.set_result(None)
    await asyncio.Event().wait()
