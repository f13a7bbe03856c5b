"""No ad-platform credential leaves the connection: each provider is made to fail in each
way by a local stand-in that echoes back everything it was sent (the query string, the
form, the headers) or redirects to a closed port with the token in the address, and no
credential is found in the audit log, the events feed, the deliveries' bodies, the
Integrations page or the log; what is kept is the service's own summary."""

from __future__ import annotations

import json
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client

from audit.models import AuditEvent
from audit.services import SYSTEM
from events.models import Event
from integrations import services
from integrations.google import client as google_client
from integrations.meta import client as meta_client
from integrations.models import Connection

pytestmark = pytest.mark.django_db

META = {"access_token": "EAAGsecretMetaToken0123456789abcdef", "ad_account_id": "act_1234567890"}
GOOGLE = {
    "developer_token": "devTokenSecret0123456789",
    "client_id": "123456789012-abcdefghijklmnop.apps.googleusercontent.com",
    "client_secret": "GOCSPX-clientSecret0123456789",
    "refresh_token": "1//0gRefreshSecret0123456789abcdef",
    "customer_id": "123-456-7890",
    "login_customer_id": "987-654-3210",
}
SECRETS = {
    "meta": [META["access_token"]],
    "google": [
        GOOGLE["developer_token"],
        GOOGLE["client_secret"],
        GOOGLE["refresh_token"],
        "ya29.accessSecret0123456789",
    ],
}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Echo:
    """A stand-in answering every request with `status` and a provider-shaped error whose
    message is everything the request carried; or, with `redirect`, a redirect to a closed
    port carrying the request's query (its access token)."""

    def __init__(self, status: int, shape: str, redirect: bool = False):
        echo = self
        self.status, self.shape, self.redirect = status, shape, redirect
        self.closed = closed_port()

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                sent = self.rfile.read(length).decode() if length else ""
                said = f"{self.command} {self.path} {sent} {dict(self.headers)}"
                if echo.redirect:
                    self.send_response(302)
                    self.send_header("Location", f"http://127.0.0.1:{echo.closed}{self.path}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = json.dumps(echo.body(said)).encode()
                self.send_response(echo.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def body(self, said: str):
        if self.shape == "graph":
            code = {429: 17, 401: 190}.get(self.status, 1)
            return {"error": {"message": said, "type": "OAuthException", "code": code}}
        if self.shape == "oauth":
            return {"error": "invalid_request", "error_description": said}
        return [{"error": {"code": self.status, "message": said, "status": "PERMISSION_DENIED"}}]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def meta_fails(settings, monkeypatch, status, redirect=False):
    echo = Echo(status, "graph", redirect=redirect)
    settings.META_GRAPH_BASE = echo.base
    monkeypatch.setattr(meta_client, "_sleep", lambda seconds: None)
    return echo


def google_fails(settings, monkeypatch, status, where):
    echo = Echo(status, "oauth" if where == "token" else "ads")
    settings.GOOGLE_ADS_API_VERSION = "v21"
    monkeypatch.setattr(google_client, "_sleep", lambda seconds: None)
    if where == "token":
        settings.GOOGLE_OAUTH_TOKEN_URL = f"{echo.base}/token"
    elif where == "closed":
        settings.GOOGLE_OAUTH_TOKEN_URL = f"http://127.0.0.1:{echo.closed}/token"
    else:
        token = Echo(200, "oauth")
        token.body = lambda said: {"access_token": "ya29.accessSecret0123456789"}
        settings.GOOGLE_OAUTH_TOKEN_URL = f"{token.base}/token"
    settings.GOOGLE_ADS_API_BASE = echo.base
    return echo


CASES = [
    (
        "meta",
        lambda s, m: meta_fails(s, m, 400),
        "unexpected",
        "Meta Ads answered in a way we could not use.",
    ),
    ("meta", lambda s, m: meta_fails(s, m, 401), "refused", "Meta Ads refused the credential."),
    ("meta", lambda s, m: meta_fails(s, m, 429), "limited", "Meta Ads asked us to slow down."),
    (
        "meta",
        lambda s, m: meta_fails(s, m, 200, redirect=True),
        "unreachable",
        "Meta Ads could not be reached.",
    ),
    (
        "google",
        lambda s, m: google_fails(s, m, 400, "token"),
        "refused",
        "Google Ads refused the credential.",
    ),
    (
        "google",
        lambda s, m: google_fails(s, m, 403, "ads"),
        "refused",
        "Google Ads refused the credential.",
    ),
    (
        "google",
        lambda s, m: google_fails(s, m, 429, "ads"),
        "limited",
        "Google Ads asked us to slow down.",
    ),
    (
        "google",
        lambda s, m: google_fails(s, m, 0, "closed"),
        "unreachable",
        "Google Ads could not be reached.",
    ),
]


@pytest.mark.parametrize(("provider", "fail", "kind", "summary"), CASES)
def test_no_credential_reaches_what_is_kept_or_answered(
    provider,
    fail,
    kind,
    summary,
    settings,
    monkeypatch,
    caplog,
    make_workspace,
    make_member,
    workspace_token,
    backfills,
):
    caplog.set_level(logging.INFO)
    echo = fail(settings, monkeypatch)
    workspace = make_workspace(currency="USD")
    try:
        connection = services.connection_create(
            workspace=workspace,
            provider=provider,
            credentials=META if provider == "meta" else GOOGLE,
            actor=SYSTEM,
        )
        services.connection_backfill(connection_id=connection.pk)
    finally:
        echo.close()
    connection = Connection.objects.get(pk=connection.pk)
    assert (connection.state, connection.last_error_kind, connection.last_error) == (
        "failing",
        kind,
        summary,
    )
    failing = AuditEvent.objects.get(action="integration.failing")
    assert failing.reason == summary
    [event] = Event.objects.filter(type="integration.failing")
    assert event.data["error"] == summary

    token = workspace_token(workspace)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    audit = api.get("/api/v1/audit-events", {"from": "2000-01-01", "to": "2100-01-01"})
    feed = api.get("/api/v1/events")
    assert (audit.status_code, feed.status_code) == (200, 200)
    assert summary in audit.content.decode()
    owner = make_member(workspace, "owner")
    browser = Client()
    browser.force_login(owner.user)
    page = browser.get(f"/settings/{workspace.pk}/integrations/")
    assert page.status_code == 200

    kept = [
        audit.content.decode(),
        feed.content.decode(),
        page.content.decode(),
        caplog.text,
        *(json.dumps(e.as_api()) for e in Event.objects.all()),
        *(e.json_text + e.reason + json.dumps(e.detail) for e in AuditEvent.objects.all()),
        connection.last_error,
        connection.last_error_words,
    ]
    for secret in SECRETS[provider]:
        for text in kept:
            assert secret not in text
    # The operators still read what the provider said, redacted, in the worker's log.
    assert f"{provider} connection {connection.pk} is failing ({kind})" in caplog.text
