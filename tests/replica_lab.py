"""A PostgreSQL primary and a real streaming replica of it, made for a test.

The primary is a cluster of its own (initdb, on a free port, WAL for replication); the
replica is made from it with `pg_basebackup -R` and streams from it, on another port. Both
run as the `postgres` user when the tests run as root (PostgreSQL refuses root), from
Debian's binaries (/usr/lib/postgresql/<version>/bin); stop() removes everything.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"


def binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Lab:
    def __init__(self):
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="replica-lab-", dir="/tmp"))
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self.primary_port, self.replica_port = _free_port(), _free_port()
        self.primary, self.replica = self.root / "primary", self.root / "replica"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_postgres else []
        return subprocess.run([*prefix, *command], check=check, capture_output=True, text=True)

    def _pg_ctl(self, data: Path, action: str, *extra: str) -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(data) + ".log",
            "-w",
            action,
            *extra,
        )

    def start(self) -> Lab:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.primary),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
        )
        with open(self.primary / "postgresql.conf", "a") as conf:
            conf.write(
                f"port = {self.primary_port}\nlisten_addresses = '{HOST}'\n"
                f"unix_socket_directories = '{self.root}'\nwal_level = replica\n"
                "max_wal_senders = 4\nhot_standby = on\nfsync = off\n"
            )
        with open(self.primary / "pg_hba.conf", "w") as hba:
            hba.write(
                "local all all trust\n"
                f"host all all {HOST}/32 trust\n"
                f"host replication all {HOST}/32 trust\n"
            )
        self._pg_ctl(self.primary, "start")
        self._run(
            str(self.bin / "pg_basebackup"),
            "-h",
            HOST,
            "-p",
            str(self.primary_port),
            "-U",
            "postgres",
            "-D",
            str(self.replica),
            "-R",
            "-X",
            "stream",
        )
        with open(self.replica / "postgresql.auto.conf", "a") as conf:
            conf.write(f"port = {self.replica_port}\n")
        self._pg_ctl(self.replica, "start")
        return self

    def url(self, *, replica: bool = False, database: str = "postgres") -> str:
        port = self.replica_port if replica else self.primary_port
        return f"postgres://postgres@{HOST}:{port}/{database}"

    def sql(self, statement: str, *, replica: bool = False, database: str = "postgres") -> str:
        port = self.replica_port if replica else self.primary_port
        done = subprocess.run(
            [
                "psql",
                "-h",
                HOST,
                "-p",
                str(port),
                "-U",
                "postgres",
                "-d",
                database,
                "-Atc",
                statement,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout.strip()

    def wait_replayed(self, timeout: float = 30) -> None:
        """Until the replica has replayed everything the primary wrote so far."""
        target = self.sql("SELECT pg_current_wal_lsn()")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            caught_up = self.sql(
                f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn", replica=True
            )
            if caught_up == "t":
                return
            time.sleep(0.1)
        raise TimeoutError("the replica did not catch up")

    def replica_stop(self) -> None:
        self._pg_ctl(self.replica, "stop", "-m", "fast")

    def stop(self) -> None:
        for data in (self.replica, self.primary):
            if data.exists():
                self._run(
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(data),
                    "-m",
                    "immediate",
                    "stop",
                    check=False,
                )
        shutil.rmtree(self.root, ignore_errors=True)
