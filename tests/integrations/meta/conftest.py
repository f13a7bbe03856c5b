"""A local stand-in for Meta's graph API: a real HTTP server on this machine, at the
setting META_GRAPH_BASE, answering Meta's recorded answers (the files in recorded/) to the
requests the `facebook-business` library makes, in the order a test queues them."""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from audit.services import SYSTEM
from integrations import backfills as engine_backfills
from integrations import services
from integrations.meta import client as meta_client

RECORDED = Path(__file__).parent / "recorded"
TOKEN = "EAAGm0PX4ZCpsBAKxyz0123456789abcdefABCDEF"
ACCOUNT = "act_1234567890"
CREDENTIALS = {"access_token": TOKEN, "ad_account_id": ACCOUNT}


def recorded(name: str) -> dict:
    return json.loads((RECORDED / f"{name}.json").read_text())


class GraphServer:
    """Answers queued per (path, `after` cursor): each request takes the next one, the
    last stays. Every request is kept as (path, query)."""

    def __init__(self):
        self.answers = defaultdict(list)
        self.requests: list[tuple[str, dict]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urlsplit(self.path)
                query = {key: values[0] for key, values in parse_qs(parts.query).items()}
                server.requests.append((parts.path, query))
                queue = server.answers[(parts.path, query.get("after"))]
                status, body = (
                    queue.pop(0)
                    if len(queue) > 1
                    else queue[0]
                    if queue
                    else (404, {"error": {"message": "Unknown path", "code": 803}})
                )
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def answer(self, path: str, *answers, after: str | None = None) -> None:
        """Queue answers, each a recorded file's name (200) or (status, name)."""
        for answer in answers:
            status, name = answer if isinstance(answer, tuple) else (200, answer)
            self.answers[(path, after)].append((status, recorded(name)))

    def insights_asked(self) -> list[dict]:
        return [query for path, query in self.requests if path.endswith("/insights")]


@pytest.fixture
def graph(settings):
    server = GraphServer()
    server.thread.start()
    settings.META_GRAPH_BASE = server.base
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


@pytest.fixture
def waits(monkeypatch):
    """The back-off's waits, recorded instead of slept."""
    slept = []
    monkeypatch.setattr(meta_client, "_sleep", slept.append)
    return slept


@pytest.fixture
def today(monkeypatch):
    """Today, for the windows the engine reads."""
    day = date(2026, 3, 10)
    monkeypatch.setattr(engine_backfills, "backfills_day", lambda: day)
    return day


@pytest.fixture
def meta_connection(make_workspace, backfills):
    def make(currency: str = "USD"):
        workspace = make_workspace(currency=currency)
        return services.connection_create(
            workspace=workspace, provider="meta", credentials=CREDENTIALS, actor=SYSTEM
        )

    return make
