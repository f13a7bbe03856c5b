"""Fuzz both served API descriptions with Schemathesis against a live server on PostgreSQL.

    .venv/bin/python scripts/fuzz.py                    # what `make fuzz` runs
    .venv/bin/python scripts/fuzz.py --max-examples 50 --seed 1

1. creates a fresh PostgreSQL database (fuzz_<time>_<pid>) on --pg, migrates it and loads
   a fresh demo (`manage.py seed_demo --json --allow-production`) for its tokens;
2. serves the project with gunicorn on a free 127.0.0.1 port (DEBUG off, rate limits off,
   Celery tasks run in the web process);
3. runs Schemathesis (settings in scripts/fuzz.toml) against /api/v1/openapi.json and then
   /openapi/agent.json: the examples, coverage and fuzzing phases, --max-examples cases
   per operation and phase at most. Workspace routes use the demo workspace's `write` token,
   the agency API the agency's `full` token, forms and the board a closer's session token.
   A run fails on any 5xx, any status the description does not document, and any content
   type, header or body outside it;
4. serves the project as `make serve` does (gunicorn, sync workers on config.wsgi) and
   fuzzes the routes no description covers with Hypothesis (scripts/fuzz_endpoints.py):
   each provider's webhook endpoint, signed and unsigned, on a connection made for the run;
   the OAuth 2 endpoints; and /mcp. A case fails on any 5xx;
5. stops the servers and drops the database, whatever happened.

Prints the cases run and the failures by kind, and exits 1 when either run failed.
"""

import argparse
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import fuzz_endpoints  # noqa: E402
from scripts.served import BIN, HOST, Server, production_environment  # noqa: E402

CONFIG = ROOT / "scripts" / "fuzz.toml"
DESCRIPTIONS = [("figures", "/api/v1/openapi.json"), ("agent", "/openapi/agent.json")]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument(
        "--pg",
        default=os.environ.get("FUZZ_PG", "postgres://postgres@127.0.0.1:5432"),
        help="PostgreSQL server URL, no database name (default: $FUZZ_PG or local).",
    )
    p.add_argument(
        "--max-examples",
        type=int,
        default=int(os.environ.get("FUZZ_MAX_EXAMPLES", "200")),
        help="Cases per operation and phase, at most (default: $FUZZ_MAX_EXAMPLES or 200).",
    )
    p.add_argument("--seed", type=int, default=None, help="Schemathesis seed (default: random).")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2).")
    p.add_argument(
        "--report-dir",
        default=str(ROOT / "fuzz-report"),
        help="Where Schemathesis writes its JUnit reports and the server its log.",
    )
    return p.parse_args(argv)


def _libpq(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


class Database:
    def __init__(self, server_url: str):
        self.server_url = server_url.rstrip("/")
        self.name = f"fuzz_{int(time.time())}_{os.getpid()}"
        self.url = f"{self.server_url}/{self.name}"

    def _admin(self):
        return psycopg.connect(f"{_libpq(self.server_url)}/postgres", autocommit=True)

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def server_environment(database_url: str, port: int) -> dict:
    env = production_environment(database_url=database_url, port=port)
    # Tasks run in the web process: no worker is started here.
    for name in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER"):
        env.pop(name, None)
    # Deliveries are attempted in the web process too: none may hold a request long.
    env["WEBHOOK_TIMEOUT_SECONDS"] = "2"
    # Enabling an endpoint again sends its due deliveries at once, in that request here: the
    # run's standing endpoint gathers hundreds of due retries (no beat runs), whose address
    # lookups alone held one such request past the client's 30 s. A short round keeps it
    # well within.
    env["WEBHOOK_SWEEP_PER_WORKSPACE"] = "10"
    return env


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"manage.py {' '.join(args)} failed")
    return done.stdout


def call(port: int, method: str, path: str, token=None, body=None, headers=None):
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        sent = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        conn.request(
            method, path, body=json.dumps(body) if body is not None else None, headers=sent
        )
        response = conn.getresponse()
        answer = response.read()
        return response.status, json.loads(answer) if answer else None
    finally:
        conn.close()


