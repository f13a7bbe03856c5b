"""Webhook deliveries accepted by the endpoint, then applied by one Celery worker: Stripe's
charges (the default) or, with --provider zoom, Zoom's participants of one large webinar.

    .venv/bin/python bench/webhooks.py                           # bench_large, 2,000 deliveries
    .venv/bin/python bench/webhooks.py --deliveries 5000 --concurrency 8
    .venv/bin/python bench/webhooks.py --deliveries 600 --profile 500   # cProfile of the apply
    .venv/bin/python bench/webhooks.py --provider zoom           # 5,000 attendees, 10,000 deliveries
    .venv/bin/python bench/webhooks.py --provider zoom --attendees 150

On a database loaded by bench/generate.py (its bench/out/<name>.json), with the
production settings (DEBUG off, fresh keys, Celery's broker at Redis --redis-db):

0. migrates the database (the integrations' migrations may be newer than its load) and
   makes a Stripe connection on the big workspace with integrations.services.
   connection_create (its backfill, which would call Stripe, is not started);
1. serves the project as production does (gunicorn's sync workers on config.wsgi,
   scripts/served.py) and posts --deliveries distinct `charge.succeeded` deliveries, each
   signed as Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256`), from
   --concurrency client threads, after --warmup deliveries left out of the figures. Each
   charge carries the email of a lead of the workspace whose sale has an unpaid balance,
   so it will be placed. No worker runs: the endpoint stores the event and queues its apply
   task, nothing more. Prints p50/p95/p99 latency per delivery and deliveries/s;
   target p95 <= 20 ms;
2. starts ONE worker (`celery -A config worker --concurrency 1`) on the queued tasks and
   waits until every stored event is in a final state (applied or held): events/s,
   target >= 300. With --profile K it instead applies K of the events in this process, in batches
   as the task does, under cProfile, then --sql-sample more capturing their SQL, and prints
   where the time goes.

At the end, in one transaction, it deletes what it added: the payments it made (the
leads' and sales' kept cash refreshed by workspaces.services.leads_sales_refresh, as
before), the connection with its events, and their audit events; then empties the Redis
database and VACUUM ANALYZEs the tables it wrote, so other benchmarks keep their
numbers. A run interrupted before that is cleaned up by the next run (its connection is
made by "bench/webhooks.py"). This is a measurement: a missed target is marked, never fatal.
Results are also written to bench/out/webhooks-results.json.

With --provider zoom, the case of a webinar of --attendees people (5,000) who all join
within a few minutes:

0. a Zoom connection made the same way (its backfill, which would call Zoom, is not
   started), with a random webhook secret token; then, before any timing, one webinar and
   its registrations made as Zoom's deliveries make them: a `webinar.created` and one
   `webinar.registration_created` per attendee, each signed and posted through the
   endpoint in this process (Django's test client) and applied here as the task does. Each
   attendee is an existing lead of the workspace (distinct emails, by id), so no lead is
   made; the webinar's id is new to the workspace;
1. the timed deliveries: per attendee one `webinar.participant_joined` (all within five
   minutes of the start) and one `webinar.participant_left` (an hour later), the joins
   first, in Zoom's documented shape, each signed when posted as Zoom signs
   (`x-zm-signature: v0=HMAC-SHA256(secret token, "v0:{timestamp}:{body}")` with
   `x-zm-request-timestamp`); the first --warmup of them (at most a tenth) are left out;
2. as for Stripe, counting only the participant events.

Its cleanup deletes the registrations, the webinar event, any lead the mapping made (none
is expected), the connection with its events and their audit events, checks that the
workspace's leads, webinar events, registrations (and how many were booked after their
webinar), and the database's connections, events and audit events are counted as before
the run, then empties Redis and VACUUM ANALYZEs. Results go to
bench/out/webhooks-zoom-results.json.

The other event kinds, each timed as above (results in bench/out/webhooks-<provider>-
results.json):

- --provider stripe-refund: --deliveries charges are made first (charge.succeeded
  deliveries posted in-process and applied as the task applies them), then one
  `refund.created` of half of each is timed; stripe-dispute: one lost
  `charge.dispute.closed` of each instead; stripe-named: `charge.succeeded` naming its sale
  in `metadata.sale_id` (no setup). Signed as Stripe signs; the cleanup is Stripe's (the
  refunds go with their payments);
- --provider calendly: --deliveries / 2 existing leads (distinct emails) each book a call
  (`invitee.created`, hosted by a closer of the workspace) and then cancel it
  (`invitee.canceled`), in Calendly's webhook shape, signed as Calendly signs
  (`Calendly-Webhook-Signature: t=…,v1=HMAC-SHA256(signing key, "t.body")`). The cleanup
  deletes the calls, refreshes their leads' registrations' booked-after, and checks the
  workspace's leads, calls, replaced calls and booked-after registrations are as before;
- --provider hubspot: --deliveries `contact.creation` of contacts new to the workspace,
  one a delivery (a JSON array), signed as HubSpot signs (v3: base64 HMAC-SHA256 of
  method + URL + body + X-HubSpot-Request-Timestamp). A webhook names the contact only, so
  the worker reads it through HubSpot's API: the run serves a fake of the batch read
  (`POST /crm/v3/objects/contacts/batch/read`) on 127.0.0.1 (--port + 1) from a thread of
  its own process, and the worker's HUBSPOT_API_BASE points there; nothing leaves the
  machine. The cleanup deletes the leads made (`hubspot:<contact id>`).
"""

import argparse
import base64
import cProfile
import hashlib
import hmac
import http.client
import io
import json
import os
import pstats
import re
import secrets
import statistics
import string
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import code_version, percentile  # noqa: E402

from config.queues import PROVIDERS, queue_name, queue_names  # noqa: E402
from scripts.served import HOST, Server, port_free, production_environment  # noqa: E402

OUT = ROOT / "bench" / "out"
BIN = ROOT / ".venv" / "bin"

P95_TARGET_MS = 20.0
APPLY_TARGET = 300.0
MADE_BY = "bench/webhooks.py"
FINAL = ("applied", "held", "ignored", "dismissed")
# Cents per charge: small enough to leave every chosen sale with an unpaid balance.
AMOUNT = 100
ALPHANUMERIC = string.ascii_letters + string.digits
ZOOM_JOINED = "webinar.participant_joined"
ZOOM_LEFT = "webinar.participant_left"


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database", default="bench_large", help="a database of bench/generate.py")
    p.add_argument(
        "--provider",
        default="stripe",
        choices=(
            "stripe",
            "stripe-refund",
            "stripe-dispute",
            "stripe-named",
            "zoom",
            "calendly",
            "hubspot",
        ),
        help="Stripe's charge.succeeded; refund.created, lost charge.dispute.closed or "
        "charge.succeeded naming its sale; Zoom's participants joining and leaving a webinar; "
        "Calendly's invitee.created then invitee.canceled; HubSpot's contact.creation",
    )
    p.add_argument(
        "--deliveries", type=int, default=2000, help="timed deliveries (Stripe, Calendly, HubSpot)"
    )
    p.add_argument(
        "--attendees",
        type=int,
        default=5000,
        help="with --provider zoom: the webinar's registrants, each of whom joins and leaves "
        "once (two deliveries each; --deliveries is not used)",
    )
    p.add_argument("--warmup", type=int, default=40, help="deliveries before the timed ones")
    p.add_argument("--concurrency", type=int, default=4, help="client threads")
    p.add_argument(
        "--rate",
        type=float,
        default=0,
        help="deliveries per second, each timed from when it is due (default: as fast as the "
        "threads go)",
    )
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    p.add_argument("--port", type=int, default=8785)
    p.add_argument("--redis", default="redis://127.0.0.1:6379", help="Redis server")
    p.add_argument("--redis-db", type=int, default=5, help="Celery's broker: emptied by the run")
    p.add_argument(
        "--max-seconds",
        type=float,
        default=900.0,
        help="give up waiting for the worker after this long (the figures then say how many)",
    )
    p.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="K",
        help="instead of the worker: apply K events in-process, in batches, under cProfile",
    )
    p.add_argument(
        "--profile-endpoint",
        type=int,
        default=0,
        metavar="K",
        help="instead of both phases: K deliveries through Django's test client in-process "
        "under cProfile (no server, no worker)",
    )
    p.add_argument(
        "--sql-sample", type=int, default=100, help="with --profile: events whose SQL is captured"
    )
    p.add_argument("--keep", action="store_true", help="leave the connection and its records")
    args = p.parse_args(argv)
    args.deliveries = max(1, min(args.deliveries, 100_000))
    args.attendees = max(1, min(args.attendees, 50_000))
    args.warmup = max(0, min(args.warmup, 10_000))
    args.concurrency = max(1, min(args.concurrency, 32))
    return args


