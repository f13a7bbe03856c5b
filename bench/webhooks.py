"""Stripe deliveries accepted by the webhook endpoint, then applied by one Celery worker.

    .venv/bin/python bench/webhooks.py                           # bench_large, 2,000 deliveries
    .venv/bin/python bench/webhooks.py --deliveries 5000 --concurrency 8
    .venv/bin/python bench/webhooks.py --deliveries 600 --profile 500   # cProfile of the apply

On a database loaded by bench/generate.py (its bench/out/<name>.json), with the
production settings (DEBUG off, fresh keys, Celery's broker at Redis --redis-db):

0. migrates the database (the integrations' migrations may be newer than its load) and
   makes a Stripe connection on the big workspace with integrations.services.
   connection_create (its backfill, which would call Stripe, is not started);
1. serves the project as production does (gunicorn with uvicorn workers on config.asgi,
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
"""

import argparse
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
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import code_version, percentile  # noqa: E402

from scripts.served import HOST, Server, port_free, production_environment  # noqa: E402

OUT = ROOT / "bench" / "out"
BIN = ROOT / ".venv" / "bin"

P95_TARGET_MS = 20.0
APPLY_TARGET = 300.0
MADE_BY = "bench/webhooks.py"
FINAL = ("applied", "held", "ignored", "dismissed")
# Cents per charge: small enough to leave every chosen sale with an unpaid balance.
AMOUNT = 100


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database", default="bench_large", help="a database of bench/generate.py")
    p.add_argument("--deliveries", type=int, default=2000, help="timed deliveries")
    p.add_argument("--warmup", type=int, default=40, help="deliveries before the timed ones")
    p.add_argument("--concurrency", type=int, default=4, help="client threads")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    p.add_argument("--port", type=int, default=8785)
    p.add_argument("--redis", default="redis://127.0.0.1:6379", help="Redis server")
    p.add_argument("--redis-db", type=int, default=5, help="Celery's broker: emptied by the run")
    p.add_argument(
        "--max-seconds", type=float, default=900.0,
        help="give up waiting for the worker after this long (the figures then say how many)",
    )  # fmt: skip
    p.add_argument(
        "--profile", type=int, default=0, metavar="K",
        help="instead of the worker: apply K events in-process, in batches, under cProfile",
    )  # fmt: skip
    p.add_argument(
        "--profile-endpoint", type=int, default=0, metavar="K",
        help="instead of both phases: K deliveries through Django's test client in-process "
        "under cProfile (no server, no worker)",
    )  # fmt: skip
    p.add_argument("--sql-sample", type=int, default=100, help="with --profile: events whose SQL is captured")  # fmt: skip
    p.add_argument("--keep", action="store_true", help="leave the connection and its records")
    args = p.parse_args(argv)
    args.deliveries = max(1, min(args.deliveries, 100_000))
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
            own.user + own.system + postgres_cpu_seconds()
            + (group_cpu_seconds(group) if group else 0.0)
        )  # fmt: skip

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

    return redis.Redis.from_url(url).llen("celery")


def leftovers_remove() -> int:
    from integrations.models import Connection

    left = list(Connection.objects.filter(created_by=MADE_BY))
    for connection in left:
        cleanup(connection)
    return len(left)


def connection_make(workspace_id: str):
    """A Stripe connection made by the service, with a webhook signing secret of its own."""
    from audit.services import SYSTEM
    from integrations import services
    from workspaces.models import Workspace

    workspace = Workspace.objects.get(pk=workspace_id)
    alphabet = string.ascii_letters + string.digits
    secret = "whsec_" + "".join(secrets.choice(alphabet) for _ in range(32))
    key = "sk_test_" + "".join(secrets.choice(alphabet) for _ in range(32))
    started = services._backfill_enqueue
    # The backfill reads Stripe's API, which this machine cannot reach: not started.
    services._backfill_enqueue = lambda connection_id: None
    try:
        connection = services.connection_create(
            workspace=workspace,
            provider="stripe",
            credentials={"secret_key": key, "webhook_secret": secret},
            actor=SYSTEM,
            created_by=MADE_BY,
        )
    finally:
        services._backfill_enqueue = started
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
    from django.db.models import Q

    from audit.models import AuditEvent
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
        audits, _ = AuditEvent.objects.filter(
            Q(actor_kind="integration", actor_id=str(connection.pk))
            | Q(target_type="integration_connection", target_id=str(connection.pk))
        ).delete()
        events = Event.objects.filter(connection=connection).count()
        connection.delete()
    return {
        "payments": deleted,
        "refunds": refunds,
        "leads_refreshed": len(lead_ids),
        "events": events,
        "audit_events": audits,
    }