def get(port: int, path: str, token: str | None = None) -> tuple[int, object]:
    return call(port, "GET", path, token)


def fuzz_environment(demo: dict, port: int) -> dict:
    """The ${...} of scripts/fuzz.toml: tokens and ids of the fresh demo."""
    workspace = demo["workspaces"][0]
    token = workspace["tokens"]["write"]
    closer = next(m for m in workspace["members"] if m["role"] == "closer")
    status, leads = get(port, "/api/v1/leads?limit=1", token)
    if status != 200 or not leads["data"]["leads"]:
        raise SystemExit(f"the demo workspace lists no lead ({status})")
    # A change-log entry to compare around: the demo records none.
    status, change = call(
        port,
        "POST",
        "/api/v1/change-log",
        token,
        body={
            "effective_at": leads["data"]["leads"][0]["created_at"],
            "kind": "price",
            "title": "Price up",
            "what": "The programme's price went up.",
            "why": "Demand.",
        },
        headers={"Idempotency-Key": secrets.token_hex(16)},
    )
    if status != 201:
        raise SystemExit(f"could not record a change-log entry ({status}: {change})")
    # A webhook endpoint to read, change and delete (its host resolves nowhere here, so its
    # deliveries fail at once and are only logged).
    status, endpoint = call(
        port,
        "POST",
        "/api/v1/webhook-endpoints",
        token,
        body={"url": "https://hooks.example.com/fuzz", "description": "fuzz"},
        headers={"Idempotency-Key": secrets.token_hex(16)},
    )
    if status != 201:
        raise SystemExit(f"could not add a webhook endpoint ({status}: {endpoint})")
    tokens = {
        "FUZZ_WORKSPACE_TOKEN": token,
        "FUZZ_AGENCY_TOKEN": demo["agency"]["tokens"]["full"],
        "FUZZ_MEMBER_TOKEN": closer["session_token"],
    }
    ids = {
        "WORKSPACE_ID": workspace["id"],
        "LEAD_ID": leads["data"]["leads"][0]["id"],
        "CHANGE_ID": change["id"],
        "ENDPOINT_ID": endpoint["id"],
    }
    return tokens, ids


def render_config(ids: dict, report_dir: Path) -> Path:
    text = CONFIG.read_text()
    for name, value in {**ids, "HOOKS": str(ROOT / "scripts" / "fuzz_hooks.py")}.items():
        text = text.replace(f"@{name}@", value)
    path = report_dir / "fuzz.toml"
    path.write_text(text)
    return path


def run_schemathesis(name, url, *, env, args, config, report_dir: Path) -> tuple[int, dict]:
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(config),
        "--no-color",
        "run",
        url,
        "--max-examples",
        str(args.max_examples),
        "--report",
        "junit",
        "--report-junit-path",
        str(report_dir / f"{name}.xml"),
    ]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    print(f"\n== {name}: {url} ==", flush=True)
    lines = []
    with subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as proc:
        for line in proc.stdout:
            sys.stdout.write(line)
            lines.append(line.rstrip("\n"))
    sys.stdout.flush()
    return proc.returncode, summary_of(lines)


def summary_of(lines: list[str]) -> dict:
    """Cases and failures by kind, from the summary Schemathesis prints."""
    summary = {"cases": None, "passed": None, "kinds": {}, "errors": {}}
    for index, line in enumerate(lines):
        text = line.strip()
        if text == "Test cases:" and index + 1 < len(lines):
            counts = lines[index + 1].strip()
            if match := re.match(r"(\d+) generated", counts):
                summary["cases"] = int(match.group(1))
            if match := re.search(r"(\d+) passed", counts):
                summary["passed"] = int(match.group(1))
        elif match := re.match(r"^\S+\s+(ST\d+ [^:]+): (\d+)$", text):
            summary["kinds"][match.group(1)] = int(match.group(2))
        elif match := re.match(r"^\S+\s+(\w[\w ]*Error): (\d+)$", text):
            summary["errors"][match.group(1)] = int(match.group(2))
    return summary


def _stop(signum, frame):
    raise SystemExit(f"stopped by signal {signum}")  # runs the clean-up below