# --- the machine ---------------------------------------------------------------------------


def cpu_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def busy_between(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total else 0.0


def _processes():
    """(name, process group, CPU jiffies used) of every live process."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        yield (
            stat[stat.index("(") + 1 : stat.rindex(")")],
            int(fields[2]),
            int(fields[11]) + int(fields[12]),
        )


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of a process group."""
    used = sum(cpu for _name, group, cpu in _processes() if group == pgid)
    return used / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU seconds used so far by PostgreSQL's live processes (its backends: any client's)."""
    used = sum(cpu for name, _group, cpu in _processes() if name == "postgres")
    return used / os.sysconf("SC_CLK_TCK")


class Phase:
    """Wall time, load average and the machine's CPU use over a block."""

    def __init__(self, group: Callable[[], int] | None = None):
        # The process group of the server measured; or extra_cpu, the CPU seconds of a
        # process measured (and ended) inside the block.
        self.group = group
        self.extra_cpu = 0.0

    def _ours(self) -> float:
        """CPU seconds of this process, PostgreSQL and the measured process group."""
        own = os.times()
        group = self.group() if self.group else None
        return (
            own.user
            + own.system
            + postgres_cpu_seconds()
            + (group_cpu_seconds(group) if group else 0.0)
        )

    def __enter__(self):
        self.load_before = os.getloadavg()[0]
        self.cpu_before = cpu_busy()
        self.ours_before = self._ours()
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.began
        self.load_after = os.getloadavg()[0]
        after = cpu_busy()
        self.busy = busy_between(self.cpu_before, after)
        ticks = os.sysconf("SC_CLK_TCK")
        busy_seconds = (after[0] - self.cpu_before[0]) / ticks
        # CPU the rest of the machine used meanwhile, in cores (PostgreSQL counts as ours).
        ours = self._ours() - self.ours_before + self.extra_cpu
        self.others = max(0.0, busy_seconds - ours) / self.seconds

    def machine(self) -> dict:
        return {
            "load_before": round(self.load_before, 2),
            "load_after": round(self.load_after, 2),
            "cpu_busy": round(self.busy, 3),
            "other_cores": round(self.others, 2),
        }


# --- Django, in this process -----------------------------------------------------------------


