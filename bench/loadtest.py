"""`make loadtest`: the whole service under a mixed load, as production runs it.

On a fresh PostgreSQL database (`--database`, recreated) with the demo's workspaces, a
Stripe and a Calendly connection, and Redis as broker and cache, it starts gunicorn with
`--workers` uvicorn workers (as `make serve`) and one Celery worker (as `make worker`),
then runs Locust headless (bench/locustfile.py) for `--seconds`: figures reads by many
tokens, dashboard pages, signed webhook deliveries, drafts and end-of-day reports with
Idempotency-Keys, MCP tool calls. It prints p50/p95/p99 per kind and the totals, waits for
the worker to settle every delivered event, and exits 1 on any failed request or any event
left unapplied. Results: bench/out/loadtest_*.csv and docs/performance.md.

`--scenario neighbours` runs bench/neighbours.py instead: fifty tenants and a bad one.

`--fault postgres` (or `redis`) restarts that server halfway through the run and reports
what the requests during and after the restart saw (docs/operations.md).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config.queues import queue_names
from scripts.fuzz_endpoints import CREDENTIALS
from scripts.served import BIN, HOST, ROOT, Server, port_free, production_environment

OUT = ROOT / "bench" / "out"
# Nothing listens there: a connection's backfill fails at once instead of reaching out.
NOWHERE = "http://127.0.0.1:9"

SETUP = """
import json, os
from audit.services import SYSTEM
from integrations import services
from workspaces.models import Workspace
credentials = json.loads(os.environ["LOADTEST_CREDENTIALS"])
workspace = Workspace.objects.get(pk=os.environ["LOADTEST_WORKSPACE"])
out = {}
for key, secret_field in (("stripe", "webhook_secret"), ("calendly", "webhook_signing_key")):
    made = services.connection_create(workspace=workspace, provider=key,
                                      credentials=credentials[key], actor=SYSTEM)
    out[key] = {"id": str(made.pk), "secret": credentials[key][secret_field]}
