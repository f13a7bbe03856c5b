"""Fuzz the routes no OpenAPI description covers: the providers' webhook endpoints (signed
and unsigned, against a connection of each provider made for the run), the OAuth 2
endpoints and /mcp. Cases are generated with Hypothesis; a case fails on any 5xx answer.

Called by scripts/fuzz.py against the production server (gunicorn's sync workers on
config.wsgi, DEBUG off) with the run's database.
"""

import base64
import hashlib
import hmac
import http.client
import json
import secrets
import subprocess
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# What a connection of each provider is made with (formats its credential check takes).
CREDENTIALS = {
    "stripe": {
        "secret_key": "sk_test_" + "Fz9Kq2Lr7Xw4" * 2,
        "webhook_secret": "whsec_" + "FuzzSecret0123456789abcd",
    },
    "calendly": {
        "personal_access_token": "eyJraWQiOiJmdXp6In0.eyJpc3MiOiJmdXp6LWlzc3Vlci0wMTIzIn0.c2lnbmF0dXJl",
        "webhook_signing_key": "fuzz-signing-key-0123",
    },
    "zoom": {
        "account_id": "fuzzAccount01",
        "client_id": "fuzzClient01",
        "client_secret": "fuzzClientSecret0123456789",
        "webhook_secret_token": "fuzzWebhookSecretToken01",
    },
    "hubspot": {
        "access_token": "pat-na1-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        "client_secret": "6f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b",
    },
}
EVENT_TYPES = {
    "stripe": [
        "charge.succeeded",
        "charge.failed",
        "charge.refunded",
        "refund.created",
        "charge.dispute.closed",
        "customer.created",
    ],
    "calendly": [
        "invitee.created",
        "invitee.canceled",
        "invitee_no_show.created",
        "invitee_no_show.deleted",
        "routing_form_submission.created",
    ],
    "zoom": [
        "webinar.created",
        "webinar.updated",
        "webinar.registration_created",
        "webinar.participant_joined",
        "webinar.participant_left",
        "endpoint.url_validation",
    ],
    "hubspot": ["contact.creation", "contact.propertyChange", "contact.deletion"],
}

CONNECTIONS_SCRIPT = """
import json
from audit.services import SYSTEM
from integrations import connections, services
from workspaces.models import Workspace
connections.backfill_enqueue = lambda connection_id: None
workspace = Workspace.objects.get(pk=%(workspace)r)
made = {}
for provider, credentials in json.loads(%(credentials)r).items():
    connection = services.connection_create(
        workspace=workspace, provider=provider, credentials=credentials, actor=SYSTEM
    )
    made[provider] = str(connection.pk)
print(json.dumps(made))
"""


@dataclass
class Tally:
    cases: int = 0
    errors: list = field(default_factory=list)

    def record(self, what: str, status: int) -> None:
        self.cases += 1
        if status >= 500 and len(self.errors) < 20:
            self.errors.append(f"{status} {what}")
        elif status >= 500:
            self.errors.append("")


