"""Outbound webhooks: what an event costs its write, and how fast one worker delivers.

    .venv/bin/python bench/outbound.py                     # 2,000 events, 1 endpoint
    .venv/bin/python bench/outbound.py --events 5000 --endpoints 3

On a fresh PostgreSQL database (bench_outbound_<pid>, dropped at the end) with the
production settings (DEBUG off, fresh keys, Celery's broker at Redis --redis-db), and a
receiver answering 200 on 127.0.0.1 in a process of its own:

1. writes: --events leads, each written by workspaces.services.lead_upsert in its own
   transaction (its event recorded, and handed to the broker after the commit), first on a
   workspace with no endpoint, then on one with --endpoints endpoints on the receiver;
   p50/p95 per write of each, and the difference (target: p95 grows by 2 ms at most);
2. deliveries: starts ONE worker (`celery -A config worker --concurrency 1`, or
   --concurrency N prefork processes) on the queued tasks and waits until every delivery has succeeded: deliveries/s and events/s
   (target >= 200 events/s), and the receiver's count (each delivery exactly once).

A measurement: a missed target is marked, never fatal. Results also go to
bench/out/outbound-results.json.
"""

import argparse
import base64
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "bench" / "out"

from config.queues import DELIVERIES, queue_name, queue_names  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--pg", default=os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432"))
    p.add_argument("--redis-db", type=int, default=int(os.environ.get("OUTBOUND_REDIS_DB", "13")))
    p.add_argument("--events", type=int, default=2000)
    p.add_argument("--endpoints", type=int, default=1)
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="the worker's processes (1: one process, solo pool; more: Celery's prefork pool)",
    )
    p.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="K",
        help="Instead of the worker, make and attempt K events' deliveries in this process "
        "under cProfile and print where the time goes.",
    )
    p.add_argument("--receiver", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def receive(port_file: str) -> None:
    """The receiver process: answers every POST 200 and counts them (GET /count)."""
    count = {"n": 0}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Answer at once (a small answer written after its headers would wait for the
        # client's delayed acknowledgement), as a production web server does.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length") or 0))
            count["n"] += 1
            self.send_response(200)
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def do_GET(self):
            body = str(count["n"]).encode()
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    Path(port_file).write_text(str(server.server_address[1]))
    server.serve_forever()


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _worker_command() -> list[str]:
    """celery, or, with OUTBOUND_WORKER_PROFILE=<file>, celery under cProfile writing there."""
    out = os.environ.get("OUTBOUND_WORKER_PROFILE")
    if out:
        return [sys.executable, "-m", "cProfile", "-o", out, "-m", "celery"]
    return [str(ROOT / ".venv" / "bin" / "celery")]


def profile(count: int, workspace) -> None:
    import cProfile  # noqa: PLC0415
    import pstats  # noqa: PLC0415

    from events.models import Event  # noqa: PLC0415
    from webhooks import services  # noqa: PLC0415

    seqs = list(
        Event.objects.filter(workspace=workspace, dispatched=False)
        .order_by("seq")
        .values_list("seq", flat=True)[:count]
    )
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for seq in seqs:
        made = services.deliveries_make(seq)  # as the task webhooks.deliveries_make does
        for delivery in made.now:
            services.attempt_held(delivery)
    profiler.disable()
    elapsed = time.perf_counter() - started
    print(
        f"{len(seqs)} events made and attempted in {elapsed:.2f} s: "
        f"{len(seqs) / elapsed:.0f} events/s in this process (no Celery)"
    )
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)


def main(argv=None) -> int:
    args = parse_args(argv)
    name = f"bench_outbound_{os.getpid()}"
    admin = args.pg.replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    broker = f"redis://127.0.0.1:6379/{args.redis_db}"
    redis.Redis.from_url(broker).flushdb()
    port_file = Path(f"/tmp/{name}.port")
    receiver = subprocess.Popen(
        [sys.executable, __file__, "--receiver"],
        env={**os.environ, "OUTBOUND_PORT_FILE": str(port_file)},
        start_new_session=True,
    )
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"{args.pg}/{name}",
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "FIELD_ENCRYPTION_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "BASE_URL": "http://127.0.0.1:8000",
        "LOG_LEVEL": "WARNING",
        # The receiver is on loopback.
        "WEBHOOK_ALLOW_LOOPBACK": "true",
    }
    os.environ.update(env)
    worker = None
    OUT.mkdir(exist_ok=True)
    try:
        while not port_file.exists():
            time.sleep(0.05)
        port = int(port_file.read_text())
        import django  # noqa: PLC0415

        django.setup()
        from django.core.management import call_command  # noqa: PLC0415
        from django.db import transaction  # noqa: PLC0415
        from django.utils import timezone  # noqa: PLC0415

        from audit.services import SYSTEM  # noqa: PLC0415
        from webhooks import services  # noqa: PLC0415
        from webhooks.models import Delivery  # noqa: PLC0415
        from workspaces.models import Workspace  # noqa: PLC0415
        from workspaces.services import lead_upsert  # noqa: PLC0415

        call_command("migrate", verbosity=0)
        quiet = Workspace.objects.create(name="Quiet", slug="quiet", currency="USD")
        busy = Workspace.objects.create(name="Busy", slug="busy", currency="USD")
        for n in range(args.endpoints):
            services.endpoint_create(
                workspace=busy, url=f"http://127.0.0.1:{port}/in/{n}", actor=SYSTEM
            )
        now = timezone.now()

        def writes(workspace, label):
            times = []
            warmup = max(20, args.events // 20)
            for n in range(args.events + warmup):
                start = time.perf_counter()
                with transaction.atomic():
                    lead_upsert(
                        workspace=workspace,
                        external_id=f"{label}{n}",
                        created_at=now,
                        name=f"Lead {n}",
                        email=f"lead{n}@example.test",
                    )
                if n >= warmup:
                    times.append((time.perf_counter() - start) * 1000)
            return times

        quiet_ms = writes(quiet, "q")
        busy_ms = writes(busy, "b")
        expected = Delivery.objects.count()  # made by the worker: 0 yet
        queued = redis.Redis.from_url(broker).llen(queue_name("celery", DELIVERIES))
        result = {
            "events": args.events,
            "endpoints": args.endpoints,
            "write_p50_ms": {
                "none": statistics.median(quiet_ms),
                "with": statistics.median(busy_ms),
            },
            "write_p95_ms": {"none": percentile(quiet_ms, 95), "with": percentile(busy_ms, 95)},
            "queued_before_worker": queued,
        }
        if args.profile:
            profile(args.profile, busy)
            return 0
        total_events = args.events + max(20, args.events // 20)
        total = total_events * args.endpoints
        assert expected == 0
        worker_log = (OUT / "outbound-worker.log").open("wb")
        worker = subprocess.Popen(
            [
                *_worker_command(),
                "-A",
                "config",
                "worker",
                "--concurrency",
                str(args.concurrency),
                "--queues",
                ",".join(queue_names("celery")),
                "--pool",
                "solo" if args.concurrency == 1 else "prefork",
                "--loglevel",
                os.environ.get("OUTBOUND_WORKER_LOG", "WARNING"),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env={**os.environ, "LOG_LEVEL": os.environ.get("OUTBOUND_WORKER_LOG", "WARNING")},
            start_new_session=True,
            stdout=worker_log,
            stderr=subprocess.STDOUT,
        )
        while Delivery.objects.filter(state="succeeded").count() < total:
            if worker.poll() is not None:
                raise RuntimeError("the worker stopped")
            time.sleep(0.2)
        # From the first delivery the worker made to the last attempt: the worker's own
        # start (Django, imports, the broker) left out.
        from django.db.models import Max, Min  # noqa: PLC0415

        span = Delivery.objects.aggregate(first=Min("created_at"), last=Max("last_attempt_at"))
        elapsed = (span["last"] - span["first"]).total_seconds()
        import urllib.request  # noqa: PLC0415

        received = int(urllib.request.urlopen(f"http://127.0.0.1:{port}/count").read())
        result |= {
            "deliveries": total,
            "received": received,
            "worker_seconds": elapsed,
            "deliveries_per_s": total / elapsed,
            "events_per_s": total_events / elapsed,
        }
    finally:
        if worker is not None and worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(30)
        os.killpg(receiver.pid, signal.SIGTERM)
        port_file.unlink(missing_ok=True)
        from django.db import connections  # noqa: PLC0415

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(broker).flushdb()
    OUT.mkdir(exist_ok=True)
    (OUT / "outbound-results.json").write_text(json.dumps(result, indent=2))
    grow = result["write_p95_ms"]["with"] - result["write_p95_ms"]["none"]
    print(f"writes ({args.events} leads, one transaction each):")
    for key in ("none", "with"):
        label = "no endpoint" if key == "none" else f"{args.endpoints} endpoint(s)"
        print(
            f"  {label:>14}: p50 {result['write_p50_ms'][key]:.2f} ms  "
            f"p95 {result['write_p95_ms'][key]:.2f} ms"
        )
    print(f"  p95 grows {grow:+.2f} ms  {'ok' if grow <= 2 else 'MISSED'} (target <= 2 ms)")
    ok = result["events_per_s"] >= 200 and result["received"] == result["deliveries"]
    print(
        f"one worker ({args.concurrency} process(es)): {result['deliveries']} deliveries in {result['worker_seconds']:.1f} s "
        "(first delivery made to last attempt): "
        f"{result['deliveries_per_s']:.0f} deliveries/s, {result['events_per_s']:.0f} events/s, "
        f"{result['received']} received  {'ok' if ok else 'MISSED'} (target >= 200 events/s)"
    )
    return 0


if __name__ == "__main__":
    if "--receiver" in sys.argv:
        receive(os.environ["OUTBOUND_PORT_FILE"])
    else:
        sys.exit(main())
