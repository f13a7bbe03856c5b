"""`make loadtest LOADTEST_ARGS="--scenario neighbours"`: one tenant must not slow another.

On a fresh PostgreSQL database (`--database`, recreated) and Redis (`--redis-db`, emptied),
it makes 50 workspaces (`--workspaces`), each with an owner, a read and a write token and
one webhook endpoint on a receiver that answers at once; five of them with a Stripe
connection. One more workspace, the bad neighbour, has 20 endpoints on a receiver that
answers after `--slow` seconds, just under the delivery timeout (10 s). It serves the
project as `make serve` does (gunicorn, `--workers`) with the workers as `make worker`
starts them (`python -m config.pools`: a pool per kind of task, and the beat), and runs
Locust (bench/locust_neighbours.py) twice for `--seconds`: without the bad neighbour, then
with it writing a change-log entry every second, and with an uploading neighbour: the owner
of one more workspace (no webhook endpoints) uploads a file of `--upload-lines` records on
the Import page (100,000 by default; 0 for none) and confirms it once checked (`--rounds`
N: N such pairs, alternating).
The other workspaces offer the same load in both runs, `--rate` requests a second (60 by
default, about half of what this 2-core machine serves with everything on it), so the
comparison is of latency at equal work; at `--rate 0` Locust's users go as fast as they are
answered, which saturates the machine.

For each run it prints, for the other workspaces: p50/p95 per request kind; their mail
(password resets, from the request to the mail written by the worker) and their
deliveries (from the event's timestamp to its arrival at the receiver), p50/p95/max;
events lost (recorded, never delivered) and deliveries received twice. Then the ratio of
each p95 with the bad neighbour to without it (with several rounds, each round's and the
median over the rounds, which the target is read against). Targets: within 20 % per request
kind, mail within 5 s, deliveries within 10 s, nothing lost, nothing received twice. A
measurement: a missed target is marked, and it exits 1 only when something was lost or
received twice. Results: bench/out/neighbours_*.csv and docs/performance.md.
"""

from __future__ import annotations

import csv
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from datetime import datetime
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bench.imports import lines_of
from bench.loadtest import locust_run, psql, python_run
from scripts.fuzz_endpoints import CREDENTIALS
from scripts.served import BIN, HOST, ROOT, Server, port_free, production_environment

OUT = ROOT / "bench" / "out"
NOWHERE = "http://127.0.0.1:9"
P95_GROWTH = 1.2
MAIL_TARGET_S = 5.0
DELIVERY_TARGET_S = 10.0

SETUP = """
import json, os
from django.contrib.auth.hashers import make_password
from audit.services import SYSTEM
from integrations import services as integrations
from tokens.services import token_mint
from webhooks.services import endpoint_create
from workspaces.tenancy import agency_create, member_add, user_create, workspace_create
given = json.loads(os.environ["NEIGHBOURS_SETUP"])
hashed = make_password(given["password"])
agency = agency_create(name="Neighbours", tier="agency")
def made(slug, endpoints, receiver):
    ws = workspace_create(agency=agency, name=slug, slug=slug, currency="USD",
                          timezone="America/New_York")
    email = f"owner@{slug}.example"
    user = user_create(email=email, name=f"Owner {slug}", password_hash=hashed)
    member_add(workspace=ws, user=user, email=email, name=f"Owner {slug}", role="owner",
               actor=None)
    tokens = {name: token_mint(actor=SYSTEM, name=name, scopes=scopes, workspace=ws).plaintext
              for name, scopes in (("read", ["read"]), ("write", ["read", "data:write"]))}
    for n in range(endpoints):
        endpoint_create(workspace=ws, url=f"{receiver}/{slug}/{n}", actor=SYSTEM)
    return ws, {"id": str(ws.pk), "slug": slug, "owner": email, **tokens}
good = []
for i in range(given["workspaces"]):
    ws, entry = made(f"ws{i:02d}", 1, given["fast"])
    if i < 5:
        connection = integrations.connection_create(
            workspace=ws, provider="stripe", credentials=given["stripe"], actor=SYSTEM)
        entry["stripe"] = {"id": str(connection.pk),
                           "secret": given["stripe"]["webhook_secret"]}
    good.append(entry)
_, bad = made("bad", 20, given["slow"])
_, uploader = made("uploader", 0, given["slow"])
print(json.dumps({"good": good, "bad": bad, "uploader": uploader,
                  "password": given["password"]}))
"""