def connections_make(python: str, root, env: dict, workspace_id: str) -> dict:
    script = CONNECTIONS_SCRIPT % {
        "workspace": workspace_id,
        "credentials": json.dumps(CREDENTIALS),
    }
    done = subprocess.run(
        [python, "manage.py", "shell", "-c", script],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"could not make the fuzz connections:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _send(host, port, method, path, body: bytes | None, headers: dict) -> int:
    conn = http.client.HTTPConnection(host, port, timeout=60)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name, value.encode("latin-1", "replace"))
        conn.putheader("Content-Length", str(len(body or b"")))
        conn.endheaders(body or b"")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _hex(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signed_headers(provider: str, secret: str, body: bytes, url: str, skew: int) -> dict:
    now = int(time.time()) + skew
    if provider == "stripe":
        return {"Stripe-Signature": f"t={now},v1={_hex(secret, f'{now}.'.encode() + body)}"}
    if provider == "calendly":
        signature = _hex(secret, f"{now}.".encode() + body)
        return {"Calendly-Webhook-Signature": f"t={now},v1={signature}"}
    if provider == "zoom":
        return {
            "x-zm-signature": f"v0={_hex(secret, f'v0:{now}:'.encode() + body)}",
            "x-zm-request-timestamp": str(now),
        }
    millis = now * 1000
    source = b"POST" + url.encode() + body + str(millis).encode()
    digest = hmac.new(secret.encode(), source, hashlib.sha256).digest()
    return {
        "X-HubSpot-Signature-v3": base64.b64encode(digest).decode(),
        "X-HubSpot-Request-Timestamp": str(millis),
    }


SIGNING_SECRET = {
    "stripe": "webhook_secret",
    "calendly": "webhook_signing_key",
    "zoom": "webhook_secret_token",
    "hubspot": "client_secret",
}

texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40
) | st.sampled_from(
    # A NUL, half a surrogate pair, look-alike letters, the calendar's edges.
    [
        "\x00",
        "a\ud800b",
        "\u017fetter",
        "adm\u0131n",
        "9999-12-31T23:59:59-05:00",
        "0001-01-01T00:00:00Z",
        "9" * 5000,
    ]
)
numbers = st.integers(min_value=-(10**30), max_value=10**30) | st.floats(allow_nan=False)
scalars = st.none() | st.booleans() | numbers | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=5),
    max_leaves=20,
)


def envelope(provider: str):
    kinds = st.sampled_from(EVENT_TYPES[provider]) | texts
    if provider == "stripe":
        return st.fixed_dictionaries(
            {
                "id": st.from_regex(r"evt_[A-Za-z0-9]{1,20}", fullmatch=True),
                "type": kinds,
                "created": numbers | texts,
                "data": st.fixed_dictionaries({"object": json_values}) | json_values,
            }
        )
    if provider == "calendly":
        return st.fixed_dictionaries(
            {
                "event": kinds,
                "created_at": texts | numbers,
                "payload": st.dictionaries(
                    st.sampled_from(
                        [
                            "uri",
                            "email",
                            "created_at",
                            "invitee",
                            "no_show",
                            "scheduled_event",
                            "old_invitee",
                            "tracking",
                            "name",
                        ]
                    ),
                    json_values,
                    max_size=6,
                )
                | json_values,
            }
        )
    if provider == "zoom":
        return st.fixed_dictionaries(
            {
                "event": kinds,
                "event_ts": numbers | texts,
                "payload": st.fixed_dictionaries({"object": json_values, "plainToken": texts})
                | json_values,
            }
        )
    return st.lists(
        st.fixed_dictionaries(
            {
                "eventId": numbers | texts,
                "subscriptionType": kinds,
                "objectId": numbers | texts,
                "occurredAt": numbers | texts,
                "propertyName": texts,
                "propertyValue": texts,
            }
        ),
        max_size=3,
    )


