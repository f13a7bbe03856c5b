"""The load of `make loadtest LOADTEST_ARGS="--scenario neighbours"` (bench/neighbours.py).

Fifty workspaces go about their day: tools read their figures, agents write change-log
entries (each an event delivered to the workspace's endpoint), Stripe delivers signed
charges to some of them, and their owners ask for password resets (mail sent by the
worker). One more workspace, the bad neighbour, writes a change-log entry every second;
its 20 endpoints answer just under the delivery timeout. NEIGHBOURS_WORLD names the JSON
file bench/neighbours.py wrote; NEIGHBOURS_RESETS the file each reset's time and address
is appended to.

NEIGHBOURS_RATE paces the other workspaces' load: about that many requests a second in
all (figures 73 %, Stripe deliveries 20 %, change-log writes 6 %, password resets 1 %),
each user at a constant rate, so the same work is offered with and without the bad
neighbour and a latency compares like with like. At 0 every user goes as fast as it is
answered (short random waits), which saturates the machine and measures its capacity
instead. NEIGHBOURS_USERS is Locust's user count, to share the rate among them.

NEIGHBOURS_UPLOAD, when set, names a JSON Lines file the owner of one more workspace, the
uploading neighbour, uploads on the Import page at the start of a run and confirms once it
is checked, so its check and its import run in the worker while the others work; each
state the file reaches and when is appended to NEIGHBOURS_UPLOADS.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
import uuid
from datetime import UTC, datetime

from locust import HttpUser, between, constant, constant_throughput, task

# The locustfile's folder is on the path Locust imports it with.
from stripe_charges import signed_charge

WORLD = json.loads(open(os.environ["NEIGHBOURS_WORLD"]).read())  # noqa: SIM115
GOOD = WORLD["good"]
BAD = WORLD["bad"]
UPLOADER = WORLD["uploader"]
STRIPE = [ws for ws in GOOD if ws.get("stripe")]
FIGURES = ["calls", "payments", "leads", "attribution", "commission", "eod", "funnel"]
RESETS = os.environ["NEIGHBOURS_RESETS"]
RATE = float(os.environ.get("NEIGHBOURS_RATE", "0"))
USERS = int(os.environ.get("NEIGHBOURS_USERS", "40"))
WEIGHTS = {"Reader": 6, "Writer": 2, "Stripe": 2, "Resetter": 1}


def paced(kind: str, share: float, unpaced):
    """The wait of a user of `kind`: its share of RATE spread over the users Locust gives
    the kind by weight (a reset is two requests: its form, then the ask); `unpaced` at 0."""
    if RATE <= 0:
        return unpaced
    users = max(1.0, USERS * WEIGHTS[kind] / sum(WEIGHTS.values()))
    per_task = 2 if kind == "Resetter" else 1
    return constant_throughput(RATE * share / per_task / users)


def _change(token: str, title: str) -> tuple[dict, dict]:
    body = {
        "effective_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "kind": "other",
        "title": title,
        "what": "A change written by the load.",
        "why": "To measure the neighbours.",
    }
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())}
    return body, headers


class Reader(HttpUser):
    weight = WEIGHTS["Reader"]
    wait_time = paced("Reader", 0.73, between(0.05, 0.3))

    @task
    def figure(self):
        workspace = random.choice(GOOD)
        self.client.get(
            f"/api/v1/{random.choice(FIGURES)}",
            headers={"Authorization": f"Bearer {workspace['read']}"},
            name="figures",
        )


class Writer(HttpUser):
    weight = WEIGHTS["Writer"]
    wait_time = paced("Writer", 0.06, between(0.5, 1.5))

    @task
    def change(self):
        workspace = random.choice(GOOD)
        body, headers = _change(workspace["write"], "load")
        self.client.post("/api/v1/change-log", json=body, headers=headers, name="change-log")


class Stripe(HttpUser):
    weight = WEIGHTS["Stripe"]
    wait_time = paced("Stripe", 0.2, between(0.1, 0.4))

    @task
    def charge(self):
        connection = random.choice(STRIPE)["stripe"]
        _event_id, body, headers = signed_charge(connection["secret"], prefix="nb")
        self.client.post(
            f"/hooks/stripe/{connection['id']}", data=body, headers=headers, name="webhooks: stripe"
        )


class Resetter(HttpUser):
    weight = WEIGHTS["Resetter"]
    wait_time = paced("Resetter", 0.01, between(2, 5))

    @task
    def reset(self):
        email = random.choice(GOOD)["owner"]
        page = self.client.get("/accounts/password-reset/", name="reset: form")
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        if not found:
            return
        asked = time.time()
        answer = self.client.post(
            "/accounts/password-reset/",
            data={"csrfmiddlewaretoken": found.group(1), "email": email},
            name="reset: ask",
            allow_redirects=False,
        )
        if answer.status_code in (200, 302):
            with open(RESETS, "a") as log:
                log.write(json.dumps([asked, email]) + "\n")


class BadNeighbour(HttpUser):
    """A change-log entry a second in the workspace whose endpoints all time out."""

    fixed_count = 1
    wait_time = constant(1)

    @task
    def change(self):
        body, headers = _change(BAD["write"], "bad")
        self.client.post("/api/v1/change-log", json=body, headers=headers, name="bad: change-log")


UPLOAD = os.environ.get("NEIGHBOURS_UPLOAD", "")
UPLOADS = os.environ.get("NEIGHBOURS_UPLOADS", "")
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class UploadingNeighbour(HttpUser):
    """The uploading neighbour's owner, as a browser: signs in, uploads NEIGHBOURS_UPLOAD on
    the Import page, follows its progress as the page does and confirms it once checked."""

    fixed_count = 1
    wait_time = constant(2)

    def on_start(self):
        self.page = None  # the upload's page, once uploaded
        self.states: list[str] = []
        self.started = time.time()
        form = self.client.get("/accounts/login/", name="bad: upload sign-in")
        self.client.post(
            "/accounts/login/",
            data={
                "csrfmiddlewaretoken": _CSRF.search(form.text).group(1),
                "username": UPLOADER["owner"],
                "password": WORLD["password"],
            },
            name="bad: upload sign-in",
        )

    def _note(self, state: str) -> None:
        if self.states[-1:] != [state]:
            self.states.append(state)
            with open(UPLOADS, "a") as log:
                log.write(json.dumps([state, round(time.time() - self.started, 1)]) + "\n")

    @task
    def upload(self):
        if self.page is None:
            path = f"/settings/{UPLOADER['id']}/import/"
            form = self.client.get(path, name="bad: upload import page")
            with open(UPLOAD, "rb") as file:
                answer = self.client.post(
                    path,
                    data={"csrfmiddlewaretoken": _CSRF.search(form.text).group(1), "kind": "jsonl"},
                    files={"file": ("history.jsonl", file, "application/jsonl")},
                    name="bad: upload file",
                )
            self.page = answer.url.removeprefix(self.client.base_url)
            self._note("uploaded")
            return
        state = self.client.get(self.page + "status", name="bad: upload status").json()["state"]
        self._note(state)
        if state == "checked":
            page = self.client.get(self.page, name="bad: upload page")
            self.client.post(
                self.page,
                data={"csrfmiddlewaretoken": _CSRF.search(page.text).group(1)},
                name="bad: upload confirm",
            )