def main(argv=None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    report_dir = Path(args.report_dir)
    shutil.rmtree(report_dir, ignore_errors=True)
    report_dir.mkdir(parents=True)
    database = Database(args.pg)
    port = free_port()
    env = server_environment(database.url, port)
    server = None
    started = time.monotonic()
    results, endpoints = {}, None
    try:
        database.create()
        print(f"database {database.name}; server http://{HOST}:{port}", flush=True)
        manage(env, "migrate", "--noinput")
        demo = json.loads(manage(env, "seed_demo", "--json", "--allow-production"))
        server = Server(
            env,
            port=port,
            workers=args.workers,
            log_path=report_dir / "server.log",
            kind="wsgi",
            # The request line's length is the HTTP server's limit, not the application's:
            # without this, a long generated query answers gunicorn's HTML 414.
            extra_args=("--limit-request-line", "0", "--timeout", "60"),
        )
        server.wait_ready(lambda: get(port, "/api/v1/openapi.json")[0] == 200)
        tokens, ids = fuzz_environment(demo, port)
        fuzz_env = {**os.environ, **tokens}
        config = render_config(ids, report_dir)
        for name, path in DESCRIPTIONS:
            url = f"http://{HOST}:{port}{path}"
            results[name] = run_schemathesis(
                name, url, env=fuzz_env, args=args, config=config, report_dir=report_dir
            )
        server.stop()
        server = None
        endpoints = fuzz_other_routes(database.url, demo, args, report_dir)
    finally:
        if server is not None:
            server.stop()
        try:
            database.drop()
        except Exception as error:  # reported, never hides the run's result
            print(f"could not drop {database.name}: {error}", file=sys.stderr)
    return report(results, endpoints, report_dir, time.monotonic() - started)


def fuzz_other_routes(database_url: str, demo: dict, args, report_dir: Path) -> dict:
    """The webhook, OAuth and MCP routes, on the production server."""
    port = free_port()
    env = server_environment(database_url, port)
    workspace = demo["workspaces"][0]
    connections = fuzz_endpoints.connections_make(str(BIN / "python"), ROOT, env, workspace["id"])
    server = Server(env, port=port, workers=args.workers, log_path=report_dir / "served.log")
    examples = max(20, args.max_examples // 2)
    try:
        server.wait_ready(lambda: get(port, "/.well-known/oauth-authorization-server")[0] == 200)
        print(f"\n== webhooks, OAuth and /mcp: http://{HOST}:{port} ==", flush=True)
        tallies = fuzz_endpoints.fuzz_webhooks(HOST, port, env["BASE_URL"], connections, examples)
        tallies.update(
            fuzz_endpoints.fuzz_oauth_and_mcp(
                HOST,
                port,
                workspace["tokens"]["read"],
                workspace["embedded_app"]["client_id"],
                examples,
            )
        )
    finally:
        server.stop()
    return tallies


def report(results: dict, endpoints: dict | None, report_dir: Path, seconds: float) -> int:
    print(f"\n== fuzz summary ({seconds:.0f} s; reports and server log in {report_dir}) ==")
    failed = len(results) < len(DESCRIPTIONS)
    for name, (status, summary) in results.items():
        found = {**summary["kinds"], **summary["errors"]}
        kinds = "; ".join(f"{kind}: {n}" for kind, n in sorted(found.items())) or "no failure"
        print(
            f"{name}: {summary['cases']} cases, {summary['passed']} passed; {kinds} (exit {status})"
        )
        failed |= status != 0
    failed |= endpoints is None
    for name, tally in (endpoints or {}).items():
        print(f"{name}: {tally.cases} cases, {len(tally.errors)} server errors")
        for example in [error for error in tally.errors if error][:3]:
            print(f"    {example[:300]}")
        failed |= bool(tally.errors)
    for name in ("server.log", "asgi.log"):
        log = report_dir / name
        if log.exists():
            errors = sum("Traceback" in line for line in log.read_text().splitlines())
            print(f"{name}: {errors} tracebacks")
    print("FAILED" if failed else "OK: no server error, every answer within its description")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
