"""The project served as production serves it, on 127.0.0.1, for the benchmarks and the fuzz run.

gunicorn runs the service's sync workers on config.wsgi (`wsgi`, as `make serve`) or its
uvicorn workers on config.asgi (`asgi`, to compare), with DEBUG off, fresh keys and no
request rates, in a process group of its own that stop() ends.
"""

import base64
import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"

# gunicorn's arguments for each way of serving the project.
SERVER_COMMANDS = {
    "asgi": [
        "config.asgi:application",
        "--worker-class",
        "config.workers.ServiceUvicornWorker",
        "--forwarded-allow-ips",
        "",
    ],
    "wsgi": [
        "config.wsgi:application",
        "--worker-class",
        "config.workers.ServiceSyncWorker",
        "--forwarded-allow-ips",
        "",
    ],
}


def production_environment(*, database_url: str, port: int) -> dict:
    """This process's environment with the production settings for a server on `port`."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(48),
        FIELD_ENCRYPTION_KEY=base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        ALLOWED_HOSTS=HOST,
        BASE_URL=f"http://{HOST}:{port}",
        LOG_LEVEL="WARNING",
        # The benchmarks and the fuzz run measure and probe the service, not its rates.
        RATE_LIMIT_READ="off",
        RATE_LIMIT_WRITE="off",
        RATE_LIMIT_ANON="off",
        RATE_LIMIT_REFUSED_DELIVERIES="off",
        # Static files by their plain names: no collectstatic before each run. (`make serve`
        # collects them and links them by hashed names; tests/test_serving_operations.py
        # checks that way.)
        STATIC_HASHED="false",
    )
    return env


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex((HOST, port)) != 0


class Server:
    def __init__(
        self,
        env: dict,
        *,
        port: int,
        workers: int,
        log_path: Path,
        kind: str = "wsgi",
        extra_args: tuple[str, ...] = (),
    ):
        self.port = port
        self.log = open(log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                *SERVER_COMMANDS[kind],
                "--workers",
                str(workers),
                "--bind",
                f"{HOST}:{port}",
                "--log-level",
                "warning",
                *extra_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, answers: Callable[[], bool]) -> None:
        """Wait up to 30 s until `answers()` (a request to the server) is true."""
        for _ in range(150):
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited; see {self.log.name}")
            try:
                if answers():
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