def django_start(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def broker_clear(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def broker_queued(url: str) -> int:
    import redis

    return redis.Redis.from_url(url).llen(queue_name("celery", PROVIDERS))


def leftovers_remove() -> int:
    from integrations.models import Connection

    left = list(Connection.objects.filter(created_by=MADE_BY))
    cleanups = {"zoom": zoom_cleanup, "calendly": calendly_cleanup, "hubspot": hubspot_cleanup}
    for connection in left:
        cleanups.get(connection.provider, cleanup)(connection)
    return len(left)


def _random(length: int, alphabet: str = ALPHANUMERIC) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def _connection_create(workspace_id: str, provider: str, credentials: dict):
    """A connection made by the service; its backfill, which would read the provider's API
    (out of this machine's reach), is not started."""
    from audit.services import SYSTEM
    from integrations import connections, services
    from workspaces.models import Workspace

    workspace = Workspace.objects.get(pk=workspace_id)
    started = connections.backfill_enqueue
    connections.backfill_enqueue = lambda connection_id: None
    try:
        return services.connection_create(
            workspace=workspace,
            provider=provider,
            credentials=credentials,
            actor=SYSTEM,
            created_by=MADE_BY,
        )
    finally:
        connections.backfill_enqueue = started


def connection_make(workspace_id: str):
    """A Stripe connection made by the service, with a webhook signing secret of its own."""
    secret = "whsec_" + _random(32)
    key = "sk_test_" + _random(32)
    connection = _connection_create(
        workspace_id, "stripe", {"secret_key": key, "webhook_secret": secret}
    )
    return connection, secret


def emails_pick(workspace_id: str, count: int) -> list[str]:
    """Emails of leads with a sale that has an unpaid balance (so a charge is placed), each
    lead once; repeated in turn when there are fewer such leads than deliveries."""
    from django.db.models import F

    from workspaces.models import Lead, Sale

    lead_ids = (
        Sale.objects.filter(workspace_id=workspace_id, cash_collected__lt=F("contract_value"))
        .order_by("lead_id")
        .values_list("lead_id", flat=True)
        .distinct()
    )
    emails = list(
        Lead.objects.filter(pk__in=lead_ids)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)[:count]
    )
    if not emails:
        raise SystemExit("The workspace has no lead with an unpaid sale to place charges on.")
    return [emails[i % len(emails)] for i in range(count)]


def deliveries_make(emails: list[str], run: str) -> list[bytes]:
    """Stripe `charge.succeeded` events, one per email, with ids of this run."""
    now = int(time.time())
    bodies = []
    for i, email in enumerate(emails):
        charge = {
            "id": f"ch_bench{run}{i:06d}",
            "object": "charge",
            "amount": AMOUNT,
            "currency": "usd",
            "created": now,
            "status": "succeeded",
            "paid": True,
            "billing_details": {"email": email, "name": None},
            "receipt_email": email,
            "customer": None,
            "metadata": {},
            "refunded": False,
            "amount_refunded": 0,
            "refunds": {"object": "list", "data": []},
        }
        event = {
            "id": f"evt_bench{run}{i:06d}",
            "object": "event",
            "api_version": "2024-06-20",
            "created": now,
            "type": "charge.succeeded",
            "livemode": False,
            "data": {"object": charge},
        }
        bodies.append(json.dumps(event).encode())
    return bodies


def cleanup(connection) -> dict:
    """Delete, in one transaction, what the run added: its payments (the kept cash of their
    leads and sales refreshed as it was), its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.kept import leads_sales_refresh
    from workspaces.models import Payment, Refund

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        charge_ids = list(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
            .distinct()
        )
        payments = Payment.objects.filter(workspace=workspace, external_id__in=charge_ids)
        lead_ids = set(payments.values_list("sale__lead_id", flat=True))
        refunds, _ = Refund.objects.filter(payment__in=payments).delete()
        deleted, _ = payments.delete()
        leads_sales_refresh(workspace=workspace, lead_ids=lead_ids)
        events, audits = connection_forget(connection)
    return {
        "payments": deleted,
        "refunds": refunds,
        "leads_refreshed": len(lead_ids),
        "events": events,
        "audit_events": audits,
    }


def connection_forget(connection) -> tuple[int, int]:
    """Delete the connection with its events, and the audit events about it or by it:
    (events, audit events) removed. Inside the caller's transaction."""
    from django.db.models import Q

    from audit.models import AuditEvent
    from integrations.models import Event

    audits, _ = AuditEvent.objects.filter(
        Q(actor_kind="integration", actor_id=str(connection.pk))
        | Q(target_type="integration_connection", target_id=str(connection.pk))
    ).delete()
    events = Event.objects.filter(connection=connection).count()
    connection.delete()
    return events, audits


def vacuum(tables: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM ANALYZE "{table}"')


# --- Zoom: one webinar, its registrants, their joins and leaves -----------------------------


def zoom_connection_make(workspace_id: str):
    """A Zoom connection made by the service, with a webhook secret token of its own; its
    account ID too (the deliveries carry it)."""
    secret = _random(32)
    account_id = _random(22, ALPHANUMERIC + "-_")
    credentials = {
        "account_id": account_id,
        "client_id": _random(22),
        "client_secret": _random(32),
        "webhook_secret_token": secret,
    }
    return _connection_create(workspace_id, "zoom", credentials), secret, account_id


def zoom_headers(body: bytes, secret: str) -> dict:
    """Signed now, as Zoom signs: v0=HMAC-SHA256(secret token, "v0:{timestamp}:{body}")."""
    timestamp = str(int(time.time()))
    message = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return {"x-zm-signature": f"v0={digest}", "x-zm-request-timestamp": timestamp}


def attendees_pick(workspace_id: str, count: int) -> list[tuple[str, str]]:
    """(email, name) of `count` leads of the workspace, by id, with distinct emails: each
    registration finds its lead by email, so no lead is made."""
    from workspaces.models import Lead

    rows = (
        Lead.objects.filter(workspace_id=workspace_id)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", "name")[: count * 2]
    )
    picked = {}
    for email, name in rows:
        picked.setdefault(email.strip().lower(), name)
        if len(picked) == count:
            return list(picked.items())
    raise SystemExit(
        f"The workspace has {len(picked):,} leads with distinct emails among the "
        f"first {count * 2:,}; --attendees {count:,} needs that many."
    )


def _zoom_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def zoom_webinar(workspace_id: str, run: str) -> dict:
    """Zoom's webinar object for a webinar new to the workspace, which started 75 minutes
    ago and lasts an hour."""
    from workspaces.models import WebinarEvent

    while True:
        webinar_id = 80_000_000_000 + secrets.randbelow(10**10)
        known = WebinarEvent.objects.filter(workspace_id=workspace_id, external_id=str(webinar_id))
        if not known.exists():
            break
    start = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=75)
    return {
        "uuid": base64.b64encode(secrets.token_bytes(16)).decode(),
        "id": webinar_id,
        "host_id": _random(22),
        "topic": f"Benchmark webinar {run}",
        "type": 5,
        "start_time": _zoom_time(start),
        "duration": 60,
        "timezone": "UTC",
    }


def _zoom_body(event_type: str, sent: datetime, account_id: str, obj: dict, **extra) -> bytes:
    payload = {"account_id": account_id, **extra, "object": obj}
    # Zoom sends an event a moment after it happened.
    return json.dumps(
        {"event": event_type, "event_ts": _ms(sent) + 350, "payload": payload}
    ).encode()


class Attendee:
    """One registrant: their ids at Zoom and their times."""

    def __init__(self, i: int, count: int, email: str, name: str, start: datetime):
        self.email, self.name = email, name
        self.registrant_id = _random(22, ALPHANUMERIC + "-_")
        self.participant_id = _random(22)
        self.participant_uuid = str(uuid.uuid4()).upper()
        self.user_id = str(16_778_240 + i)
        # Registered over the week before; all join within five minutes of the start (two
        # early), and leave an hour later.
        self.registered = start - timedelta(days=7) + (timedelta(days=7, hours=-1) * i) / count
        self.joined = start - timedelta(minutes=2) + (timedelta(minutes=5) * i) / count
        self.left = self.joined + timedelta(hours=1)


def zoom_setup_bodies(webinar: dict, attendees: list, account_id: str) -> list[bytes]:
    """webinar.created, then one webinar.registration_created per attendee."""
    start = datetime.fromisoformat(webinar["start_time"])
    created = start - timedelta(days=8)
    host = {"operator": "host@example.test", "operator_id": webinar["host_id"]}
    bodies = [_zoom_body("webinar.created", created, account_id, webinar, **host)]
    for person in attendees:
        first, _, last = person.name.partition(" ")
        registrant = {
            "id": person.registrant_id,
            "first_name": first,
            "last_name": last,
            "email": person.email,
            "status": "approved",
            "join_url": f"https://zoom.us/w/{webinar['id']}?tk={person.registrant_id}",
        }
        obj = {**webinar, "registrant": registrant}
        bodies.append(
            _zoom_body("webinar.registration_created", person.registered, account_id, obj)
        )
    return bodies


def zoom_participant_bodies(webinar: dict, attendees: list, account_id: str) -> list[bytes]:
    """One webinar.participant_joined per attendee, then one webinar.participant_left each,
    in Zoom's documented shape (the webinar's id a string, as these events carry it)."""
    bodies = {ZOOM_JOINED: [], ZOOM_LEFT: []}
    for person in attendees:
        participant = {
            "user_id": person.user_id,
            "user_name": person.name,
            "id": person.participant_id,
            "participant_uuid": person.participant_uuid,
            "email": person.email,
            "registrant_id": person.registrant_id,
            "participant_user_id": "",
            "customer_key": "",
            "phone_number": "",
        }
        for event_type, at, extra in (
            (ZOOM_JOINED, person.joined, {"join_time": _zoom_time(person.joined)}),
            (
                ZOOM_LEFT,
                person.left,
                {"leave_time": _zoom_time(person.left), "leave_reason": "left the webinar."},
            ),
        ):
            obj = {**webinar, "id": str(webinar["id"]), "participant": {**participant, **extra}}
            bodies[event_type].append(_zoom_body(event_type, at, account_id, obj))
    return bodies[ZOOM_JOINED] + bodies[ZOOM_LEFT]


def zoom_setup(connection, secret: str, webinar: dict, bodies: list[bytes]) -> dict:
    """The webinar and its registrations, made before any timing as Zoom's deliveries make
    them (in_process_apply)."""
    from workspaces.models import Registration

    setup = in_process_apply(
        connection, f"/hooks/zoom/{connection.pk}", bodies, lambda body: zoom_headers(body, secret)
    )
    registrations = Registration.objects.filter(
        workspace_id=connection.workspace_id, event__external_id=str(webinar["id"])
    )
    return {
        "webinar": webinar["id"],
        "registrations": registrations.count(),
        "leads_made": registrations.filter(lead__external_id__startswith="zoom:").count(),
        **setup,
    }


def zoom_counts(workspace_id: str) -> dict:
    """What a Zoom run must leave as it found it."""
    from audit.models import AuditEvent
    from integrations.models import Connection, Event
    from workspaces.models import Lead, Registration, WebinarEvent

    registrations = Registration.objects.filter(workspace_id=workspace_id)
    return {
        "leads": Lead.objects.filter(workspace_id=workspace_id).count(),
        "webinar_events": WebinarEvent.objects.filter(workspace_id=workspace_id).count(),
        "registrations": registrations.count(),
        "registrations_booked_after": registrations.filter(booked_after=True).count(),
        "connections": Connection.objects.count(),
        "events": Event.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


def zoom_cleanup(connection) -> dict:
    """Delete, in one transaction, what a Zoom run added: the registrations and webinar
    events of the webinars its events name, the leads its mapping made (`zoom:<email>`), its
    connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.models import Lead, Registration, WebinarEvent

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        # A webinar's events name it; a person's, "<webinar>|<email>".
        objects = set(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
            .distinct()
        )
        webinar_ids = {item.split("|", 1)[0] for item in objects}
        made = [f"zoom:{item.split('|', 1)[1]}" for item in objects if "|" in item]
        webinars = WebinarEvent.objects.filter(workspace=workspace, external_id__in=webinar_ids)
        registrations, _ = Registration.objects.filter(event__in=webinars).delete()
        webinar_events, _ = webinars.delete()
        _, leads = Lead.objects.filter(workspace=workspace, external_id__in=made).delete()
        events, audits = connection_forget(connection)
    return {
        "registrations": registrations,
        "webinar_events": webinar_events,
        "leads": leads.get("workspaces.Lead", 0),
        "events": events,
        "audit_events": audits,
    }


# --- Stripe: refunds, lost disputes and charges naming their sale ----------------------------


def in_process_apply(connection, path: str, bodies: list[bytes], headers: Callable) -> dict:
    """Post each body signed through the endpoint in this process (Django's test client, no
    server), then apply the stored events here as the worker's task applies them: the
    records a timed run starts from, made as the provider's deliveries make them."""
    from django.db.models import Count
    from django.test import Client

    from integrations import services
    from integrations.models import Event

    client = Client(HTTP_HOST=HOST)
    began = time.perf_counter()
    for body in bodies:
        answer = client.post(path, body, content_type="application/json", headers=headers(body))
        if answer.status_code != 200 or answer.json() != {"received": True}:
            raise SystemExit(f"The endpoint answered {answer.status_code}: {answer.content[:300]}")
    delivered = time.perf_counter() - began
    began = time.perf_counter()
    taken = services.events_apply(connection_id=connection.pk)
    applied = time.perf_counter() - began
    states = dict(
        Event.objects.filter(connection=connection)
        .values("state")
        .annotate(n=Count("pk"))
        .values_list("state", "n")
    )
    if states != {"applied": len(bodies)}:
        raise SystemExit(f"The setup's deliveries were not all applied: {states}")
    return {
        "deliveries": len(bodies),
        "seconds_delivering": round(delivered, 3),
        "seconds_applying": round(applied, 3),
        "applied_per_second": taken / applied if applied else 0.0,
    }


def _stripe_event(event_id: str, event_type: str, obj: dict, created: int) -> bytes:
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "api_version": "2024-06-20",
            "created": created,
            "type": event_type,
            "livemode": False,
            "data": {"object": obj},
        }
    ).encode()


