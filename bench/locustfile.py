"""The mixed load of `make loadtest` (bench/loadtest.py starts the service and Locust).

Five kinds of users, in the proportions a busy deployment sees: tools reading figures with
many tokens, people on the dashboard pages, providers delivering signed webhooks (Stripe
charges, Calendly bookings), agents filing drafts and end-of-day reports with
Idempotency-Keys (and retrying some), and MCP clients calling figure tools. Every request
names its kind, so the summary reads per kind. Anything but the expected status is a
failure. LOADTEST_WORLD names the JSON file bench/loadtest.py wrote (tokens, members,
connections and their signing secrets).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import random
import re
import time
import uuid
from datetime import UTC, datetime

from locust import HttpUser, between, events, task

# The locustfile's folder is on the path Locust imports it with.
from stripe_charges import signed_charge

WORLD = json.loads(open(os.environ["LOADTEST_WORLD"]).read())  # noqa: SIM115
FIGURES = [
    "calls",
    "outcomes",
    "payments",
    "leads",
    "funnel",
    "attribution",
    "acquisition",
    "commission",
    "eod",
    "speed-to-lead",
    "webinar",
]
TOOLS = ["listCallFigures", "listPaymentFigures", "getFunnel", "listCommission"]


# Every request's time, kind, status and duration (and a delivery's event id), for the
# fault runs' reading of what happened during a restart (bench/loadtest.py).
_LOG = open(os.environ["LOADTEST_REQUESTS"], "w") if os.environ.get("LOADTEST_REQUESTS") else None  # noqa: SIM115


@events.request.add_listener
def _logged(name, response, response_time, exception, context, **_kwargs):
    if _LOG is not None:
        status = getattr(response, "status_code", 0) or 0
        _LOG.write(
            json.dumps(
                [time.time(), name, status, round(response_time), (context or {}).get("event", "")]
            )
            + "\n"
        )


@events.quitting.add_listener
def _closed(**_kwargs):
    if _LOG is not None:
        _LOG.close()


def _hex(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def _period() -> str:
    return "from=2026-10-01&to=2026-10-30"


class FiguresReader(HttpUser):
    weight = 6
    wait_time = between(0.05, 0.3)

    @task
    def figure(self):
        workspace = random.choice(WORLD["workspaces"])
        name = random.choice(FIGURES)
        self.client.get(
            f"/api/v1/{name}?{_period()}",
            headers={"Authorization": f"Bearer {workspace['read']}"},
            name="figures",
        )


class PageVisitor(HttpUser):
    weight = 2
    wait_time = between(0.2, 1.0)

    def on_start(self):
        person = random.choice(WORLD["owners"])
        page = self.client.get("/accounts/login/", name="pages: sign-in")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        with self.client.post(
            "/accounts/login/",
            data={
                "csrfmiddlewaretoken": token,
                "username": person["email"],
                "password": person["password"],
            },
            name="pages: sign-in",
            allow_redirects=False,
            catch_response=True,
        ) as answer:
            if answer.status_code != 302:
                answer.failure(f"sign-in answered {answer.status_code}")
        self.workspace = person["workspace"]

    @task(3)
    def overview(self):
        self.client.get(f"/app/{self.workspace}/", name="pages: overview")

    @task(1)
    def board(self):
        self.client.get(f"/app/{self.workspace}/board/", name="pages: board")


class ProviderDeliveries(HttpUser):
    weight = 2
    wait_time = between(0.05, 0.2)

    @task(2)
    def stripe_charge(self):
        connection = WORLD["stripe"]
        event_id, body, headers = signed_charge(connection["secret"], prefix="load")
        self.client.post(
            f"/hooks/stripe/{connection['id']}",
            data=body,
            headers=headers,
            name="webhooks: stripe",
            context={"event": event_id},
        )

    @task(1)
    def calendly_booking(self):
        connection = WORLD["calendly"]
        now = int(time.time())
        api = "https://api.calendly.com"
        event, invitee = uuid.uuid4().hex[:12], uuid.uuid4().hex[:12]
        created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
        body = json.dumps(
            {
                "event": "invitee.created",
                "created_at": created,
                "created_by": f"{api}/users/U1",
                "payload": {
                    "uri": f"{api}/scheduled_events/{event}/invitees/{invitee}",
                    "email": f"{invitee}@load.example",
                    "name": "Load Test",
                    "status": "active",
                    "created_at": created,
                    "updated_at": created,
                    "rescheduled": False,
                    "tracking": {"utm_source": "load"},
                    "scheduled_event": {
                        "uri": f"{api}/scheduled_events/{event}",
                        "name": "Strategy call",
                        "status": "active",
                        "start_time": "2026-12-01T15:00:00.000000Z",
                        "end_time": "2026-12-01T15:45:00.000000Z",
                        "event_memberships": [
                            {"user": f"{api}/users/U1", "user_email": WORLD["closer_email"]}
                        ],
                    },
                },
            }
        ).encode()
        signature = f"t={now},v1={_hex(connection['secret'], f'{now}.'.encode() + body)}"
        self.client.post(
            f"/hooks/calendly/{connection['id']}",
            data=body,
            headers={"Calendly-Webhook-Signature": signature, "Content-Type": "application/json"},
            name="webhooks: calendly",
        )


class Agent(HttpUser):
    weight = 1
    wait_time = between(0.1, 0.5)

    @task(2)
    def draft(self):
        workspace = random.choice(WORLD["workspaces"])
        key = str(uuid.uuid4())
        body = {
            "form": "eod",
            "member_id": workspace["closer"],
            "fields": {"fields": {"dials": random.randint(0, 90), "notes": "load"}},
        }
        headers = {"Authorization": f"Bearer {workspace['write']}", "Idempotency-Key": key}
        self.client.post("/api/v1/forms/drafts", json=body, headers=headers, name="agents: draft")
        if random.random() < 0.3:
            # A retry of the same request: answered from the stored answer.
            with self.client.post(
                "/api/v1/forms/drafts",
                json=body,
                headers=headers,
                name="agents: draft retried",
                catch_response=True,
            ) as again:
                if again.headers.get("Idempotent-Replayed") != "true":
                    again.failure("a retried key was not replayed")

    @task(1)
    def eod(self):
        member = random.choice(WORLD["closers"])
        body = {"fields": {"dials": random.randint(0, 90), "conversations": 3}}
        self.client.post(
            "/api/v1/forms/eod",
            json=body,
            headers={
                "Authorization": f"Bearer {member['session_token']}",
                "Idempotency-Key": str(uuid.uuid4()),
            },
            name="agents: eod",
        )


class McpClient(HttpUser):
    weight = 1
    wait_time = between(0.1, 0.5)

    @task
    def tool(self):
        workspace = random.choice(WORLD["workspaces"])
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": random.choice(TOOLS),
                "arguments": {"from": "2026-10-01", "to": "2026-10-30"},
            },
        }
        with self.client.post(
            "/mcp",
            json=body,
            headers={
                "Authorization": f"Bearer {workspace['read']}",
                "Accept": "application/json, text/event-stream",
            },
            name="mcp: tools/call",
            catch_response=True,
        ) as answer:
            if answer.status_code == 200 and '"isError":true' in answer.text.replace(" ", ""):
                answer.failure("the tool answered an error")
