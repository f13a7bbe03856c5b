"""The transport of one delivery: the signed HTTP POST of an event to an endpoint, through
the address the guard checked, and what came of it.

The body is the event's JSON, signed with the endpoint's secret as the Standard Webhooks
specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature`); the answer's
first EXCERPT_BYTES are kept, a redirect is not followed.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime

import httpx
from django.conf import settings
from standardwebhooks import Webhook

from core.crypto import decrypt_text
from events.models import Event

from . import guard
from .models import WebhookEndpoint

EXCERPT_BYTES = 1024
USER_AGENT = "SalesFigures-Webhooks/1"


def endpoint_secret(endpoint: WebhookEndpoint) -> str:
    return decrypt_text(bytes(endpoint.secret_encrypted))


@dataclass
class Outcome:
    succeeded: bool
    status_code: int | None = None
    excerpt: str = ""
    error: str = ""
    timed_out: bool = False

    @property
    def overloaded(self) -> bool:
        """A timeout or a 5xx answer: what the circuit breaker counts."""
        return self.timed_out or (self.status_code is not None and self.status_code >= 500)


def post(endpoint: WebhookEndpoint, event: Event, now: datetime) -> Outcome:
    try:
        target = guard.url_check(endpoint.url)
    except guard.UrlRefused as refused:
        return Outcome(False, error=refused.message[:300])
    body = json.dumps(event.as_api(), separators=(",", ":"), ensure_ascii=False)
    signature = Webhook(endpoint_secret(endpoint)).sign(event.id, now, body)
    headers = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "host": target.host_header,
        "webhook-id": event.id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }
    # The connection goes to the address the guard checked; TLS still verifies the name.
    extensions = {"sni_hostname": target.host} if target.url.lower().startswith("https") else {}
    try:
        with client(target).stream(
            "POST",
            target.pinned_url,
            content=body.encode("utf-8"),
            headers=headers,
            extensions=extensions,
        ) as response:
            excerpt = b""
            for chunk in response.iter_bytes():
                excerpt += chunk
                if len(excerpt) >= EXCERPT_BYTES:
                    break
    except httpx.TimeoutException:
        return Outcome(
            False,
            error=f"No answer within {settings.WEBHOOK_TIMEOUT_SECONDS} s.",
            timed_out=True,
        )
    except httpx.HTTPError as error:
        return Outcome(False, error=connection_error(error))
    text = excerpt[:EXCERPT_BYTES].decode("utf-8", errors="replace")
    status = response.status_code
    if 200 <= status < 300:
        return Outcome(True, status_code=status, excerpt=text)
    error = f"The endpoint answered {status}."
    if 300 <= status < 400:
        error = f"The endpoint answered {status} (a redirect, not followed)."
    return Outcome(False, status_code=status, excerpt=text, error=error)


# One TLS context per process (building one reads the CA bundle: tens of milliseconds),
# and one client per (name, checked address, port), so an endpoint's attempts reuse their
# connection while a connection is never shared by two names. The deliveries' pool runs
# attempts in threads: the clients are shared between them (an httpx.Client is safe to
# share), looked up and added under a lock, and the oldest is let go past the bound (not
# closed: another thread may be sending through it; its connections close when it is
# collected).
_SSL = None
_CLIENTS: dict[tuple, httpx.Client] = {}
_CLIENTS_MAX = 256
_CLIENTS_LOCK = threading.Lock()


def client(target: guard.Target) -> httpx.Client:
    global _SSL
    key = (target.host, target.address, target.port, settings.WEBHOOK_TIMEOUT_SECONDS)
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            if _SSL is None:
                _SSL = httpx.create_ssl_context()
            while len(_CLIENTS) >= _CLIENTS_MAX:
                del _CLIENTS[next(iter(_CLIENTS))]
            client = _CLIENTS[key] = httpx.Client(
                verify=_SSL,
                timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
                follow_redirects=False,
                trust_env=False,
                limits=httpx.Limits(max_connections=4, max_keepalive_connections=2),
            )
    return client


def connection_error(error: httpx.HTTPError) -> str:
    if isinstance(error, httpx.ConnectError):
        return "Could not connect to the endpoint."
    if isinstance(error, httpx.RemoteProtocolError | httpx.ReadError):
        return "The endpoint closed the connection without an answer."
    return f"The request failed ({type(error).__name__})."
