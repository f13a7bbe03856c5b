"""The Python client (clients/python) against the service served as production serves it.

The client is used from the checkout (clients/python is put on sys.path), so nothing is
installed for these tests. One server for the module: gunicorn on a fresh database (a new
PostgreSQL database beside DATABASE_URL's when that is PostgreSQL, dropped afterwards;
otherwise an SQLite file), migrated and given a fresh demo (`manage.py seed_demo --json`).
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest

from scripts.served import BIN, HOST, ROOT, Server, production_environment

CLIENT_DIR = ROOT / "clients" / "python"
if str(CLIENT_DIR) not in sys.path:
    sys.path.insert(0, str(CLIENT_DIR))

# Requests without an accepted token, per minute, on the served process: the 429 test
# reaches it quickly.
ANONYMOUS_RATE = 3


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=5) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return False


class _Database:
    """A fresh database for the served process, and its removal."""

    def __init__(self, folder: Path):
        base = os.environ.get("DATABASE_URL", "")
        self.admin = None
        if base.startswith(("postgres://", "postgresql://")):
            self.name = f"client_{os.getpid()}_{secrets.token_hex(3)}"
            server = base.rsplit("/", 1)[0]
            self.admin = f"{server}/postgres"
            with psycopg.connect(self.admin, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            self.url = f"{server}/{self.name}"
        else:
            self.url = f"sqlite:///{folder / 'db.sqlite3'}"

    def drop(self) -> None:
        if self.admin:
            with psycopg.connect(self.admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def served(tmp_path_factory):
    """The base URL of a served demo, and the demo (its tokens, workspaces, members)."""
    folder = tmp_path_factory.mktemp("client-served")
    port = _free_port()
    database = _Database(folder)
    env = production_environment(database_url=database.url, port=port)
    env.update(
        CACHE_URL="",
        CELERY_BROKER_URL="",
        DEMO_FILE=str(folder / "demo.json"),
        RATE_LIMIT_ANON=f"{ANONYMOUS_RATE}/min",
        # Deliveries go to a receiver on 127.0.0.1 in these tests.
        WEBHOOK_ALLOW_LOOPBACK="true",
    )
    server = None
    try:
        manage = [str(BIN / "python"), "manage.py"]
        subprocess.run(
            [*manage, "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        seeded = subprocess.run(
            [*manage, "seed_demo", "--json", "--allow-production"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        demo = json.loads(seeded.stdout)
        server = Server(env, port=port, workers=2, log_path=folder / "gunicorn.log")
        server.wait_ready(lambda: _answers(port))
        yield f"http://{HOST}:{port}", demo
    finally:
        if server is not None:
            server.stop()
        database.drop()