def refund_bodies(count: int, run: str, kind: str) -> list[bytes]:
    """One `refund.created` (half the charge) or one lost `charge.dispute.closed` (all of
    it) per charge of the setup (deliveries_make's ids)."""
    now = int(time.time())
    bodies = []
    for i in range(count):
        charge_id = f"ch_bench{run}{i:06d}"
        if kind == "refund":
            refund = {
                "id": f"re_bench{run}{i:06d}",
                "object": "refund",
                "amount": AMOUNT // 2,
                "charge": charge_id,
                "currency": "usd",
                "created": now,
                "status": "succeeded",
                "reason": "requested_by_customer",
                "metadata": {},
            }
            bodies.append(_stripe_event(f"evt_benchre{run}{i:06d}", "refund.created", refund, now))
        else:
            dispute = {
                "id": f"dp_bench{run}{i:06d}",
                "object": "dispute",
                "amount": AMOUNT,
                "charge": charge_id,
                "currency": "usd",
                "created": now - 86400,
                "status": "lost",
                "reason": "fraudulent",
                "metadata": {},
            }
            bodies.append(
                _stripe_event(f"evt_benchdp{run}{i:06d}", "charge.dispute.closed", dispute, now)
            )
    return bodies


def sales_pick(workspace_id: str, count: int) -> list[tuple[str, str]]:
    """(sale id, lead email) of sales with an unpaid balance, each once; repeated in turn
    when there are fewer."""
    from django.db.models import F

    from workspaces.models import Sale

    rows = list(
        Sale.objects.filter(workspace_id=workspace_id, cash_collected__lt=F("contract_value"))
        .order_by("pk")
        .values_list("pk", "lead__email")[:count]
    )
    if not rows:
        raise SystemExit("The workspace has no sale with an unpaid balance.")
    return [(str(rows[i % len(rows)][0]), rows[i % len(rows)][1]) for i in range(count)]


def named_bodies(sales: list[tuple[str, str]], run: str) -> list[bytes]:
    """`charge.succeeded` naming its sale in the metadata (`sale_id`, the sale's id)."""
    now = int(time.time())
    bodies = []
    for i, (sale_id, email) in enumerate(sales):
        charge = {
            "id": f"ch_benchnm{run}{i:06d}",
            "object": "charge",
            "amount": AMOUNT,
            "currency": "usd",
            "created": now,
            "status": "succeeded",
            "paid": True,
            "billing_details": {"email": email, "name": None},
            "receipt_email": email,
            "customer": None,
            "metadata": {"sale_id": sale_id},
            "refunded": False,
            "amount_refunded": 0,
            "refunds": {"object": "list", "data": []},
        }
        bodies.append(_stripe_event(f"evt_benchnm{run}{i:06d}", "charge.succeeded", charge, now))
    return bodies


# --- Calendly: invitees booked, then cancelled ---------------------------------------------------


def calendly_connection_make(workspace_id: str):
    """A Calendly connection made by the service with a webhook signing key of its own (so
    it subscribes to nothing at Calendly)."""
    secret = _random(40)
    part = lambda n: _random(n, ALPHANUMERIC + "-_")  # noqa: E731
    token = f"eyJ{part(30)}.{part(60)}.{part(40)}"
    credentials = {"personal_access_token": token, "webhook_signing_key": secret}
    return _connection_create(workspace_id, "calendly", credentials), secret


def calendly_headers(body: bytes, secret: str) -> dict:
    """Signed now, as Calendly signs: t=<time>,v1=HMAC-SHA256(signing key, "t.body")."""
    return {"Calendly-Webhook-Signature": sign(body, secret)}


def closer_email(workspace_id: str) -> str:
    from workspaces.models import Member

    email = (
        Member.objects.filter(workspace_id=workspace_id, role="closer")
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)
        .first()
    )
    return email or "host@example.test"


def calendly_bodies(attendees: list[tuple[str, str]], host: str, run: str) -> list[bytes]:
    """Per person one `invitee.created` (an existing lead's email, a call two days ahead),
    then one `invitee.canceled` each, in Calendly's webhook shape (v2)."""
    api = "https://api.calendly.com"
    now = datetime.now(UTC).replace(microsecond=0)
    created, cancelled = [], []
    for i, (email, name) in enumerate(attendees):
        event_uri = f"{api}/scheduled_events/BENCH{run}{i:06d}"
        start = now + timedelta(days=2, minutes=30 * (i % 40))
        booked = now - timedelta(seconds=5)
        invitee = {
            "uri": f"{event_uri}/invitees/INV{run}{i:06d}",
            "email": email,
            "name": name,
            "first_name": None,
            "last_name": None,
            "status": "active",
            "timezone": "UTC",
            "questions_and_answers": [],
            "created_at": booked.isoformat().replace("+00:00", ".000000Z"),
            "updated_at": booked.isoformat().replace("+00:00", ".000000Z"),
            "rescheduled": False,
            "old_invitee": None,
            "new_invitee": None,
            "cancel_url": f"https://calendly.com/cancellations/INV{run}{i:06d}",
            "reschedule_url": f"https://calendly.com/reschedulings/INV{run}{i:06d}",
            "tracking": {
                "utm_source": None,
                "utm_medium": None,
                "utm_campaign": None,
                "utm_content": None,
                "utm_term": None,
                "salesforce_uuid": None,
            },
            "no_show": None,
            "reconfirmation": None,
            "payment": None,
            "scheduled_event": {
                "uri": event_uri,
                "name": "Sales call",
                "status": "active",
                "start_time": start.isoformat().replace("+00:00", ".000000Z"),
                "end_time": (start + timedelta(minutes=30))
                .isoformat()
                .replace("+00:00", ".000000Z"),
                "event_type": f"{api}/event_types/BENCH",
                "location": {"type": "zoom"},
                "event_memberships": [{"user": f"{api}/users/BENCHHOST", "user_email": host}],
            },
        }
        sent = now.isoformat().replace("+00:00", ".000000Z")
        created.append(
            json.dumps(
                {
                    "event": "invitee.created",
                    "created_at": sent,
                    "created_by": f"{api}/users/BENCHHOST",
                    "payload": invitee,
                }
            ).encode()
        )
        gone = {
            **invitee,
            "status": "canceled",
            "cancellation": {"canceled_by": name, "reason": "", "canceler_type": "invitee"},
        }
        later = (now + timedelta(seconds=1)).isoformat().replace("+00:00", ".000000Z")
        cancelled.append(
            json.dumps(
                {
                    "event": "invitee.canceled",
                    "created_at": later,
                    "created_by": f"{api}/users/BENCHHOST",
                    "payload": gone,
                }
            ).encode()
        )
    return created + cancelled


