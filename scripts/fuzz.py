"""Fuzz both served API descriptions with Schemathesis against a live server on PostgreSQL.

    .venv/bin/python scripts/fuzz.py                    # what `make fuzz` runs
    .venv/bin/python scripts/fuzz.py --max-examples 50 --seed 1

1. creates a fresh PostgreSQL database (fuzz_<time>_<pid>) on --pg, migrates it and loads
   a fresh demo (`manage.py seed_demo --json`) for its tokens;
2. serves the project with gunicorn on a free 127.0.0.1 port (DEBUG off, rate limits off,
   Celery tasks run in the web process);
3. runs Schemathesis (settings in scripts/fuzz.toml) against /api/v1/openapi.json and then
   /openapi/agent.json: the examples, coverage and fuzzing phases, --max-examples cases
   per operation and phase at most. Workspace routes use the demo workspace's `write` token,
   the agency API the agency's `full` token, forms and the board a closer's session token.
   A run fails on any 5xx, any status the description does not document, and any content
   type, header or body outside it;
4. stops the server and drops the database, whatever happened.

Prints the cases run and the failures by kind, and exits 1 when either run failed.
"""

import argparse
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
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
        default=int(os.environ.get("FUZZ_MAX_EXAMPLES", "25")),
        help="Cases per operation and phase, at most (default: $FUZZ_MAX_EXAMPLES or 25).",
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
        import psycopg

        return psycopg.connect(f"{_libpq(self.server_url)}/postgres", autocommit=True)

    def create(self) -> None:
        from psycopg import sql

        with self._admin() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        from psycopg import sql

        with self._admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def server_environment(database_url: str, port: int) -> dict:
    from cryptography.fernet import Fernet

    env = dict(os.environ)
    # Tasks run in the web process: no worker is started here.
    for name in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(48),
        FIELD_ENCRYPTION_KEY=Fernet.generate_key().decode(),
        ALLOWED_HOSTS=HOST,
        BASE_URL=f"http://{HOST}:{port}",
        LOG_LEVEL="WARNING",
        RATE_LIMIT_READ="off",
        RATE_LIMIT_WRITE="off",
        RATE_LIMIT_ANON="off",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
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


class Server:
    def __init__(self, env: dict, port: int, workers: int, log_path: Path):
        self.port = port
        self.log_path = log_path
        self.log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [str(BIN / "gunicorn"), "config.wsgi", "--workers", str(workers),
             "--bind", f"{HOST}:{port}", "--log-level", "warning", "--timeout", "60"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def wait_ready(self) -> None:
        for _ in range(150):  # up to 30 s
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited; see {self.log_path}")
            try:
                status, _ = get(self.port, "/api/v1/openapi.json")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("gunicorn did not answer within 30 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


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
    tokens = {
        "FUZZ_WORKSPACE_TOKEN": token,
        "FUZZ_AGENCY_TOKEN": demo["agency"]["tokens"]["full"],
        "FUZZ_MEMBER_TOKEN": closer["session_token"],
    }
    ids = {
        "WORKSPACE_ID": workspace["id"],
        "LEAD_ID": leads["data"]["leads"][0]["id"],
        "CHANGE_ID": change["id"],
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
    junit = report_dir / f"{name}.xml"
    command = [
        str(BIN / "schemathesis"), "--config-file", str(config), "--no-color",
        "run", url, "--max-examples", str(args.max_examples),
        "--report", "junit,vcr", "--report-junit-path", str(junit),
        "--report-vcr-path", str(report_dir / f"{name}.vcr.yaml"),
    ]  # fmt: skip
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    print(f"\n== {name}: {url} ==", flush=True)
    status = subprocess.run(command, cwd=ROOT, env=env, check=False).returncode
    return status, junit_summary(junit)


def junit_summary(path: Path) -> dict:
    """Operations and failures by kind, from Schemathesis' JUnit report."""
    import xml.etree.ElementTree as ET

    summary = {"operations": 0, "failed_operations": 0, "kinds": Counter()}
    if not path.exists():
        return summary
    for case in ET.parse(path).getroot().iter("testcase"):
        summary["operations"] += 1
        problems = list(case.iter("failure")) + list(case.iter("error"))
        if problems:
            summary["failed_operations"] += 1
        for problem in problems:
            text = (problem.get("message") or "") + "\n" + (problem.text or "")
            for line in text.splitlines():
                line = line.strip()
                if line.startswith(("- ", "Failed", "Runtime Error")) or line in KINDS:
                    kind = line.lstrip("- ").strip()
                    if kind in KINDS or kind.startswith("Runtime Error"):
                        summary["kinds"][kind] += 1
    return summary


# The headings Schemathesis gives each kind of failure.
KINDS = {
    "Server error",
    "Undocumented HTTP status code",
    "Undocumented Content-Type",
    "Response violates schema",
    "Missing Content-Type header",
    "Malformed media type",
    "JSON deserialization error",
    "Missing header not rejected",
    "Unsupported methods",
    "Missing required headers",
    "Response header does not conform to the schema",
}


def main(argv=None) -> int:
    args = parse_args(argv)
    report_dir = Path(args.report_dir)
    shutil.rmtree(report_dir, ignore_errors=True)
    report_dir.mkdir(parents=True)
    database = Database(args.pg)
    port = free_port()
    env = server_environment(database.url, port)
    server = None
    started = time.monotonic()
    results = {}
    try:
        database.create()
        print(f"database {database.name}; server http://{HOST}:{port}", flush=True)
        manage(env, "migrate", "--noinput")
        demo = json.loads(manage(env, "seed_demo", "--json"))
        server = Server(env, port, args.workers, report_dir / "server.log")
        server.wait_ready()
        tokens, ids = fuzz_environment(demo, port)
        fuzz_env = {**os.environ, **tokens}
        config = render_config(ids, report_dir)
        for name, path in DESCRIPTIONS:
            url = f"http://{HOST}:{port}{path}"
            results[name] = run_schemathesis(
                name, url, env=fuzz_env, args=args, config=config, report_dir=report_dir
            )
    finally:
        if server is not None:
            server.stop()
        try:
            database.drop()
        except Exception as error:  # noqa: BLE001 - reported, never hides the run's result
            print(f"could not drop {database.name}: {error}", file=sys.stderr)
    return report(results, report_dir, time.monotonic() - started)


def report(results: dict, report_dir: Path, seconds: float) -> int:
    print(f"\n== fuzz summary ({seconds:.0f} s; reports in {report_dir}) ==")
    failed = False
    for name, (status, summary) in results.items():
        kinds = ", ".join(f"{kind}: {n}" for kind, n in sorted(summary["kinds"].items()))
        print(
            f"{name}: exit {status}; {summary['operations']} operations, "
            f"{summary['failed_operations']} with failures{'; ' + kinds if kinds else ''}"
        )
        failed |= status != 0
    log = report_dir / "server.log"
    errors = [line for line in log.read_text().splitlines() if "Traceback" in line or " ERROR " in line] if log.exists() else []  # fmt: skip
    if errors:
        print(f"server log: {len(errors)} error lines (see {log})")
    if len(results) < len(DESCRIPTIONS):
        failed = True
    print("FAILED" if failed else "OK: no server error, every answer within its description")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
