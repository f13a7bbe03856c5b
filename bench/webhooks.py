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
import json
import os
import secrets
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import code_version  # noqa: E402
from webhooks_common import (  # noqa: E402
    BIN,
    MADE_BY,
    OUT,
    ZOOM_JOINED,
    ZOOM_LEFT,
    broker_clear,
    broker_queued,
    cleanup,
    connection_make,
    deliveries_make,
    django_start,
    emails_pick,
    sign,
    vacuum,
)
from webhooks_phases import (  # noqa: E402
    endpoint_phase,
    endpoint_profile,
    events_done,
    profile_phase,
    worker_phase,
)
from webhooks_providers import (  # noqa: E402
    Attendee,
    FakeHubSpot,
    attendees_pick,
    calendly_bodies,
    calendly_cleanup,
    calendly_connection_make,
    calendly_counts,
    calendly_headers,
    closer_email,
    hubspot_bodies,
    hubspot_cleanup,
    hubspot_connection_make,
    hubspot_contacts,
    hubspot_headers,
    in_process_apply,
    named_bodies,
    refund_bodies,
    sales_pick,
    zoom_cleanup,
    zoom_connection_make,
    zoom_counts,
    zoom_headers,
    zoom_participant_bodies,
    zoom_setup,
    zoom_setup_bodies,
    zoom_webinar,
)

from scripts.served import HOST, port_free, production_environment  # noqa: E402

P95_TARGET_MS = 20.0
APPLY_TARGET = 300.0


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


# --- what a run leaves behind ----------------------------------------------------------------


def leftovers_remove() -> int:
    from integrations.models import Connection

    left = list(Connection.objects.filter(created_by=MADE_BY))
    cleanups = {"zoom": zoom_cleanup, "calendly": calendly_cleanup, "hubspot": hubspot_cleanup}
    for connection in left:
        cleanups.get(connection.provider, cleanup)(connection)
    return len(left)


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