def calendly_counts(workspace_id: str) -> dict:
    """What a Calendly run must leave as it found it."""
    from audit.models import AuditEvent
    from integrations.models import Connection, Event
    from workspaces.models import Call, Lead, Registration

    return {
        "leads": Lead.objects.filter(workspace_id=workspace_id).count(),
        "calls": Call.objects.filter(workspace_id=workspace_id).count(),
        "calls_replaced": Call.objects.filter(workspace_id=workspace_id, replaced=True).count(),
        "registrations_booked_after": Registration.objects.filter(
            workspace_id=workspace_id, booked_after=True
        ).count(),
        "connections": Connection.objects.count(),
        "events": Event.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


def calendly_cleanup(connection) -> dict:
    """Delete, in one transaction, what a Calendly run added: the calls of the invitees its
    events name (their leads' registrations' booked-after refreshed), the leads its mapping
    made (`calendly:<email>`, none expected), its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.kept import calls_replaced_refresh, registrations_booked_refresh
    from workspaces.models import Call, Lead

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        events = Event.objects.filter(connection=connection)
        uris = set(events.exclude(object_id="").values_list("object_id", flat=True).distinct())
        emails = {
            str(((p or {}).get("payload") or {}).get("email") or "").strip().lower()
            for p in events.values_list("payload", flat=True)
        }
        calls = Call.objects.filter(workspace=workspace, external_id__in=uris)
        lead_ids = set(calls.values_list("lead_id", flat=True))
        removed, _ = calls.delete()
        made = Lead.objects.filter(
            workspace=workspace, external_id__in=[f"calendly:{e}" for e in emails if e]
        )
        _, leads = made.delete()
        registrations_booked_refresh(workspace=workspace, lead_ids=lead_ids)
        calls_replaced_refresh(workspace=workspace)
        events_count, audits = connection_forget(connection)
    return {
        "calls": removed,
        "leads": leads.get("workspaces.Lead", 0),
        "events": events_count,
        "audit_events": audits,
    }


# --- HubSpot: contacts created, read from a local fake of HubSpot's API ----------------------


def hubspot_connection_make(workspace_id: str):
    """A HubSpot connection made by the service; its app client secret signs the deliveries."""
    secret = str(uuid.uuid4())
    token = f"pat-na1-{uuid.uuid4()}"
    credentials = {"access_token": token, "client_secret": secret}
    return _connection_create(workspace_id, "hubspot", credentials), secret


def hubspot_headers(body: bytes, secret: str, uri: str) -> dict:
    """Signed now, as HubSpot signs (v3): base64(HMAC-SHA256(client secret, "POST" + URI +
    body + timestamp in ms))."""
    timestamp = str(int(time.time() * 1000))
    message = b"POST" + uri.encode() + body + timestamp.encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return {
        "X-HubSpot-Signature-v3": base64.b64encode(digest).decode(),
        "X-HubSpot-Request-Timestamp": timestamp,
    }


class FakeHubSpot:
    """HubSpot's contacts batch read (`POST /crm/v3/objects/contacts/batch/read`), served
    on 127.0.0.1 from a thread of this process, for the contacts of the run: the worker's
    HUBSPOT_API_BASE points here, so no request leaves the machine."""

    def __init__(self, port: int, contacts: dict[str, dict]):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        fake = self
        self.contacts, self.calls, self.ids = contacts, 0, 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"] or 0)))
                if self.path.split("?")[0] != "/crm/v3/objects/contacts/batch/read":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                ids = [str(item["id"]) for item in body.get("inputs", [])]
                fake.calls += 1
                fake.ids += len(ids)
                stamp = datetime.now(UTC).isoformat().replace("+00:00", "Z")
                answer = json.dumps(
                    {
                        "status": "COMPLETE",
                        "results": [fake.contacts[i] for i in ids if i in fake.contacts],
                        "startedAt": stamp,
                        "completedAt": stamp,
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json;charset=utf-8")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer((HOST, port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def hubspot_contacts(count: int, run: str) -> dict[str, dict]:
    """`count` contacts new to the workspace (emails of the run), as HubSpot's API gives them."""
    base = 900_000_000_000 + secrets.randbelow(10**10)
    created = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=30)
    stamp = created.isoformat().replace("+00:00", ".000Z")
    contacts = {}
    for i in range(count):
        contact_id = str(base + i)
        contacts[contact_id] = {
            "id": contact_id,
            "properties": {
                "createdate": stamp,
                "email": f"hs{run}{i:06d}@bench.example.test",
                "firstname": f"Bench{i}",
                "lastname": f"Contact{run}",
                "hs_object_id": contact_id,
                "lastmodifieddate": stamp,
                "utm_source": "bench",
                "utm_medium": None,
                "utm_campaign": None,
                "utm_content": None,
            },
            "createdAt": stamp,
            "updatedAt": stamp,
            "archived": False,
        }
    return contacts


def hubspot_bodies(contacts: dict[str, dict]) -> list[bytes]:
    """One `contact.creation` per contact, each in a delivery of its own (a JSON array, as
    HubSpot sends them)."""
    now = int(time.time() * 1000)
    first = secrets.randbelow(10**12)
    bodies = []
    for i, contact_id in enumerate(contacts):
        event = {
            "eventId": first + i,
            "subscriptionId": 2_345_678,
            "portalId": 62_515,
            "appId": 1_234_567,
            "occurredAt": now - 20_000 + i,
            "subscriptionType": "contact.creation",
            "attemptNumber": 0,
            "objectId": int(contact_id),
            "changeFlag": "CREATED",
            "changeSource": "CRM",
            "sourceId": "userId:123",
        }
        bodies.append(json.dumps([event]).encode())
    return bodies


def hubspot_cleanup(connection) -> dict:
    """Delete, in one transaction, the leads a HubSpot run made (`hubspot:<contact id>`),
    its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.models import Lead

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        ids = set(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
        )
        _, leads = Lead.objects.filter(
            workspace=connection.workspace, external_id__in=[f"hubspot:{i}" for i in ids]
        ).delete()
        events, audits = connection_forget(connection)
    return {"leads": leads.get("workspaces.Lead", 0), "events": events, "audit_events": audits}


# --- phase 1: the endpoint --------------------------------------------------------------------


def sign(body: bytes, secret: str) -> str:
    timestamp = int(time.time())
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def post(port: int, path: str, body: bytes, signed: Callable) -> tuple[float, int, bytes]:
    """One delivery, signed now (`signed(body)`: its signature headers); (milliseconds,
    status, body). A new connection each time, as the providers' deliveries come."""
    headers = {"Content-Type": "application/json", **signed(body)}
    began = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        answer = response.read()
    finally:
        conn.close()
    return (time.perf_counter() - began) * 1000, response.status, answer


def deliver_all(
    port: int, path: str, bodies: list[bytes], signed: Callable, threads: int, rate: float = 0
):
    """Post every body from `threads` client threads; (latencies in ms, failures, seconds).

    Without `rate`, each thread posts its next body as soon as the last is answered (the
    endpoint at its limit). With `rate`, body i is due i/rate seconds after the start, as
    deliveries arriving at that rate would be, and its latency counts from when it was due,
    so time spent waiting behind slower answers counts too."""
    latencies, failures = [], []
    lock = threading.Lock()
    queue = list(reversed(list(enumerate(bodies))))
    began = time.perf_counter()

    def work():
        while True:
            with lock:
                if not queue:
                    return
                index, body = queue.pop()
            due = began + index / rate if rate else None
            if due is not None and due > time.perf_counter():
                time.sleep(due - time.perf_counter())
            took, status, answer = post(port, path, body, signed)
            if due is not None:
                took = (time.perf_counter() - due) * 1000
            with lock:
                if status == 200 and json.loads(answer) == {"received": True}:
                    latencies.append(took)
                else:
                    failures.append((status, answer[:200]))

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies, failures, time.perf_counter() - began


def endpoint_phase(args, env, run, bodies) -> dict:
    if not port_free(args.port):
        raise SystemExit(f"Port {args.port} on {HOST} is in use; pass --port.")
    path = f"/hooks/{run.key}/{run.connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    server = Server(
        env,
        port=args.port,
        workers=args.workers,
        log_path=OUT / f"gunicorn-{args.port}.log",
    )
    try:
        server.wait_ready(
            lambda: (
                post(
                    args.port,
                    f"/hooks/{run.key}/00000000-0000-0000-0000-000000000000",
                    b"{}",
                    run.headers,
                )[1]
                == 404
            )
        )
        _lat, failed, _s = deliver_all(args.port, path, warm, run.headers, args.concurrency)
        if failed:
            raise SystemExit(f"Warm-up deliveries refused: {failed[:3]}")
        cpu_before = group_cpu_seconds(server.proc.pid)
        with Phase(lambda: server.proc.pid) as phase:
            latencies, failures, seconds = deliver_all(
                args.port, path, timed, run.headers, args.concurrency, args.rate
            )
        server_cpu = group_cpu_seconds(server.proc.pid) - cpu_before
    finally:
        server.stop()
    if failures:
        print(f"  {len(failures)} deliveries not accepted, e.g. {failures[:3]}", flush=True)
    row = {
        "deliveries": len(timed),
        "warmup": len(warm),
        "accepted": len(latencies),
        "failed": len(failures),
        "seconds": round(seconds, 3),
        "per_second": len(latencies) / seconds if seconds else 0.0,
        "p50": statistics.median(latencies) if latencies else None,
        "p95": percentile(latencies, 0.95) if latencies else None,
        "p99": percentile(latencies, 0.99) if latencies else None,
        "max": max(latencies) if latencies else None,
        "client_threads": args.concurrency,
        "rate": args.rate,
        "gunicorn_workers": args.workers,
        "server_cpu_seconds": round(server_cpu, 2),
        **phase.machine(),
    }
    return row


# --- phase 2: the worker ----------------------------------------------------------------------


def events_done(connection_id, types: tuple | None = None) -> tuple[int, dict]:
    """Events of the connection (of these types) in a final state, and the count per state."""
    from django.db.models import Count

    from integrations.models import Event

    events = Event.objects.filter(connection_id=connection_id)
    if types is not None:
        events = events.filter(event_type__in=types)
    states = dict(events.values_list("state").annotate(n=Count("pk")).values_list("state", "n"))
    return sum(n for state, n in states.items() if state in FINAL), states


