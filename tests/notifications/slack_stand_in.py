"""A stand-in of Slack's incoming webhooks on 127.0.0.1: it answers as Slack documents
(200 with the body `ok`; 404 `no_service` for an unknown hook; 400 `invalid_payload` for a
body that is not JSON with `text` or `blocks`), and records what each hook received."""

import json
import threading
from http.server import BaseHTTPRequestHandler

from tests.webhooks.receiver import QuietServer


class SlackStandIn:
    def __init__(self, hooks=("T000/B000/XXXX", "T111/B111/YYYY")):
        self.hooks = set(hooks)
        self.received: list[tuple[str, dict]] = []
        # Statuses to answer before answering normally (a rate limit, an outage).
        self.failures: list[int] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status: int, body: str):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                hook = self.path.removeprefix("/services/")
                if stand_in.failures:
                    status = stand_in.failures.pop(0)
                    self._answer(status, "rate_limited" if status == 429 else "server_error")
                    return
                if hook not in stand_in.hooks:
                    self._answer(404, "no_service")
                    return
                try:
                    payload = json.loads(raw)
                except ValueError:
                    self._answer(400, "invalid_payload")
                    return
                if not isinstance(payload, dict) or not (
                    payload.get("text") or payload.get("blocks")
                ):
                    self._answer(400, "no_text")
                    return
                stand_in.received.append((hook, payload))
                self._answer(200, "ok")

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, hook="T000/B000/XXXX") -> str:
        return f"{self.base}/services/{hook}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()
