"""Django's WSGI handler as an ASGI app, on a fixed pool of threads (config.asgi).

Each thread keeps its own database connection (CONN_MAX_AGE), so a REST request takes the
same path as under gunicorn's sync workers. The request is read as a2wsgi reads it (its
`Body` and `build_environ`); the answer is handed back in one piece: a2wsgi hands each
part of an answer (the status and headers, each chunk of the body, the end) from the
thread to the event loop and waits for the loop to take it, three waits for every answer
of Django's, whose body is already whole in memory. Here the thread returns an answer
whose body is in memory (`streaming` false: every HttpResponse) with its status and
headers, and the loop sends it; only a streaming answer is sent part by part, the thread
waiting for the loop to take each part (so a slow client holds back the thread, not the
process's memory).
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import Body, build_environ


def _start_message(status: str, headers) -> dict:
    return {
        "type": "http.response.start",
        "status": int(status.split(" ", 1)[0]),
        "headers": [
            (name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
            for name, value in headers
        ],
    }


class WsgiOnThreads:
    """An ASGI app (HTTP only) serving the WSGI app `app` on `threads` threads."""

    def __init__(self, app, *, threads: int):
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="WSGI")

    async def __call__(self, scope, receive, send) -> None:
        loop = asyncio.get_running_loop()
        environ = build_environ(scope, Body(loop, receive))
        context = contextvars.copy_context()
        answer = await loop.run_in_executor(
            self.executor, context.run, self._respond, environ, loop, send
        )
        if answer is not None:  # streamed by the thread otherwise
            start, body = answer
            await send(start)
            await send({"type": "http.response.body", "body": body})

    def _respond(self, environ, loop, send):
        answer = _Answer(loop, send)
        iterable = self.app(environ, answer.start_response)
        try:
            if getattr(iterable, "streaming", True) is False and not answer.sent:
                return answer.start, b"".join(iterable)
            for chunk in iterable:
                if chunk:
                    answer.write(chunk)
            answer.finish()
            return None
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()


class _Answer:
    """One answer as the thread sees it: the status and headers, then (only when it is
    streamed) each part sent as it comes, the thread waiting for the loop to take it."""

    def __init__(self, loop, send):
        self.loop, self.send = loop, send
        self.start = None
        self.sent = False

    def start_response(self, status, headers, exc_info=None):
        if exc_info is not None and self.sent:
            raise exc_info[1].with_traceback(exc_info[2])
        self.start = _start_message(status, headers)
        return self.write

    def _send_now(self, message) -> None:
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop).result()

    def _start_send(self) -> None:
        if not self.sent:
            self.sent = True
            self._send_now(self.start)

    def write(self, chunk: bytes) -> None:  # also WSGI's write()
        self._start_send()
        self._send_now({"type": "http.response.body", "body": chunk, "more_body": True})

    def finish(self) -> None:
        self._start_send()
        self._send_now({"type": "http.response.body", "body": b""})