def worker_phase(args, env, run, total: int) -> dict:
    from django.db.models import Max, Min
    from django.utils import timezone

    from audit.models import AuditEvent

    connection = run.connection
    log = open(OUT / run.worker_log, "w")  # noqa: SIM115 - closed below
    samples = []  # (seconds since the worker started, events in a final state)
    # Outcomes audited before (a Zoom run's webinar and registrations) are not the worker's.
    started = timezone.now()
    with Phase() as phase:
        began = time.perf_counter()
        worker = subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "--queues",
                ",".join(queue_names("celery")),
                "--loglevel",
                "WARNING",
                "--without-mingle",
                "--without-gossip",
            ],
            cwd=ROOT,
            env={**env, "CELERY_TASK_ALWAYS_EAGER": "false"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        cpu_before = 0.0
        try:
            while True:
                done, states = events_done(connection.pk, run.types)
                samples.append((time.perf_counter() - began, done))
                if done == 0:
                    # The worker's start (importing Django and the apps) is left out.
                    cpu_before = group_cpu_seconds(worker.pid)
                if done >= total or worker.poll() is not None:
                    break
                if time.perf_counter() - began > args.max_seconds:
                    print(f"  gave up after {args.max_seconds:g} s", flush=True)
                    break
                time.sleep(0.1)
            phase.extra_cpu = group_cpu_seconds(worker.pid)
            worker_cpu = phase.extra_cpu - cpu_before
        finally:
            if worker.poll() is None:
                os.killpg(worker.pid, 15)
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, 9)
                    worker.wait()
            log.close()
    first = next(((t, n) for t, n in samples if n > 0), None)
    last_t, last_n = samples[-1]
    # The audit event of each outcome is stamped in its transaction: the span from the
    # first to the last is the apply alone, without the worker's start.
    span = AuditEvent.objects.filter(
        actor_kind="integration", actor_id=str(connection.pk), at__gte=started
    ).aggregate(first=Min("at"), last=Max("at"))
    audit_seconds = (
        (span["last"] - span["first"]).total_seconds() if span["first"] is not None else 0.0
    )
    row = {
        "events": total,
        "final": last_n,
        "states": states,
        "seconds_from_start": round(last_t, 3),
        "seconds_to_first": round(first[0], 3) if first else None,
        "per_second_from_start": last_n / last_t if last_t else 0.0,
        "per_second": (last_n - first[1]) / (last_t - first[0])
        if first and last_t > first[0]
        else 0.0,
        "per_second_audit_span": (last_n - 1) / audit_seconds if audit_seconds else 0.0,
        "worker_cpu_seconds": round(worker_cpu, 2),
        **phase.machine(),
    }
    return row


# --- or a profile of the batched apply, in-process -----------------------------------------------


_LITERALS = re.compile(r"'(?:[^']|'')*'|\b\d+\b")


def statement_shape(sql: str) -> str:
    """A statement without its values, so the same query of different events groups."""
    shape = _LITERALS.sub("?", sql)
    shape = re.sub(r"\(\?(?:, \?)+\)", "(?…)", shape)
    return shape if len(shape) <= 240 else shape[:237] + "…"


def profile_phase(args, connection) -> dict:
    from django.db import connection as db

    from integrations import services
    from integrations.models import Connection, Event

    pending = Event.objects.filter(connection=connection, state="received").count()
    profiled = min(args.profile, pending)
    sampled = min(args.sql_sample, pending - profiled)
    connection = Connection.objects.select_related("workspace").get(pk=connection.pk)

    def apply_batches(count: int) -> None:
        """As the worker's task does, in batches of BATCH_SIZE, the oldest first."""
        while count > 0:
            size = min(services.BATCH_SIZE, count)
            taken, _ = services.events_apply_batch(connection=connection, size=size, skipped=set())
            if not taken:
                return
            count -= taken

    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    apply_batches(profiled)
    profiler.disable()
    seconds = time.perf_counter() - began
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.dump_stats(str(OUT / "webhooks-apply.prof"))
    stats.sort_stats("cumulative").print_stats(35)
    stats.sort_stats("tottime").print_stats(20)
    shapes = defaultdict(lambda: [0, 0.0])
    statements = [0]

    def timed(execute, sql, params, many, context):
        # Django's own capture rounds each statement's time to the millisecond.
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            shape = shapes[statement_shape(sql % tuple("?" for _ in params or ()))]
            shape[0] += 1
            shape[1] += time.perf_counter() - began
            statements[0] += 1

    commit = db._commit

    def commit_timed():
        began = time.perf_counter()
        try:
            return commit()
        finally:
            shapes["COMMIT"][0] += 1
            shapes["COMMIT"][1] += time.perf_counter() - began

    db._commit = commit_timed
    sql_began = time.perf_counter()
    try:
        with db.execute_wrapper(timed):
            apply_batches(sampled)
    finally:
        db._commit = commit
    sql_wall = time.perf_counter() - sql_began
    ranked = sorted(shapes.items(), key=lambda item: -item[1][1])
    return {
        "events": profiled,
        "seconds": round(seconds, 3),
        "per_second": profiled / seconds if seconds else 0.0,
        "profile": text.getvalue(),
        "sql_events": sampled,
        "sql_wall_ms_per_event": sql_wall * 1000 / sampled if sampled else None,
        "queries_per_event": statements[0] / sampled if sampled else None,
        "sql": [
            {"statement": s, "count": n, "ms_per_event": t * 1000 / sampled} for s, (n, t) in ranked
        ]
        if sampled
        else [],
    }


def endpoint_profile(args, run, bodies) -> dict:
    """The endpoint's own work, in-process (Django's test client, no server): cProfile."""
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    path = f"/hooks/{run.key}/{run.connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    for body in warm:
        answer = client.post(path, body, content_type="application/json", headers=run.headers(body))
        if answer.status_code != 200:
            raise SystemExit(f"The endpoint answered {answer.status_code}: {answer.content[:300]}")
    signed = [(body, run.headers(body)) for body in timed]
    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    for body, headers in signed:
        client.post(path, body, content_type="application/json", headers=headers)
    profiler.disable()
    seconds = time.perf_counter() - began
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.dump_stats(str(OUT / "webhooks-endpoint.prof"))
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(20)
    return {"deliveries": len(signed), "seconds": round(seconds, 3), "profile": text.getvalue()}


# --- what differs between the providers ------------------------------------------------------


class StripeRun:
    """A run of Stripe's `charge.succeeded` deliveries: its connection, its signature, the
    deliveries it times and what it removes."""

    key, name = "stripe", "Stripe"
    delivered = "charge.succeeded"
    types = None  # the event types measured: every event of the connection
    worker_log = "webhooks-worker.log"
    results = "webhooks-results.json"
    tables = [
        "workspaces_payment",
        "workspaces_sale",
        "workspaces_lead",
        "audit_auditevent",
        "integrations_event",
        "integrations_connection",
    ]

    def __init__(self, args, info: dict):
        self.args, self.info = args, info
        self.connection = self.secret = None

    def headers(self, body: bytes) -> dict:
        return {"Stripe-Signature": sign(body, self.secret)}

    def connect(self) -> None:
        self.connection, self.secret = connection_make(self.info["workspace_id"])

    def prepare(self, result: dict) -> list[bytes]:
        """The deliveries to post, the warm-up ones first."""
        args = self.args
        total = args.warmup + (args.profile_endpoint or args.deliveries)
        emails = emails_pick(self.info["workspace_id"], total)
        bodies = deliveries_make(emails, secrets.token_hex(4))
        print(
            f"{args.database}: {total:,} charge.succeeded deliveries to {self.connection.pk} "
            f"({len(set(emails)):,} leads)",
            flush=True,
        )
        return bodies

    def cleanup(self) -> dict:
        return cleanup(self.connection)