def vacuum(tables: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM ANALYZE "{table}"')


# --- phase 1: the endpoint --------------------------------------------------------------------


def sign(body: bytes, secret: str) -> str:
    timestamp = int(time.time())
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def post(port: int, path: str, body: bytes, secret: str) -> tuple[float, int, bytes]:
    """One delivery, signed now; (milliseconds, status, body). A new connection each time,
    as Stripe's deliveries come."""
    headers = {"Content-Type": "application/json", "Stripe-Signature": sign(body, secret)}
    began = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        answer = response.read()
    finally:
        conn.close()
    return (time.perf_counter() - began) * 1000, response.status, answer


def deliver_all(port: int, path: str, bodies: list[bytes], secret: str, threads: int):
    """Post every body from `threads` client threads; (latencies in ms, failures, seconds)."""
    latencies, failures = [], []
    lock = threading.Lock()
    queue = list(reversed(bodies))

    def work():
        while True:
            with lock:
                if not queue:
                    return
                body = queue.pop()
            took, status, answer = post(port, path, body, secret)
            with lock:
                if status == 200 and json.loads(answer) == {"received": True}:
                    latencies.append(took)
                else:
                    failures.append((status, answer[:200]))

    began = time.perf_counter()
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies, failures, time.perf_counter() - began


def endpoint_phase(args, env, info, connection, secret, bodies) -> dict:
    if not port_free(args.port):
        raise SystemExit(f"Port {args.port} on {HOST} is in use; pass --port.")
    path = f"/hooks/stripe/{connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    server = Server(
        env, port=args.port, workers=args.workers, kind="asgi",
        log_path=OUT / f"gunicorn-{args.port}.log",
    )  # fmt: skip
    try:
        server.wait_ready(
            lambda: (
                post(
                    args.port, "/hooks/stripe/00000000-0000-0000-0000-000000000000", b"{}", secret
                )[1]
                == 404
            )
        )
        _lat, failed, _s = deliver_all(args.port, path, warm, secret, args.concurrency)
        if failed:
            raise SystemExit(f"Warm-up deliveries refused: {failed[:3]}")
        cpu_before = group_cpu_seconds(server.proc.pid)
        with Phase(lambda: server.proc.pid) as phase:
            latencies, failures, seconds = deliver_all(
                args.port, path, timed, secret, args.concurrency
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
        "gunicorn_workers": args.workers,
        "server_cpu_seconds": round(server_cpu, 2),
        **phase.machine(),
    }
    return row


# --- phase 2: the worker ----------------------------------------------------------------------


def events_done(connection_id) -> tuple[int, dict]:
    from django.db.models import Count

    from integrations.models import Event

    states = dict(
        Event.objects.filter(connection_id=connection_id)
        .values_list("state")
        .annotate(n=Count("pk"))
        .values_list("state", "n")
    )
    return sum(n for state, n in states.items() if state in FINAL), states


