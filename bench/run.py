"""Measure every figures endpoint over HTTP and against its own SQL.

    .venv/bin/python bench/run.py                      # bench_large and bench_small
    .venv/bin/python bench/run.py --databases bench_large --requests 300

For each database loaded by bench/generate.py (its bench/out/<name>.json holds the
token and ids) this serves the project as production does, with gunicorn's sync workers
on config.wsgi (--server asgi: uvicorn workers on config.asgi, to compare)
on 127.0.0.1 (DEBUG off; one server per database, on --port, --port + 1, ...), with
production's settings and bench/urls.py's URLconf (bench/settings.py), which adds a bare
Django JSON view. First, `whoami` against that bare view in requests per second, with
--concurrency client threads, in rounds taking turns. Then for every figures endpoint over
the default 30-day period, the databases taking turns request by request:

1. captures the SQL the endpoint runs, by calling it once in-process (bench/capture.py);
2. sends warm-up requests, then --requests sequential requests to each database, in
   turn: p50 and p95 latency (fewer, at least 3, past --max-seconds per database);
3. sends --requests more from --concurrency client threads: requests per second;
4. runs the captured SELECT statements directly with psycopg, --requests times: their
   p50, the ratio endpoint p50 / SQL p50, and +ms = endpoint p50 - SQL p50.

With several databases it also prints, per endpoint, p50 on the first / p50 on each other.
Targets (2-core machine): p95 <= 15 ms up to 1,000,000 leads and <= 50 ms up to 10,000,000,
+ms <= 5 ms, whoami >= 0.4 x the bare view's requests per second, first/other <= 1.3 when
both hold the same records a day (bench/generate.py's default span); a miss is marked,
never fatal: this is a measurement and exits 0 unless it could not run at all.
Results are also written to bench/out/results.json (and results.md with --markdown).
"""

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.served import (
    HOST,
    SERVER_COMMANDS,
    Server,
    port_free,
    production_environment,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
BIN = ROOT / ".venv" / "bin"

# p95 targets (ms) by the size of the benchmark workspace: (at most this many leads, target).
P95_TARGETS = ((1_000_000, 15.0), (10_000_000, 50.0))
# Endpoint p50 - SQL p50 (ms): the code around the SQL.
OVERHEAD_TARGET_MS = 5.0
SCALE_RATIO_TARGET = 1.3
# whoami's requests per second / the bare Django view's (bench/urls.py), same server and
# client threads.
BARE_RATIO_TARGET = 0.4
BARE_PATH = "/bench/bare"  # bench/urls.py
BARE_ROUNDS = 5

# (label, path): every figures endpoint with its default parameters; whoami is the floor
# (authentication and framework only) and is not held to the ratio target.
ENDPOINTS = [
    ("whoami", "/api/v1/whoami"),
    ("calls", "/api/v1/calls"),
    ("outcomes", "/api/v1/outcomes"),
    ("payments", "/api/v1/payments"),
    ("leads", "/api/v1/leads"),
    ("journey", "/api/v1/leads/{lead}/journey"),
    ("speed-to-lead", "/api/v1/speed-to-lead"),
    ("eod", "/api/v1/eod"),
    ("attribution", "/api/v1/attribution"),
    ("acquisition", "/api/v1/acquisition"),
    ("ad-spend", "/api/v1/ad-spend"),
    ("commission", "/api/v1/commission"),
    ("funnel", "/api/v1/funnel"),
    ("webinar", "/api/v1/webinar"),
    ("audit-events", "/api/v1/audit-events"),
    # This month's goals (the workspace's six and 50 members', bench/generate.py) and the
    # closers' leaderboard of the last 30 days.
    ("goals", "/api/v1/goals"),
    ("leaderboard", "/api/v1/leaderboard"),
    # One figure per day over 90 days (from = 89 days before today in the workspace's zone).
    ("series-calls-90d", "/api/v1/series?metric=calls.booked&interval=day&from={from90}"),
    ("series-cash-90d", "/api/v1/series?metric=payments.cash_collected&interval=day&from={from90}"),
    ("series-outcomes-90d", "/api/v1/series?metric=outcomes.total&interval=day&from={from90}"),
    ("series-leads-90d", "/api/v1/series?metric=leads.created&interval=day&from={from90}"),
    ("series-roas-90d", "/api/v1/series?metric=acquisition.roas&interval=day&from={from90}"),
]
# The benchmark workspaces' timezone (bench/generate.py).
BENCH_ZONE = "America/New_York"
# The statements replayed: reads (a UNION of SELECTs is written "(SELECT ...) UNION ...").
REPLAYED = ("SELECT", "WITH", "(SELECT")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--databases", default="bench_large,bench_small")
    p.add_argument("--requests", type=int, default=200, help="timed requests per endpoint")
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--concurrency", type=int, default=2, help="client threads for req/s")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    p.add_argument(
        "--server",
        default="wsgi",
        help="wsgi: sync workers on config.wsgi, as make serve (default); asgi: uvicorn "
        "workers on config.asgi; wsgi,asgi: both at once, taking turns like the databases "
        "(the ratio table then compares the first two servers of the first database)",
    )
    p.add_argument("--port", type=int, default=8765)
    p.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        help="time budget of each timed phase of one endpoint; a slower endpoint gets fewer runs",
    )
    p.add_argument("--only", default="", help="comma-separated endpoint labels")
    p.add_argument(
        "--pg-options",
        default=None,
        help="PostgreSQL settings for every connection (server, capture, SQL), through libpq's "
        'PGOPTIONS, e.g. "-c jit=off -c random_page_cost=1.1"',
    )
    p.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE each miss")
    p.add_argument("--markdown", action="store_true", help="also write bench/out/results.md")
    p.add_argument("--report", default=None, help="print the tables of a results.json; no run")
    args = p.parse_args(argv)
    if args.pg_options is not None:
        os.environ["PGOPTIONS"] = args.pg_options  # inherited by gunicorn and bench/capture.py
    args.servers = [kind for kind in args.server.split(",") if kind]
    if not args.servers or any(kind not in SERVER_COMMANDS for kind in args.servers):
        p.error(
            f"--server takes {' or '.join(sorted(SERVER_COMMANDS))}, or both separated by a comma"
        )
    args.requests = max(1, min(args.requests, 10_000))
    args.warmup = max(0, min(args.warmup, 1_000))
    args.concurrency = max(1, min(args.concurrency, 16))
    return args