class ZoomRun(StripeRun):
    """A run of Zoom's participants of one webinar: the webinar and its registrations made
    first, then each attendee's join and leave timed."""

    key, name = "zoom", "Zoom"
    delivered = f"{ZOOM_JOINED} / {ZOOM_LEFT}"
    types = (ZOOM_JOINED, ZOOM_LEFT)
    worker_log = "webhooks-zoom-worker.log"
    results = "webhooks-zoom-results.json"
    tables = [
        "workspaces_registration",
        "workspaces_webinarevent",
        "workspaces_lead",
        "audit_auditevent",
        "integrations_event",
        "integrations_connection",
    ]

    def headers(self, body: bytes) -> dict:
        return zoom_headers(body, self.secret)

    def connect(self) -> None:
        self.before = zoom_counts(self.info["workspace_id"])
        made = zoom_connection_make(self.info["workspace_id"])
        self.connection, self.secret, self.account_id = made

    def prepare(self, result: dict) -> list[bytes]:
        args = self.args
        workspace_id = self.info["workspace_id"]
        # --profile-endpoint K: enough attendees for the warm-up and K deliveries, and no
        # registrations (the endpoint stores a delivery whatever the records).
        count = args.attendees
        if args.profile_endpoint:
            count = (args.warmup + args.profile_endpoint + 1) // 2
        picked = attendees_pick(workspace_id, count)
        webinar = zoom_webinar(workspace_id, secrets.token_hex(4))
        start = datetime.fromisoformat(webinar["start_time"])
        attendees = [
            Attendee(i, len(picked), email, name, start) for i, (email, name) in enumerate(picked)
        ]
        if not args.profile_endpoint:
            print(
                f"{args.database}: webinar {webinar['id']} and {count:,} registrations of "
                f"existing leads, by {count + 1:,} signed deliveries applied in-process…",
                flush=True,
            )
            setup_bodies = zoom_setup_bodies(webinar, attendees, self.account_id)
            result["setup"] = zoom_setup(self.connection, self.secret, webinar, setup_bodies)
        bodies = zoom_participant_bodies(webinar, attendees, self.account_id)
        if args.profile_endpoint:
            bodies = bodies[: args.warmup + args.profile_endpoint]
        else:
            # Every attendee joins and leaves once: the warm-up is the first of those.
            args.warmup = min(args.warmup, len(bodies) // 10)
        print(
            f"{args.database}: {len(bodies):,} {self.delivered} deliveries "
            f"({count:,} attendees) to {self.connection.pk}",
            flush=True,
        )
        return bodies

    def cleanup(self) -> dict:
        removed = zoom_cleanup(self.connection)
        after = zoom_counts(self.info["workspace_id"])
        removed["changed"] = {
            name: [self.before[name], value]
            for name, value in after.items()
            if value != self.before[name]
        }
        return removed


class StripeRefundRun(StripeRun):
    """Refunds of charges made before the timing (as Stripe's deliveries make them): one
    `refund.created` per charge."""

    key, name = "stripe", "Stripe refunds"
    kind = "refund"
    delivered = "refund.created"
    types = ("refund.created",)
    worker_log = "webhooks-stripe-refund-worker.log"
    results = "webhooks-stripe-refund-results.json"
    tables = ["workspaces_refund", *StripeRun.tables]

    def prepare(self, result: dict) -> list[bytes]:
        args = self.args
        total = args.warmup + (args.profile_endpoint or args.deliveries)
        run = secrets.token_hex(4)
        emails = emails_pick(self.info["workspace_id"], total)
        print(
            f"{args.database}: {total:,} charges to refund, by signed charge.succeeded "
            "deliveries applied in-process…",
            flush=True,
        )
        result["setup"] = {
            "what": f"{total:,} charges (charge.succeeded)",
            **in_process_apply(
                self.connection,
                f"/hooks/stripe/{self.connection.pk}",
                deliveries_make(emails, run),
                self.headers,
            ),
        }
        print(
            f"{args.database}: {total:,} {self.delivered} deliveries to {self.connection.pk}",
            flush=True,
        )
        return refund_bodies(total, run, self.kind)


class StripeDisputeRun(StripeRefundRun):
    """Lost disputes of charges made before the timing: one `charge.dispute.closed` each."""

    name = "Stripe lost disputes"
    kind = "dispute"
    delivered = "charge.dispute.closed"
    types = ("charge.dispute.closed",)
    worker_log = "webhooks-stripe-dispute-worker.log"
    results = "webhooks-stripe-dispute-results.json"


class StripeNamedRun(StripeRun):
    """Charges that name their sale in the metadata (`sale_id`)."""

    name = "Stripe charges naming their sale"
    delivered = "charge.succeeded (metadata.sale_id)"
    worker_log = "webhooks-stripe-named-worker.log"
    results = "webhooks-stripe-named-results.json"

    def prepare(self, result: dict) -> list[bytes]:
        args = self.args
        total = args.warmup + (args.profile_endpoint or args.deliveries)
        sales = sales_pick(self.info["workspace_id"], total)
        print(
            f"{args.database}: {total:,} {self.delivered} deliveries to {self.connection.pk}",
            flush=True,
        )
        return named_bodies(sales, secrets.token_hex(4))


class CalendlyRun(StripeRun):
    """Calendly bookings of existing leads: --deliveries / 2 `invitee.created`, then one
    `invitee.canceled` of each."""

    key, name = "calendly", "Calendly"
    delivered = "invitee.created / invitee.canceled"
    types = ("invitee.created", "invitee.canceled")
    worker_log = "webhooks-calendly-worker.log"
    results = "webhooks-calendly-results.json"
    tables = [
        "workspaces_call",
        "workspaces_registration",
        "workspaces_lead",
        "audit_auditevent",
        "integrations_event",
        "integrations_connection",
    ]

    def headers(self, body: bytes) -> dict:
        return calendly_headers(body, self.secret)

    def connect(self) -> None:
        self.before = calendly_counts(self.info["workspace_id"])
        self.connection, self.secret = calendly_connection_make(self.info["workspace_id"])

    def prepare(self, result: dict) -> list[bytes]:
        args = self.args
        workspace_id = self.info["workspace_id"]
        count = max(1, (args.warmup + (args.profile_endpoint or args.deliveries) + 1) // 2)
        people = attendees_pick(workspace_id, count)
        bodies = calendly_bodies(people, closer_email(workspace_id), secrets.token_hex(4))
        # Every invitee is booked, then cancelled: the warm-up is the first of the bookings.
        args.warmup = min(args.warmup, len(bodies) // 10)
        print(
            f"{args.database}: {len(bodies):,} {self.delivered} deliveries ({count:,} "
            f"existing leads) to {self.connection.pk}",
            flush=True,
        )
        return bodies

    def cleanup(self) -> dict:
        removed = calendly_cleanup(self.connection)
        after = calendly_counts(self.info["workspace_id"])
        removed["changed"] = {
            name: [self.before[name], value]
            for name, value in after.items()
            if value != self.before[name]
        }
        return removed


class HubSpotRun(StripeRun):
    """HubSpot `contact.creation` of contacts new to the workspace, each read by the worker
    from a fake of HubSpot's API on this machine (FakeHubSpot)."""

    key, name = "hubspot", "HubSpot"
    delivered = "contact.creation"
    types = ("contact.creation",)
    worker_log = "webhooks-hubspot-worker.log"
    results = "webhooks-hubspot-results.json"
    tables = [
        "workspaces_lead",
        "audit_auditevent",
        "integrations_event",
        "integrations_connection",
    ]
    fake = None

    @staticmethod
    def api_port(args) -> int:
        return args.port + 1

    def headers(self, body: bytes) -> dict:
        from django.conf import settings

        uri = f"{settings.BASE_URL}/hooks/hubspot/{self.connection.pk}"
        return hubspot_headers(body, self.secret, uri)

    def connect(self) -> None:
        self.connection, self.secret = hubspot_connection_make(self.info["workspace_id"])

    def prepare(self, result: dict) -> list[bytes]:
        args = self.args
        total = args.warmup + (args.profile_endpoint or args.deliveries)
        contacts = hubspot_contacts(total, secrets.token_hex(4))
        if not port_free(self.api_port(args)):
            raise SystemExit(f"Port {self.api_port(args)} (the fake HubSpot API) is in use.")
        self.fake = FakeHubSpot(self.api_port(args), contacts)
        print(
            f"{args.database}: {total:,} {self.delivered} deliveries (contacts new to the "
            f"workspace, read from the fake API on {HOST}:{self.api_port(args)}) to "
            f"{self.connection.pk}",
            flush=True,
        )
        return hubspot_bodies(contacts)

    def cleanup(self) -> dict:
        if self.fake is not None:
            self.fake.stop()
            print(
                f"  the fake HubSpot API answered {self.fake.calls:,} batch reads of "
                f"{self.fake.ids:,} contacts",
                flush=True,
            )
        return hubspot_cleanup(self.connection)


# --- the run ---------------------------------------------------------------------------------


RUNS = {
    "stripe": StripeRun,
    "stripe-refund": StripeRefundRun,
    "stripe-dispute": StripeDisputeRun,
    "stripe-named": StripeNamedRun,
    "zoom": ZoomRun,
    "calendly": CalendlyRun,
    "hubspot": HubSpotRun,
}


def mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def report(result: dict) -> list[str]:
    run = RUNS[result["provider"]]
    lines = [
        f"{run.name} webhooks ({run.delivered}). Measured {result['began']}-"
        f"{result['ended'][11:16]} UTC; {result['code']}; "
        f"{result['database']} ({result['leads']:,} leads); {os.cpu_count()} CPUs.",
    ]
    s = result.get("setup")
    if s and "what" in s:
        lines += [
            "",
            f"0. before timing: {s['what']} by {s['deliveries']:,} signed deliveries, posted "
            f"through the endpoint in-process in {s['seconds_delivering']:.1f} s, applied "
            f"in-process in {s['seconds_applying']:.1f} s ({s['applied_per_second']:.0f} "
            "events/s)",
        ]
    elif s:
        lines += [
            "",
            f"0. before timing: webinar {s['webinar']} and {s['registrations']:,} registrations "
            f"({s['leads_made']} leads made) by {s['deliveries']:,} signed webinar.created and "
            "webinar.registration_created deliveries, posted through the endpoint in-process "
            f"in {s['seconds_delivering']:.1f} s, applied in-process in "
            f"{s['seconds_applying']:.1f} s ({s['applied_per_second']:.0f} events/s)",
        ]
    e = result.get("endpoint", {})
    if e.get("p95") is not None:
        lines += [
            "",
            f"1. POST /hooks/{run.key}/<connection>: {e['accepted']:,} of {e['deliveries']:,} "
            f"deliveries accepted (after {e['warmup']} warm-up) from {e['client_threads']} "
            f"client threads"
            + (
                f" at {e['rate']:g} deliveries/s"
                if e.get("rate")
                else ", each posting as soon as the last is answered"
            )
            + f", gunicorn {e['gunicorn_workers']} sync workers:",
            f"   p50 {e['p50']:.1f} ms  p95 {e['p95']:.1f} ms  p99 {e['p99']:.1f} ms  max "
            f"{e['max']:.1f} ms  {e['per_second']:.0f} deliveries/s  "
            f"(target p95 <= {P95_TARGET_MS:g} ms: {mark(e['p95'] <= P95_TARGET_MS)})",
            f"   machine: load average {e['load_before']:.2f} -> {e['load_after']:.2f}, CPUs "
            f"{e['cpu_busy']:.0%} busy, other processes {e['other_cores']:.2f} cores; gunicorn used {e['server_cpu_seconds']:.1f} CPU s "
            f"({e['server_cpu_seconds'] * 1000 / max(e['accepted'], 1):.2f} ms per delivery)",
        ]
    w = result.get("worker")
    if w:
        lines += [
            "",
            f"2. one Celery worker (--concurrency 1): {w['final']:,} of {w['events']:,} events "
            f"final ({', '.join(f'{k} {v}' for k, v in sorted(w['states'].items()))}) "
            f"{w['seconds_from_start']:.1f} s after it started (first after "
            f"{w['seconds_to_first'] or 0:.1f} s):",
            f"   {w['per_second']:.0f} events/s once applying ({w['per_second_audit_span']:.0f} "
            f"from the first to the last outcome's audit time; {w['per_second_from_start']:.0f} "
            f"counting the worker's start)  (target >= {APPLY_TARGET:g}: "
            f"{mark(w['per_second'] >= APPLY_TARGET)})",
            f"   machine: load average {w['load_before']:.2f} -> {w['load_after']:.2f}, CPUs "
            f"{w['cpu_busy']:.0%} busy, other processes {w['other_cores']:.2f} cores; the worker used {w['worker_cpu_seconds']:.1f} CPU s "
            f"({w['worker_cpu_seconds'] * 1000 / max(w['final'], 1):.2f} ms per event)",
        ]
    pr = result.get("profile")
    if pr:
        lines += [
            "",
            f"2. the batched apply in-process under cProfile: {pr['events']} events in "
            f"{pr['seconds']:.2f} s ({pr['per_second']:.0f} events/s with the profiler)",
        ]
        if pr["sql"]:
            lines += [
                f"   SQL of {pr['sql_events']} more events (no profiler): "
                f"{pr['queries_per_event']:.1f} statements and "
                f"{pr['sql_wall_ms_per_event']:.2f} ms per event, of which "
                f"{sum(q['ms_per_event'] for q in pr['sql']):.2f} ms waiting for PostgreSQL "
                "(the first statement of a transaction carries its BEGIN); per statement, "
                "ms per event:",
                *(
                    f"   {q['ms_per_event']:7.3f} ms  x{q['count'] / pr['sql_events']:.1f}  "
                    f"{q['statement']}"
                    for q in pr["sql"][:15]
                ),
            ]
    c = result.get("cleanup")
    if c and run in (CalendlyRun, HubSpotRun):
        changed = "; ".join(f"{k} {a:,} -> {b:,}" for k, (a, b) in c.get("changed", {}).items())
        lines += [
            "",
            f"Removed: {c.get('calls', 0):,} calls, {c['leads']:,} leads, {c['events']:,} "
            f"events, {c['audit_events']:,} audit events and the connection"
            + (f"; NOT as before: {changed}." if changed else "."),
        ]
    elif c and run is ZoomRun:
        changed = "; ".join(f"{k} {a:,} -> {b:,}" for k, (a, b) in c["changed"].items())
        lines += [
            "",
            f"Removed: {c['registrations']:,} registrations, {c['webinar_events']} webinar "
            f"event(s), {c['leads']} leads, {c['events']:,} events, {c['audit_events']:,} "
            "audit events and the connection; "
            + (f"NOT as before: {changed}." if changed else "the counts checked are as before."),
        ]
    elif c:
        lines += [
            "",
            f"Removed: {c['payments']:,} payments, {c['refunds']:,} refunds, {c['events']:,} events, "
            f"{c['audit_events']:,} audit events and the connection; "
            f"{c['leads_refreshed']:,} leads' kept cash refreshed.",
        ]
    return lines


def main(argv=None) -> int:
    args = parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    info_path = OUT / f"{args.database}.json"
    if not info_path.exists():
        raise SystemExit(f"{info_path} is missing: run bench/generate.py for it first.")
    info = json.loads(info_path.read_text())
    broker = f"{args.redis}/{args.redis_db}"
    env = production_environment(database_url=info["database_url"], port=args.port)
    env.update(CELERY_BROKER_URL=broker, CELERY_TASK_ALWAYS_EAGER="false")
    if args.provider == "hubspot":
        # The worker (and an in-process --profile) reads contacts from the local fake.
        env["HUBSPOT_API_BASE"] = f"http://{HOST}:{HubSpotRun.api_port(args)}"
    migrate = subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if migrate.returncode != 0:
        raise SystemExit(f"migrate failed:\n{migrate.stdout[-2000:]}{migrate.stderr[-3000:]}")
    applied = [line.strip() for line in migrate.stdout.splitlines() if "Applying" in line]
    if applied:
        print("migrated: " + "; ".join(applied), flush=True)
    django_start(env)
    broker_clear(broker)
    if removed := leftovers_remove():
        print(f"removed {removed} connection(s) left by an interrupted run", flush=True)
    began = datetime.now(UTC)
    run = RUNS[args.provider](args, info)
    run.connect()
    result = {
        "provider": args.provider,
        "began": f"{began:%Y-%m-%d %H:%M}",
        "code": code_version(),
        "database": args.database,
        "leads": info["leads"],
        "cpus": os.cpu_count(),
    }
    try:
        bodies = run.prepare(result)
        if "setup" in result:
            # The setup's deliveries queued their applies too: applied already, here.
            broker_clear(broker)
        from django.db import connection as db

        db.close()
        if args.profile_endpoint:
            profiled = endpoint_profile(args, run, bodies)
            print(profiled["profile"])
            print(
                f"{profiled['deliveries']} deliveries in {profiled['seconds']:.2f} s under "
                "cProfile, in-process"
            )
            return 0
        result["endpoint"] = endpoint_phase(args, env, run, bodies)
        stored, states = events_done(run.connection.pk, run.types)
        received = states.get("received", 0)
        print(
            f"  stored {received + stored:,} events, {received:,} waiting to be applied; "
            f"{broker_queued(broker):,} tasks queued",
            flush=True,
        )
        if stored:
            print(
                f"  {stored} events were applied during phase 1: a worker reads {broker}",
                flush=True,
            )
        if args.profile:
            result["profile"] = profile_phase(args, run.connection)
            print(result["profile"]["profile"])
        else:
            result["worker"] = worker_phase(args, env, run, received + stored)
    finally:
        if not args.keep:
            result["cleanup"] = run.cleanup()
            vacuum(run.tables)
            broker_clear(broker)
    result["ended"] = f"{datetime.now(UTC):%Y-%m-%d %H:%M}"
    lines = report(result)
    print("\n".join(lines))
    (OUT / run.results).write_text(json.dumps(result, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