def worker_phase(args, env, connection, total: int) -> dict:
    from django.db.models import Max, Min

    from audit.models import AuditEvent

    log = open(OUT / "webhooks-worker.log", "w")  # noqa: SIM115 - closed below
    samples = []  # (seconds since the worker started, events in a final state)
    with Phase() as phase:
        began = time.perf_counter()
        worker = subprocess.Popen(
            [str(BIN / "celery"), "-A", "config", "worker", "--concurrency", "1",
             "--loglevel", "WARNING", "--without-mingle", "--without-gossip"],
            cwd=ROOT, env={**env, "CELERY_TASK_ALWAYS_EAGER": "false"},
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        cpu_before = 0.0
        try:
            while True:
                done, states = events_done(connection.pk)
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
        actor_kind="integration", actor_id=str(connection.pk)
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


# --- or a profile of event_apply, in-process ---------------------------------------------------


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


def endpoint_profile(args, connection, secret, bodies) -> dict:
    """The endpoint's own work, in-process (Django's test client, no server): cProfile."""
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    path = f"/hooks/stripe/{connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    for body in warm:
        answer = client.post(path, body, content_type="application/json",
                             headers={"Stripe-Signature": sign(body, secret)})  # fmt: skip
        if answer.status_code != 200:
            raise SystemExit(f"The endpoint answered {answer.status_code}: {answer.content[:300]}")
    signed = [(body, sign(body, secret)) for body in timed]
    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    for body, signature in signed:
        client.post(path, body, content_type="application/json",
                    headers={"Stripe-Signature": signature})  # fmt: skip
    profiler.disable()
    seconds = time.perf_counter() - began
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.dump_stats(str(OUT / "webhooks-endpoint.prof"))
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(20)
    return {"deliveries": len(signed), "seconds": round(seconds, 3), "profile": text.getvalue()}


# --- the run ---------------------------------------------------------------------------------


def mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def report(result: dict) -> list[str]:
    lines = [
        f"Measured {result['began']}-{result['ended'][11:16]} UTC; {result['code']}; "
        f"{result['database']} ({result['leads']:,} leads); {os.cpu_count()} CPUs.",
    ]
    e = result.get("endpoint", {})
    if e.get("p95") is not None:
        lines += [
            "",
            f"1. POST /hooks/stripe/<connection>: {e['accepted']:,} of {e['deliveries']:,} "
            f"deliveries accepted (after {e['warmup']} warm-up) from {e['client_threads']} "
            f"client threads, gunicorn {e['gunicorn_workers']} uvicorn workers:",
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
    if c:
        lines += [
            "",
            f"Removed: {c['payments']:,} payments, {c['events']:,} events, "
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
    migrate = subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "--noinput"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
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
    total = args.warmup + args.deliveries
    connection, secret = connection_make(info["workspace_id"])
    result = {
        "began": f"{began:%Y-%m-%d %H:%M}",
        "code": code_version(),
        "database": args.database,
        "leads": info["leads"],
        "cpus": os.cpu_count(),
    }
    try:
        if args.profile_endpoint:
            total = args.warmup + args.profile_endpoint
        emails = emails_pick(info["workspace_id"], total)
        run = secrets.token_hex(4)
        bodies = deliveries_make(emails, run)
        print(
            f"{args.database}: {total:,} charge.succeeded deliveries to {connection.pk} "
            f"({len(set(emails)):,} leads)",
            flush=True,
        )
        from django.db import connection as db

        db.close()
        if args.profile_endpoint:
            profiled = endpoint_profile(args, connection, secret, bodies)
            print(profiled["profile"])
            print(f"{profiled['deliveries']} deliveries in {profiled['seconds']:.2f} s under "
                  "cProfile, in-process")  # fmt: skip
            return 0
        result["endpoint"] = endpoint_phase(args, env, info, connection, secret, bodies)
        stored, states = events_done(connection.pk)
        received = states.get("received", 0)
        print(
            f"  stored {received + stored:,} events, {received:,} waiting to be applied; "
            f"{broker_queued(broker):,} tasks queued",
            flush=True,
        )
        if stored:
            print(f"  {stored} events were applied during phase 1: a worker reads "
                  f"{broker}", flush=True)  # fmt: skip
        if args.profile:
            result["profile"] = profile_phase(args, connection)
            print(result["profile"]["profile"])
        else:
            result["worker"] = worker_phase(args, env, connection, received + stored)
    finally:
        if not args.keep:
            result["cleanup"] = cleanup(connection)
            vacuum(["workspaces_payment", "workspaces_sale", "workspaces_lead",
                    "audit_auditevent", "integrations_event", "integrations_connection"])  # fmt: skip
            broker_clear(broker)
    result["ended"] = f"{datetime.now(UTC):%Y-%m-%d %H:%M}"
    lines = report(result)
    print("\n".join(lines))
    (OUT / "webhooks-results.json").write_text(json.dumps(result, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