# --- the server ----------------------------------------------------------------------------


def server_start(info: dict, *, port: int, workers: int, kind: str = "wsgi") -> Server:
    if not port_free(port):
        raise SystemExit(f"Port {port} on {HOST} is in use; pass --port.")
    env = production_environment(database_url=info["database_url"], port=port)
    # Production's settings with bench.urls, which adds the bare view (never routed in
    # production).
    env["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    return Server(env, port=port, workers=workers, kind=kind, log_path=OUT / f"gunicorn-{port}.log")


def server_ready(server: Server, token: str) -> None:
    server.wait_ready(lambda: request(server.port, "/api/v1/whoami", token)[0] == 200)


def request(port: int, path: str, token: str) -> tuple[int, int]:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        body = response.read()
        return response.status, len(body)
    finally:
        conn.close()


def timed(port: int, path: str, token: str) -> float:
    began = time.perf_counter()
    request(port, path, token)
    return (time.perf_counter() - began) * 1000


def throughput(port: int, path: str, token: str, total: int, threads: int) -> float:
    remaining = [total]
    lock = threading.Lock()

    def work():
        while True:
            with lock:
                if remaining[0] <= 0:
                    return
                remaining[0] -= 1
            request(port, path, token)

    began = time.perf_counter()
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return total / (time.perf_counter() - began)


# --- the SQL, directly -----------------------------------------------------------------------


def sql_times(targets: list[tuple[str, list[str]]], runs: int, warmup: int) -> list[list[float]]:
    """Run each target's statements directly, the targets taking turns; the times of each
    target's runs after the warm-up, in ms."""
    times = [[] for _ in targets]
    with contextlib.ExitStack() as stack:
        # Never prepared, as the service's are not: Django turns psycopg's prepared
        # statements off (prepare_threshold None), so the service plans every statement
        # it sends. psycopg's own default prepares a statement from its sixth run, and the
        # runs after it would skip the planning the service's requests pay for.
        cursors = [
            stack.enter_context(
                psycopg.connect(
                    url.replace("postgres://", "postgresql://", 1),
                    autocommit=True,
                    prepare_threshold=None,
                )
            ).cursor()
            for url, _statements in targets
        ]
        for i in range(warmup + runs):
            for values, cur, (_url, statements) in zip(times, cursors, targets, strict=True):
                began = time.perf_counter()
                for statement in statements:
                    cur.execute(statement.encode())
                    cur.fetchall()
                if i >= warmup:
                    values.append((time.perf_counter() - began) * 1000)
    return times


def explain(url: str, statements: list[str]) -> str:
    """EXPLAIN ANALYZE of the slowest statement."""
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        slowest, worst = None, -1.0
        for statement in statements:
            began = time.perf_counter()
            conn.execute(statement.encode()).fetchall()
            took = time.perf_counter() - began
            if took > worst:
                slowest, worst = statement, took
        if slowest is None:
            return ""
        plan = conn.execute(b"EXPLAIN (ANALYZE, BUFFERS) " + slowest.encode()).fetchall()
    return slowest + "\n" + "\n".join(row[0] for row in plan)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# --- one database ----------------------------------------------------------------------------


def database_prepare(name: str, args, port: int, kind: str) -> dict:
    """Read the load's ids, capture each endpoint's SQL in-process, start a server."""
    info_path = OUT / f"{name}.json"
    if not info_path.exists():
        raise SystemExit(f"{info_path} is missing: run bench/generate.py for {name} first.")
    info = json.loads(info_path.read_text())
    from90 = (datetime.now(ZoneInfo(BENCH_ZONE)).date() - timedelta(days=89)).isoformat()
    endpoints = [
        (label, path.format(lead=info["journey_lead_id"], from90=from90))
        for label, path in ENDPOINTS
    ]
    if args.only:
        wanted = set(args.only.split(","))
        endpoints = [e for e in endpoints if e[0] in wanted or e[0] == "whoami"]
    capture = subprocess.run(
        [
            str(BIN / "python"),
            str(ROOT / "bench" / "capture.py"),
            str(info_path),
            json.dumps([p for _, p in endpoints]),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if capture.returncode != 0:
        raise SystemExit(f"Calling the endpoints in-process failed:\n{capture.stderr[-3000:]}")
    print(f"{name}: {info['leads']:,} leads, generated {info['generated_at']}", flush=True)
    generated = datetime.fromisoformat(info["generated_at"])
    if datetime.now(UTC) - generated > timedelta(days=2):
        print(
            "  (the records end when they were generated: the 30-day period now holds fewer;"
            " make bench BENCH_REGENERATE=1 loads them again)",
            flush=True,
        )
    return {
        "name": name if len(args.servers) == 1 else f"{name} ({kind})",
        "info": info,
        "endpoints": dict(endpoints),
        "captured": json.loads(capture.stdout),
        "server": server_start(info, port=port, workers=args.workers, kind=kind),
        "rows": {},
    }


def endpoint_measure(dbs: list[dict], label: str, args) -> None:
    """Measure one endpoint on every database into db["rows"][label].

    The databases take turns request by request (and statement run by statement run), so
    a burst of load on the machine falls on all of them alike and the large/small ratio
    compares the workspaces, not the moments they were measured at.
    """
    live = []
    for db in dbs:
        if label not in db["endpoints"]:
            continue
        port, token = db["server"].port, db["info"]["token"]
        path = db["endpoints"][label]
        cap = db["captured"][path]
        row = {"path": path, "status": cap["status"]}
        db["rows"][label] = row
        prefix = f"  {label:<14} {db['name']:<12}"
        if cap["status"] is None:
            row["missing"] = True
            print(f"{prefix} not routed yet", flush=True)
            continue
        status, size = request(port, path, token)
        row["http_status"], row["bytes"] = status, size
        if status != 200:
            row["error"] = cap.get("body", "")
            print(f"{prefix} HTTP {status}: {row['error'][:120]}", flush=True)
            continue
        statements = [q for q in cap["queries"] if q.lstrip().upper().startswith(REPLAYED)]
        live.append((db, row, prefix, partial(timed, port, path, token), statements))
    if not live:
        return
    budget = args.max_seconds * len(live)
    began = time.monotonic()
    for _ in range(args.warmup):
        for _db, _row, _prefix, measure, _statements in live:
            measure()
        if time.monotonic() - began > budget / 4:
            break
    latencies = [[] for _ in live]
    began = time.monotonic()
    for _ in range(args.requests):
        for values, (_db, _row, _prefix, measure, _statements) in zip(latencies, live, strict=True):
            values.append(measure())
        if len(latencies[0]) >= 3 and time.monotonic() - began > budget:
            break
    runs = len(latencies[0])
    sql = sql_times(
        [(db["info"]["database_url"], statements) for db, _r, _p, _m, statements in live],
        runs,
        min(args.warmup, 3),
    )
    for (db, row, prefix, _measure, statements), values, sql_values in zip(
        live, latencies, sql, strict=True
    ):
        port, token = db["server"].port, db["info"]["token"]
        rps = throughput(port, row["path"], token, runs, args.concurrency)
        row.update(
            runs=runs,
            p50=statistics.median(values),
            p95=percentile(values, 0.95),
            rps=rps,
            queries=len(db["captured"][row["path"]]["queries"]),
            replayed=len(statements),
            sql_p50=statistics.median(sql_values),
            sql_p95=percentile(sql_values, 0.95),
        )
        row["ratio"] = row["p50"] / row["sql_p50"] if row["sql_p50"] > 0 else None
        miss = row["p95"] > p95_target(db["info"]["leads"]) or (
            label != "whoami" and row["p50"] - row["sql_p50"] > OVERHEAD_TARGET_MS
        )
        print(
            f"{prefix} p50 {row['p50']:7.1f} ms  p95 {row['p95']:7.1f} ms  {rps:6.1f} req/s  "
            f"SQL {row['sql_p50']:7.1f} ms ({len(statements)} stmts, {runs} runs)",
            flush=True,
        )
        if args.explain and miss and statements:
            row["explain"] = explain(db["info"]["database_url"], statements)


def bare_measure(dbs: list[dict], args) -> None:
    """whoami against the bare Django view on each server, in requests per second with
    args.concurrency client threads: BARE_ROUNDS rounds of --requests each, the two paths
    and the servers taking turns, into db["bare"]."""
    counts = {id(db): {"whoami": [0, 0.0], "bare": [0, 0.0]} for db in dbs}
    for _ in range(BARE_ROUNDS):
        for db in dbs:
            port, token = db["server"].port, db["info"]["token"]
            for label, path in (("whoami", "/api/v1/whoami"), ("bare", BARE_PATH)):
                began = time.perf_counter()
                throughput(port, path, token, args.requests, args.concurrency)
                tally = counts[id(db)][label]
                tally[0] += args.requests
                tally[1] += time.perf_counter() - began
    for db in dbs:
        whoami, bare = (n / seconds for n, seconds in counts[id(db)].values())
        db["bare"] = {"whoami_rps": whoami, "bare_rps": bare, "ratio": whoami / bare}
        print(
            f"  whoami / bare  {db['name']:<12} {whoami:7.1f} / {bare:7.1f} req/s = "
            f"{whoami / bare:.2f} ({BARE_ROUNDS} x {args.requests} requests each, "
            f"{args.concurrency} client threads)",
            flush=True,
        )


def bench(names: list[str], args) -> list[dict]:
    """Every endpoint on every database, the databases taking turns request by request."""
    dbs = []
    try:
        for i, name in enumerate(names):
            for j, kind in enumerate(args.servers):
                dbs.append(database_prepare(name, args, args.port + 2 * i + j, kind))
        for db in dbs:
            server_ready(db["server"], db["info"]["token"])
        load_before = os.getloadavg()[0]
        bare_measure(dbs, args)
        for label, _ in ENDPOINTS:
            endpoint_measure(dbs, label, args)
        load = (load_before, os.getloadavg()[0])
    finally:
        for db in dbs:
            db["server"].stop()
    print(f"load average (1 min) before {load[0]:.2f}, after {load[1]:.2f}", flush=True)
    return [
        {
            "name": db["name"],
            "leads": db["info"]["leads"],
            "rows": db["rows"],
            "load": load,
            "bare": db.get("bare"),
        }
        for db in dbs
    ]


# --- the table -------------------------------------------------------------------------------


def p95_target(leads: int) -> float:
    """The p95 target of a workspace of this many leads: the first size at least as big."""
    for size, target in P95_TARGETS:
        if leads <= size:
            return target
    return P95_TARGETS[-1][1]


def mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def table(results: list[dict], requested: int) -> list[str]:
    lines = []
    head = (
        f"| {'endpoint':<14} | {'p50 ms':>7} | {'p95 ms':>7} | {'req/s':>6} | {'SQL ms':>7} "
        f"| {'queries':>7} | {'vs SQL':>6} | {'+ms':>6} | targets |"
    )
    for result in results:
        load = "load average {:.2f} before, {:.2f} after".format(*result["load"])
        lines += [
            "",
            f"**{result['name']}** ({result['leads']:,} leads; {load})",
            "",
            head,
            "|" + "|".join("-" * (len(c) + 0) for c in head.split("|")[1:-1]) + "|",
        ]
        for label, r in result["rows"].items():
            if r.get("missing"):
                lines.append(f"| {label:<14} | {'not routed yet':<71} |")
                continue
            if "p50" not in r:
                lines.append(f"| {label:<14} | HTTP {r.get('http_status')} {'':<62} |")
                continue
            ratio = r["ratio"]
            checks = [f"p95 {mark(r['p95'] <= p95_target(result['leads']))}"]
            if label != "whoami" and ratio is not None:
                checks.append(f"+ms {mark(r['p50'] - r['sql_p50'] <= OVERHEAD_TARGET_MS)}")
            lines.append(
                f"| {label:<14} | {r['p50']:7.1f} | {r['p95']:7.1f} | {r['rps']:6.1f} "
                f"| {r['sql_p50']:7.1f} | {r['replayed']:>3}/{r['queries']:<3} "
                f"| {ratio if ratio is not None else 0:6.2f} | {r['p50'] - r['sql_p50']:6.1f} "
                f"| {', '.join(checks)}"
                + (f" (only {r['runs']} runs)" if r["runs"] < requested else "")
                + " |"
            )
    bare = [result for result in results if result.get("bare")]
    if bare:
        lines += [
            "",
            f"**whoami / a bare Django JSON view** (req/s; target >= {BARE_RATIO_TARGET:g})",
            "",
            "| server | whoami req/s | bare req/s | ratio | target |",
            "|---|---:|---:|---:|---|",
        ]
        for result in bare:
            b = result["bare"]
            lines.append(
                f"| {result['name']} | {b['whoami_rps']:.1f} | {b['bare_rps']:.1f} "
                f"| {b['ratio']:.2f} | {mark(b['ratio'] >= BARE_RATIO_TARGET)} |"
            )
    for other in results[1:]:
        first = results[0]
        lines += [
            "",
            f"**{first['name']} / {other['name']}** (p50 on "
            f"{first['leads']:,} leads / p50 on {other['leads']:,} leads)",
            "",
            f"| {'endpoint':<14} | {'first':>7} | {'other':>7} | {'ratio':>5} | target |",
            "|----------------|---------|---------|-------|--------|",
        ]
        for label, r in first["rows"].items():
            s = other["rows"].get(label, {})
            if "p50" not in r or "p50" not in s:
                continue
            ratio = r["p50"] / s["p50"]
            # whoami is the framework floor, not a figure: shown, not held to the target.
            target = "-" if label == "whoami" else mark(ratio <= SCALE_RATIO_TARGET)
            lines.append(
                f"| {label:<14} | {r['p50']:7.1f} | {s['p50']:7.1f} | {ratio:5.2f} | {target:<6} |"
            )
    return lines


def code_version() -> str:
    """The commit measured, and whether the working tree differed from it."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "code: unknown (not a git checkout)"
    return f"code: {commit}" + (" with uncommitted changes" if dirty else "")


def main(argv=None) -> int:
    args = parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.report:
        print("\n".join(table(json.loads(Path(args.report).read_text()), args.requests)))
        return 0
    began = datetime.now(UTC)
    results = bench([name for name in args.databases.split(",") if name], args)
    ended = datetime.now(UTC)
    lines = [
        f"Measured {began:%Y-%m-%d %H:%M}–{ended:%H:%M} UTC; {code_version()}.",  # noqa: RUF001 (a time range)
        *table(results, args.requests),
    ]
    print("\n".join(lines))
    print(
        "\nTargets: p95 <= "
        + " / ".join(f"{target:g} ms up to {size:,} leads" for size, target in P95_TARGETS)
        + "; +ms (endpoint p50 - its SQL p50) <= "
        f"{OVERHEAD_TARGET_MS:g} ms (whoami is the framework floor, not held to it); "
        f"whoami req/s >= {BARE_RATIO_TARGET:g} x the bare view's; "
        f"first / other <= {SCALE_RATIO_TARGET:g} at the same records a day. "
        f"{args.requests} timed requests after "
        f"{args.warmup} warm-up, sequential; req/s with {args.concurrency} client threads "
        f"against {args.workers} gunicorn workers ({args.server}). PGOPTIONS: {os.environ.get('PGOPTIONS') or '-'}"
    )
    for result in results:
        for label, r in result["rows"].items():
            if r.get("explain"):
                print(f"\n-- {result['name']} {label}: slowest statement --\n{r['explain']}")
    (OUT / "results.json").write_text(json.dumps(results, indent=2, default=str))
    if args.markdown:
        (OUT / "results.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