def _run(strategies: dict, send, examples: int) -> None:
    """Run send(**case) on `examples` cases that Hypothesis draws from the strategies."""

    @settings(
        max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(**strategies)
    def run(**case):
        send(**case)

    run()


def fuzz_webhooks(host, port, base_url, connections: dict, examples: int) -> dict:
    tallies = {}
    for provider, connection_id in connections.items():
        path = f"/hooks/{provider}/{connection_id}"
        secret = CREDENTIALS[provider][SIGNING_SECRET[provider]]
        signed, unsigned = Tally(), Tally()

        def send_signed(payload, skew, path=path, secret=secret, provider=provider, tally=signed):
            body = json.dumps(payload).encode()
            headers = signed_headers(provider, secret, body, f"{base_url}{path}", skew)
            headers["Content-Type"] = "application/json"
            status = _send(host, port, "POST", path, body, headers)
            tally.record(f"signed {path} {body[:200]!r}", status)

        def send_unsigned(body, header, name, path=path, tally=unsigned):
            headers = {name: header, "Content-Type": "application/json"}
            status = _send(host, port, "POST", path, body, headers)
            tally.record(f"unsigned {path} {name}={header!r}", status)

        _run(
            {"payload": envelope(provider) | json_values, "skew": st.sampled_from([0, 0, 400])},
            send_signed,
            examples,
        )
        _run(
            {
                "body": st.binary(max_size=300),
                # What a header can carry (latin-1, no control character).
                "header": st.text(
                    alphabet=st.characters(
                        min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"
                    ),
                    max_size=60,
                )
                | st.sampled_from(["t=1,v1=\xe9", f"t={int(time.time())},v1=00", "v0=\xe9"]),
                "name": st.sampled_from(list(SIGNATURE_HEADERS)),
            },
            send_unsigned,
            examples,
        )
        tallies[f"hooks {provider} signed"] = signed
        tallies[f"hooks {provider} unsigned"] = unsigned
    return tallies


SIGNATURE_HEADERS = (
    "Stripe-Signature",
    "Calendly-Webhook-Signature",
    "x-zm-signature",
    "x-zm-request-timestamp",
    "X-HubSpot-Signature-v3",
    "X-HubSpot-Request-Timestamp",
)


OAUTH_NAMES = [
    "client_id",
    "response_type",
    "redirect_uri",
    "scope",
    "state",
    "code",
    "code_challenge",
    "code_challenge_method",
    "resource",
    "grant_type",
    "code_verifier",
    "refresh_token",
    "token",
    "token_type_hint",
    "approval_prompt",
]


def fuzz_oauth_and_mcp(host, port, token: str, client_id: str, examples: int) -> dict:
    oauth, mcp = Tally(), Tally()
    params = st.dictionaries(
        st.sampled_from(OAUTH_NAMES),
        texts | st.just(client_id) | st.just("authorization_code") | st.just("S256"),
        max_size=8,
    )

    def send_oauth(query, form, route):
        # A URL carries text as UTF-8: half a surrogate pair is sent as its bytes.
        query = {k: v.encode("utf-8", "surrogatepass") for k, v in query.items()}
        form = {k: v.encode("utf-8", "surrogatepass") for k, v in form.items()}
        path = f"{route}?{urlencode(query)}" if query else route
        if route in ("/o/token/", "/o/revoke_token/"):
            body = urlencode(form).encode()
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
            oauth.record(
                f"POST {path} {body[:200]!r}", _send(host, port, "POST", route, body, headers)
            )
        else:
            oauth.record(f"GET {path}", _send(host, port, "GET", path, None, {}))

    def send_mcp(message, raw, authorized):
        body = raw if raw is not None else json.dumps(message).encode()
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if authorized:
            headers["Authorization"] = f"Bearer {token}"
        else:
            headers["Authorization"] = f"Bearer svc_{secrets.token_hex(32)}"
        mcp.record(f"POST /mcp {body[:200]!r}", _send(host, port, "POST", "/mcp", body, headers))

    routes = st.sampled_from(
        [
            "/o/authorize/",
            "/o/token/",
            "/o/revoke_token/",
            "/.well-known/oauth-authorization-server",
            "/.well-known/oauth-protected-resource/mcp",
        ]
    )
    _run({"query": params, "form": params, "route": routes}, send_oauth, examples)
    message = json_values | st.fixed_dictionaries(
        {
            "jsonrpc": st.just("2.0") | texts,
            "id": numbers | texts | st.none(),
            "method": st.sampled_from(["tools/list", "tools/call", "initialize"]) | texts,
            "params": json_values,
        }
    )
    raws = st.sampled_from([None, b"{", b'{"id": NaN}', b"[]", b"\xff\xfe"])
    _run({"message": message, "raw": raws, "authorized": st.booleans()}, send_mcp, examples)
    return {"oauth": oauth, "mcp": mcp}