COUNTS = """
import json
from webhooks.models import Delivery
rows = Delivery.objects.values_list("endpoint__workspace__slug", "state")
out = {}
for slug, state in rows:
    side = "bad" if slug == "bad" else "good"
    out.setdefault(side, {}).setdefault(state, 0)
    out[side][state] += 1
print(json.dumps(out))
"""


class Receivers:
    """Two HTTP receivers in this process: `fast` answers 200 at once and keeps each
    arrival (time, path, webhook-id, the event's timestamp); `slow` answers 200 after
    `delay` seconds."""

    def __init__(self, delay: float):
        self.arrivals: list[tuple[float, str, str, str]] = []
        self.lock = threading.Lock()
        outer = self

        class Fast(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                arrived = time.time()
                stamp = json.loads(body).get("timestamp", "")
                with outer.lock:
                    outer.arrivals.append(
                        (arrived, self.path, self.headers.get("webhook-id", ""), stamp)
                    )
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Slow(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.fast = ThreadingHTTPServer((HOST, 0), Fast)
        self.slow = ThreadingHTTPServer((HOST, 0), Slow)
        for server in (self.fast, self.slow):
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()

    def url(self, server) -> str:
        return f"http://{HOST}:{server.server_address[1]}"

    def taken(self) -> list:
        with self.lock:
            taken, self.arrivals = self.arrivals, []
        return taken

    def close(self):
        for server in (self.fast, self.slow):
            server.shutdown()


def _workers_ready(broker: str, *, kinds: int, timeout: float) -> None:
    """Wait until a worker of each kind answers a ping (a busy machine starts them slowly)."""
    from celery import Celery  # noqa: PLC0415 (only the broker is needed here)

    app = Celery(broker=broker)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(app.control.ping(timeout=1.0)) >= kinds:
            return
    raise SystemExit(f"the workers did not start within {timeout:.0f} s")


def _quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return (
        f"n={len(values)} p50 {statistics.median(values):.2f} s, p95 {p95:.2f} s, "
        f"max {values[-1]:.2f} s"
    )


def _mail_latencies(folder: Path, resets: Path) -> list[float]:
    """Seconds from each reset's request to its mail's file, matched per address in
    order."""
    asked: dict[str, list[float]] = {}
    if resets.exists():
        for line in resets.read_text().splitlines():
            at, email = json.loads(line)
            asked.setdefault(email, []).append(at)
    sent: dict[str, list[float]] = {}
    for path in folder.glob("*.log"):
        written = path.stat().st_mtime
        for chunk in path.read_bytes().split(b"-" * 79):
            if chunk.strip():
                to = message_from_bytes(chunk.strip()).get("To", "")
                sent.setdefault(to, []).append(written)
    latencies = []
    for email, times in asked.items():
        for requested, written in zip(sorted(times), sorted(sent.get(email, [])), strict=False):
            latencies.append(written - requested)
    return latencies


def _delivery_latencies(arrivals: list) -> tuple[list[float], int]:
    """Seconds from each event's timestamp to its arrival; and how many arrived twice."""
    seen: set[tuple[str, str]] = set()
    twice = 0
    latencies = []
    for arrived, path, event_id, stamp in arrivals:
        key = (path, event_id)
        if key in seen:
            twice += 1
            continue
        seen.add(key)
        if stamp:
            made = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
            latencies.append(arrived - made)
    return latencies, twice


def _stats(prefix: Path) -> dict[str, dict]:
    rows = list(csv.DictReader(open(f"{prefix}_stats.csv")))  # noqa: SIM115
    return {row["Name"]: row for row in rows}


def _locust(
    args, env, world: Path, resets: Path, prefix: Path, *, bad: bool, upload: Path | None
) -> None:
    users = ["Reader", "Writer", "Stripe", "Resetter"] + (["BadNeighbour"] if bad else [])
    uploading = {}
    if bad and upload is not None:
        users.append("UploadingNeighbour")
        uploading = {
            "NEIGHBOURS_UPLOAD": str(upload),
            "NEIGHBOURS_UPLOADS": str(upload.with_suffix(".states")),
        }
    locust_run(
        args,
        ROOT / "bench" / "locust_neighbours.py",
        prefix,
        env={
            **env,
            **uploading,
            "NEIGHBOURS_WORLD": str(world),
            "NEIGHBOURS_RESETS": str(resets),
            "NEIGHBOURS_RATE": str(args.rate),
            "NEIGHBOURS_USERS": str(args.users),
        },
        users=users,
    )


def _upload_file(args, folder: Path, label: str) -> Path | None:
    """The uploading neighbour's file for a run with the bad one (bench/imports.py's
    team history, its records' ids new to each run), or None without one."""
    if not args.upload_lines:
        return None
    path = folder / f"upload-{label}.jsonl"
    lines = lines_of(args.upload_lines, prefix=f"{label}-")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _upload_states(upload: Path | None) -> list:
    """[(state, seconds from the upload's start)] the uploading neighbour saw."""
    if upload is None or not upload.with_suffix(".states").exists():
        return []
    return [json.loads(line) for line in upload.with_suffix(".states").read_text().splitlines()]


def run(args) -> int:
    if not port_free(args.port):
        raise SystemExit(f"port {args.port} is taken")
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="neighbours-"))
    receivers = Receivers(args.slow)
    psql(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
    psql(f'CREATE DATABASE "{args.database}"')
    redis_url = f"redis://{HOST}:6379/{args.redis_db}"
    subprocess.run(
        ["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True, capture_output=True
    )
    env = production_environment(
        database_url=f"postgres://postgres@{HOST}:5432/{args.database}", port=args.port
    )
    env.update(
        CELERY_BROKER_URL=redis_url,
        CACHE_URL=redis_url,
        STRIPE_API_BASE=NOWHERE,
        WEBHOOK_ALLOW_LOOPBACK="true",
        PROMETHEUS_MULTIPROC_DIR=str(folder / "metrics"),
        RATE_LIMIT_OUTBOUND_ATTEMPTS="off",
    )
    (folder / "metrics").mkdir()
    python_run(env, "manage.py", "migrate", "--noinput")
    setup = {
        "workspaces": args.workspaces,
        "password": "neighbours-password",
        "fast": receivers.url(receivers.fast),
        "slow": receivers.url(receivers.slow),
        "stripe": CREDENTIALS["stripe"],
    }
    printed = (
        python_run(
            {**env, "NEIGHBOURS_SETUP": json.dumps(setup)},
            "manage.py",
            "shell",
            "--no-imports",
            "-c",
            SETUP,
        )
        .strip()
        .splitlines()
    )
    world = folder / "world.json"
    world.write_text(printed[-1])
    server = Server(
        env,
        port=args.port,
        workers=args.workers,
        log_path=folder / "gunicorn.log",
        extra_args=("--config", "python:config.gunicorn"),
    )
    results = {}
    status = 0
    workers_log = open(folder / "workers.log", "w")  # noqa: SIM115
    try:
        server.wait_ready(
            lambda: (
                urllib.request.urlopen(f"http://{HOST}:{args.port}/readyz", timeout=5).status == 200
            )
        )
        # Alternating runs: without, with, without, with, ... (`--rounds` of each).
        for round_, bad in [(r, bad) for r in range(args.rounds) for bad in (False, True)]:
            label = _label("with" if bad else "without", round_ + 1, args.rounds)
            mail = folder / f"mail-{label}"
            mail.mkdir()
            run_env = {
                **env,
                "EMAIL_URL": f"file:{mail}",
                "CELERY_WORKER_HIJACK_ROOT_LOGGER": "false",
            }
            python_run(env, "-c", f"import redis; redis.Redis.from_url('{redis_url}').flushdb()")
            workers = subprocess.Popen(
                [str(BIN / "python"), "-m", "config.pools"],
                cwd=ROOT,
                env={**run_env, "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics")},
                stdout=workers_log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            _workers_ready(redis_url, kinds=5, timeout=300)
            resets = folder / f"resets-{label}.jsonl"
            prefix = OUT / f"neighbours_{label}"
            print(
                f"\n== {label} the bad neighbour: {args.users} users for {args.seconds} s, "
                + (f"{args.rate:g} requests a second ==" if args.rate > 0 else "unpaced =="),
                flush=True,
            )
            receivers.taken()
            upload = _upload_file(args, folder, label) if bad else None
            _locust(args, run_env, world, resets, prefix, bad=bad, upload=upload)
            # What was recorded in the run is delivered within the settle time, or lost.
            time.sleep(args.settle)
            arrivals = receivers.taken()
            counts = json.loads(
                python_run(env, "manage.py", "shell", "--no-imports", "-c", COUNTS)
                .strip()
                .splitlines()[-1]
            )
            os.killpg(workers.pid, 15)
            workers.wait(timeout=60)
            latencies, twice = _delivery_latencies(arrivals)
            mails = _mail_latencies(mail, resets)
            good = counts.get("good", {})
            lost = sum(n for state, n in good.items() if state != "succeeded")
            states = _upload_states(upload)
            if upload is not None:
                print(f"the uploading neighbour's {args.upload_lines:,} lines: {states}")
            results[label] = {
                "upload": states,
                "stats": _stats(prefix),
                "mail": mails,
                "deliveries": latencies,
                "twice": twice,
                "lost": lost,
                "counts": counts,
            }
            print(f"mail: {_quantiles(mails)}")
            print(f"deliveries to the other workspaces: {_quantiles(latencies)}")
            print(
                f"delivery rows: {counts}; not delivered (others): {lost}; received twice: {twice}"
            )
            # The next run starts from a clean table of deliveries.
            python_run(
                env,
                "manage.py",
                "shell",
                "--no-imports",
                "-c",
                "from webhooks.models import Delivery; Delivery.objects.all().delete()",
            )
            if lost or twice:
                status = 1
        _compare(results, args.rounds)
    finally:
        server.stop()
        workers_log.close()
        receivers.close()
    (OUT / "neighbours.json").write_text(
        json.dumps(
            {label: {k: v for k, v in r.items() if k != "stats"} for label, r in results.items()},
            default=str,
        )
    )
    return status


def _label(kind: str, round_: int, rounds: int) -> str:
    """A run's name ("without", "with"; "without-2" for round 2 of several), which its files
    and results are kept under."""
    return kind if rounds == 1 else f"{kind}-{round_}"


def _ratios(without: dict, with_bad: dict) -> dict[str, tuple[float, float, float, float]]:
    """{request kind: (req/s without, req/s with, p95 without, p95 with)} of the other
    workspaces, from two runs' Locust stats."""
    found = {}
    for kind, row in without.items():
        if kind.startswith("bad") or kind not in with_bad:
            continue
        found[kind] = (
            float(row["Requests/s"]),
            float(with_bad[kind]["Requests/s"]),
            float(row["95%"]),
            float(with_bad[kind]["95%"]),
        )
    return found


def _compare(results: dict, rounds: int = 1) -> None:
    """Each round's p95 with the bad neighbour against without it; with several rounds,
    each kind's median ratio over them, which the 20 % target is read against."""
    labels = [
        (_label("without", r, rounds), _label("with", r, rounds)) for r in range(1, rounds + 1)
    ]
    per_kind: dict[str, list[float]] = {}
    for without, with_bad in labels:
        if rounds > 1:
            print(f"\n{without} / {with_bad}")
        print(
            f"{'kind':22} {'req/s without':>13} {'req/s with':>10} "
            f"{'p95 without':>12} {'p95 with':>9} {'ratio':>6}"
        )
        pairs = _ratios(results[without]["stats"], results[with_bad]["stats"])
        for kind, (rate_before, rate_after, before, after) in pairs.items():
            ratio = after / before if before else float("nan")
            per_kind.setdefault(kind, []).append(ratio)
            mark = "" if ratio <= P95_GROWTH else "  MISS"
            rates = f"{rate_before:>13.1f} {rate_after:>10.1f}"
            print(f"{kind:22} {rates} {before:>12.0f} {after:>9.0f} {ratio:>6.2f}{mark}")
    if rounds > 1:
        print(f"\n{'kind':22} {'median ratio':>12}  each round")
        for kind, ratios in per_kind.items():
            median = statistics.median(ratios)
            mark = "" if median <= P95_GROWTH else "  MISS"
            each = " ".join(f"{ratio:.2f}" for ratio in ratios)
            print(f"{kind:22} {median:>12.2f}  {each}{mark}")
    for label in [label for pair in labels for label in pair]:
        mails, latencies = results[label]["mail"], results[label]["deliveries"]
        mail_ok = bool(mails) and max(mails) <= MAIL_TARGET_S
        deliveries_ok = bool(latencies) and max(latencies) <= DELIVERY_TARGET_S
        print(
            f"{label}: mail max {max(mails, default=float('nan')):.2f} s "
            f"({'met' if mail_ok else 'MISS'}), deliveries max "
            f"{max(latencies, default=float('nan')):.2f} s "
            f"({'met' if deliveries_ok else 'MISS'})"
        )