print(json.dumps(out))
"""


def python_run(env: dict, *args: str) -> str:
    """Run the environment's Python with these arguments in the project; its output."""
    done = subprocess.run(
        [str(BIN / "python"), *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def psql(sql: str) -> None:
    """Run one statement on the PostgreSQL of this machine, as postgres."""
    subprocess.run(
        ["psql", "-h", HOST, "-U", "postgres", "-qc", sql], check=True, capture_output=True
    )


def locust_run(args, locustfile: Path, prefix: Path, *, env: dict, users=()) -> None:
    """Locust, headless, with `args.users` users for `args.seconds` against the server on
    `args.port`; its statistics to `prefix`_*.csv. `users` names the user classes to run
    (all of the file's when empty)."""
    subprocess.run(
        [
            str(BIN / "locust"),
            "-f",
            str(locustfile),
            "--headless",
            "-u",
            str(args.users),
            "-r",
            str(max(1, args.users // 4)),
            "-t",
            f"{args.seconds}s",
            "--host",
            f"http://{HOST}:{args.port}",
            "--csv",
            str(prefix),
            "--only-summary",
            "--loglevel",
            "WARNING",
            "--stop-timeout",
            "10",
            *users,
        ],
        cwd=ROOT,
        check=False,
        env=env,
    )


def _world(env: dict, folder: Path) -> Path:
    python_run(env, "manage.py", "migrate", "--noinput")
    demo = json.loads(python_run(env, "manage.py", "seed_demo", "--json", "--allow-production"))
    first = demo["workspaces"][0]
    setup_env = {
        **env,
        "LOADTEST_CREDENTIALS": json.dumps(CREDENTIALS),
        "LOADTEST_WORKSPACE": first["id"],
    }
    printed = (
        python_run(setup_env, "manage.py", "shell", "--no-imports", "-c", SETUP)
        .strip()
        .splitlines()
    )
    connections = json.loads(printed[-1])
    closer = next(m for m in first["members"] if m["role"] == "closer")
    world = {
        "workspaces": [
            {
                "id": w["id"],
                "read": w["tokens"]["read"],
                "write": w["tokens"]["write"],
                "closer": next(m["id"] for m in w["members"] if m["role"] == "closer"),
            }
            for w in demo["workspaces"]
        ],
        "owners": [
            {"email": m["email"], "password": m["password"], "workspace": w["id"]}
            for w in demo["workspaces"]
            for m in w["members"]
            if m["role"] in ("owner", "manager")
        ],
        "closers": [
            {"session_token": m["session_token"]}
            for w in demo["workspaces"]
            for m in w["members"]
            if m["role"] == "closer"
        ],
        "closer_email": closer["email"],
        **connections,
    }
    path = folder / "world.json"
    path.write_text(json.dumps(world))
    return path


def _metrics(port: int, token: str) -> str:
    request = urllib.request.Request(
        f"http://{HOST}:{port}/metrics", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.read().decode()


def _unsettled(env: dict) -> int:
    code = (
        "from integrations.models import Event; "
        "print(Event.objects.filter(state='received').count())"
    )
    return int(python_run(env, "manage.py", "shell", "--no-imports", "-c", code).strip())


def _fault(kind: str, delay: float, folder: Path) -> subprocess.Popen:
    """Restart PostgreSQL or Redis after `delay` seconds, in the background; the restart's
    start and end times go to fault.start and fault.end in `folder`."""
    if kind == "postgres":
        version = os.listdir("/etc/postgresql")[0]
        restart = f"pg_ctlcluster --skip-systemctl-redirect {version} main restart"
    else:
        restart = (
            f"redis-cli -h {HOST} shutdown nosave; sleep 2; redis-server --daemonize yes "
            f"--bind {HOST} --port 6379 --save '' --appendonly no; "
            f"until redis-cli -h {HOST} ping >/dev/null 2>&1; do sleep 0.1; done"
        )
    command = (
        f"sleep {delay}; date +%s.%N > {folder}/fault.start; {restart}; "
        f"date +%s.%N > {folder}/fault.end"
    )
    return subprocess.Popen(["bash", "-c", command])


def _stored_event_ids(env: dict) -> set[str]:
    code = (
        "import json; from integrations.models import Event; "
        "print(json.dumps(list(Event.objects.values_list('event_id', flat=True))))"
    )
    printed = python_run(env, "manage.py", "shell", "--no-imports", "-c", code).strip().splitlines()
    return set(json.loads(printed[-1]))


def _fault_reading(folder: Path, env: dict) -> bool:
    """What the requests saw around the restart: every failure a 503 (or a refused
    connection) inside the restart's window and the seconds after it, none hanging, and
    every delivery acknowledged with 2xx stored."""
    started = float((folder / "fault.start").read_text())
    ended = float((folder / "fault.end").read_text())
    rows = [json.loads(line) for line in open(folder / "requests.jsonl")]  # noqa: SIM115
    failed = [row for row in rows if not 200 <= row[2] < 400]
    statuses = Counter(row[2] for row in failed)
    last_failure = max((row[0] for row in failed), default=started)
    slowest = max(row[3] for row in rows)
    acknowledged = {row[4] for row in rows if row[4] and 200 <= row[2] < 300}
    lost = acknowledged - _stored_event_ids(env)
    outside = [row for row in failed if row[0] < started - 1 or row[0] > ended + 15]
    print(
        f"\nrestart: {ended - started:.1f} s; requests: {len(rows)}, failed: {len(failed)} "
        f"(statuses {dict(statuses)}; 0 is a refused connection); last failure "
        f"{last_failure - ended:+.1f} s after the restart ended; slowest request "
        f"{slowest / 1000:.1f} s; failures outside the restart and 15 s after it: "
        f"{len(outside)}; deliveries acknowledged with 2xx: {len(acknowledged)}, "
        f"lost: {len(lost)}"
    )
    return not outside and not lost and set(statuses) <= {0, 503} and slowest < 30_000


def _report(prefix: Path) -> tuple[int, int]:
    rows = list(csv.DictReader(open(f"{prefix}_stats.csv")))  # noqa: SIM115
    print(
        f"{'kind':28} {'requests':>9} {'failed':>7} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'req/s':>7}"
    )
    total = failed = 0
    for row in rows:
        print(
            f"{row['Name']:28} {row['Request Count']:>9} {row['Failure Count']:>7} "
            f"{row['50%']:>7} {row['95%']:>7} {row['99%']:>7} "
            f"{float(row['Requests/s']):>7.1f}"
        )
        if row["Name"] == "Aggregated":
            total, failed = int(row["Request Count"]), int(row["Failure Count"])
    return total, failed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--database", default="loadtest", help="recreated on 127.0.0.1:5432")
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--users", type=int, default=40, help="Locust users at once")
    p.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    p.add_argument("--port", type=int, default=8790)
    p.add_argument("--redis-db", type=int, default=11, help="broker and cache (emptied)")
    p.add_argument("--fault", choices=["postgres", "redis"], default=None)
    p.add_argument(
        "--scenario",
        choices=["mixed", "neighbours"],
        default="mixed",
        help="neighbours: one bad tenant among --workspaces others (bench/neighbours.py)",
    )
    p.add_argument("--workspaces", type=int, default=50, help="neighbours: the other tenants")
    p.add_argument("--slow", type=float, default=9.5, help="neighbours: the bad endpoints' s")
    p.add_argument("--settle", type=float, default=20, help="neighbours: s to finish delivering")
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="neighbours: runs without and with the bad neighbour, alternating",
    )
    p.add_argument(
        "--upload-lines",
        type=int,
        default=100_000,
        help="neighbours: the lines the bad neighbour uploads in each run with it (0: none)",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=60,
        help="neighbours: the other workspaces' requests a second, paced (0: as fast as answered)",
    )
    args = p.parse_args(argv)
    if args.scenario == "neighbours":
        from bench.neighbours import run  # noqa: PLC0415

        if args.database == "loadtest":
            args.database = "loadtest_neighbours"
        return run(args)
    if not port_free(args.port):
        raise SystemExit(f"port {args.port} is taken")
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="loadtest-"))
    psql(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{args.database}"')
    redis_url = f"redis://{HOST}:6379/{args.redis_db}"
    subprocess.run(
        ["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True, capture_output=True
    )
    env = production_environment(
        database_url=f"postgres://postgres@{HOST}:5432/{args.database}", port=args.port
    )
    metrics_token = "loadtest-" + os.urandom(12).hex()
    env.update(
        CELERY_BROKER_URL=redis_url,
        CACHE_URL=redis_url,
        METRICS_TOKEN=metrics_token,
        PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
        STRIPE_API_BASE=NOWHERE,
        CALENDLY_API_BASE=NOWHERE,
        ZOOM_API_BASE=NOWHERE,
        ZOOM_OAUTH_BASE=NOWHERE,
        HUBSPOT_API_BASE=NOWHERE,
        DEMO_FILE=str(folder / "demo.json"),
    )
    world = _world(env, folder)
    server = Server(
        env,
        port=args.port,
        workers=args.workers,
        log_path=folder / "gunicorn.log",
        extra_args=("--config", "python:config.gunicorn"),
    )
    worker_log = open(folder / "worker.log", "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--beat",
            "--concurrency",
            "2",
            "--queues",
            ",".join([*queue_names("celery"), "celery"]),
            "--loglevel",
            "WARNING",
            "--schedule",
            str(folder / "beat-schedule"),
        ],
        cwd=ROOT,
        env=env,
        stdout=worker_log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    fault = None
    try:
        server.wait_ready(
            lambda: (
                urllib.request.urlopen(f"http://{HOST}:{args.port}/readyz", timeout=5).status == 200
            )
        )
        prefix = OUT / ("loadtest" if args.fault is None else f"loadtest_fault_{args.fault}")
        print(
            f"Locust: {args.users} users for {args.seconds} s against {args.workers} gunicorn "
            f"workers and one Celery worker; PostgreSQL and Redis on this machine"
        )
        if args.fault:
            fault = _fault(args.fault, args.seconds / 2, folder)
        began = time.time()
        locust_run(
            args,
            ROOT / "bench" / "locustfile.py",
            prefix,
            env={
                **env,
                "LOADTEST_WORLD": str(world),
                "LOADTEST_REQUESTS": str(folder / "requests.jsonl"),
            },
        )
        if fault is not None:
            fault.wait()
        took = time.time() - began
        total, failed = _report(prefix)
        deadline = time.time() + 120
        if args.fault:
            # The beat's resend of events whose apply task failed during the restart,
            # run now rather than in five minutes.
            python_run(
                env,
                "manage.py",
                "shell",
                "--no-imports",
                "-c",
                "from integrations.tasks import events_apply_pending; "
                "events_apply_pending.delay(older_than_seconds=0)",
            )
        while (left := _unsettled(env)) and time.time() < deadline:
            time.sleep(2)
        metrics = _metrics(args.port, metrics_token)
        outcomes = [
            line for line in metrics.splitlines() if line.startswith("webhook_deliveries_total{")
        ]
        print(
            f"\n{total} requests in {took:.0f} s, {failed} failed; provider events left "
            f"unapplied after the run: {left}"
        )
        print("\n".join(outcomes))
        if args.fault:
            return 0 if _fault_reading(folder, env) and not left else 1
        return 1 if failed or left else 0
    finally:
        if fault is not None and fault.poll() is None:
            fault.wait()
        server.stop()
        os.killpg(worker.pid, 15)
        worker.wait(timeout=60)
        worker_log.close()


if __name__ == "__main__":
    raise SystemExit(main())
