"""A real HTTP receiver for the outbound webhooks' tests: a server thread on 127.0.0.1
that records every request and answers what the test tells it to."""

from __future__ import annotations

import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietServer(ThreadingHTTPServer):
    """A threading server that says nothing when a client went away before its answer (a
    sender that timed out on a held answer): printing that traceback from a handler's
    thread would parse source lines (Python 3.11's carets) while a test of the suite parses
    files, and CPython 3.11 keeps one AST recursion counter for all threads."""

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


@dataclass
class Answer:
    status: int = 200
    body: bytes = b"ok"
    delay: float = 0.0
    # "reset": close the connection without answering.
    action: str = ""
    # Answer only once this is set (a receiver that holds the request).
    hold: threading.Event | None = None
    headers: dict = field(default_factory=dict)


class Receiver:
    def __init__(self):
        self.received: list[Received] = []
        self.answers: list[Answer] = []
        self.default = Answer()
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Answer at once (a small answer written after its headers would wait for the
            # client's delayed acknowledgement), as a production web server does.
            disable_nagle_algorithm = True

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                with receiver.arrived:
                    receiver.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    answer = receiver.answers.pop(0) if receiver.answers else receiver.default
                    receiver.arrived.notify_all()
                if answer.delay:
                    time.sleep(answer.delay)
                if answer.hold is not None:
                    answer.hold.wait(120)
                if answer.action == "reset":
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                    )
                    self.close_connection = True
                    return
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hooks"

    def wait(self, count: int, limit: float = 60.0) -> list[Received]:
        """Wait until `count` requests arrived (a limit on waiting, not a timing claim)."""
        deadline = time.monotonic() + limit
        with self.arrived:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.received)} of {count} requests arrived")
                self.arrived.wait(left)
        return list(self.received)

    def close(self):
        self.server.shutdown()
        self.server.server_close()
