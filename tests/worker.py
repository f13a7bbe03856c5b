"""A real Celery worker for the tests that need one: `celery -A config worker` started as
a subprocess on the test database and Redis, taking the tasks of one queue of the test's
own, so a suite running at the same time on the same Redis database neither takes these
tasks nor has its own taken."""

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection

from config.celery import app as celery_app
from config.queues import queue_name, queue_names, task_routes

# The broker the suite is configured with when it is Redis (the producer side keeps using
# it), else a Redis database of these tests' own; each test's queue is its own either way.
_CONFIGURED = os.environ.get("CELERY_BROKER_URL", "")
BROKER = os.environ.get("AGENCY_TEST_BROKER_URL") or (
    _CONFIGURED if _CONFIGURED.startswith("redis://") else "redis://127.0.0.1:6379/7"
)
# Seconds before a test gives up waiting for the worker (a busy machine starts it slowly);
# a limit on waiting, not an assertion about time.
WAIT_LIMIT = 300


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_for(predicate, what: str, worker=None):
    deadline = time.monotonic() + WAIT_LIMIT
    while time.monotonic() < deadline:
        if predicate():
            return
        if worker is not None and worker.process.poll() is not None:
            break
        time.sleep(0.2)
    log = worker.text()[-3000:] if worker is not None else ""
    raise AssertionError(f"gave up waiting for {what}\n{log}")


class Worker:
    """A worker taking the tasks of `queue` (a name, or several)."""

    def __init__(self, log: Path, queue: str | list[str], extra_env: dict | None = None):
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": BROKER,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **(extra_env or {}),
        }
        self.log = log
        self.process = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("celery")),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                queue if isinstance(queue, str) else ",".join(queue),
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=django_settings.BASE_DIR,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def succeeded(self, result: str) -> int:
        return sum(
            1
            for line in self.text().splitlines()
            if "succeeded in" in line and f"'{result}'" in line
        )

    def results(self, task_name: str) -> list[str]:
        """What each finished run of the task returned, as the worker's log shows it."""
        pattern = re.compile(rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded in [^:]+: (.*)$")
        return [
            match.group(1)
            for line in self.text().splitlines()
            if (match := pattern.search(line)) is not None
        ]

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def _reset_producers(broker_url, routes):
    celery_app.conf.broker_url = broker_url
    celery_app.conf.task_routes = routes
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)


def _broker(transactional_db, prefix: str, task_names):
    """The fixture body: the named tasks go to Redis for real (the shared conftest makes
    tasks eager in-process), on a queue of the test's own."""
    queue_name = f"{prefix}-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(BROKER)
    previous = (celery_app.conf.broker_url, celery_app.conf.task_routes)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    _reset_producers(BROKER, {name: {"queue": queue_name} for name in task_names})
    yield SimpleNamespace(name=queue_name, length=lambda: client.llen(queue_name))
    _reset_producers(*previous)
    celery_app.conf.task_always_eager = eager
    client.delete(queue_name, *queue_names(queue_name))


def kind_queues(transactional_db):
    """A fixture body: every task goes to Redis for real, to the queue of its kind as
    production routes it (config/queues.py), under a prefix of the test's own; a worker
    given that prefix as CELERY_QUEUE sends its tasks there too."""
    prefix = f"kinds-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(BROKER)
    previous = (celery_app.conf.broker_url, celery_app.conf.task_routes)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    _reset_producers(BROKER, task_routes(prefix))
    yield SimpleNamespace(
        prefix=prefix,
        name=lambda kind: queue_name(prefix, kind),
        length=lambda kind: client.llen(queue_name(prefix, kind)),
    )
    _reset_producers(*previous)
    celery_app.conf.task_always_eager = eager
    client.delete(prefix, *queue_names(prefix))


def worker_fixtures(prefix: str, task_names):
    """The `broker` and `start_worker` fixtures of a test module: the named tasks go to a
    queue of each test's own; start(**env) starts a worker on it (and, given the queue's
    name as CELERY_QUEUE, on the queues of every kind under it), and every worker started
    is stopped afterwards."""

    @pytest.fixture
    def broker(transactional_db):
        yield from _broker(transactional_db, prefix, task_names)

    @pytest.fixture
    def start_worker(broker, tmp_path):
        workers = []

        def start(**extra_env):
            # A worker whose own tasks go to queues named after the test's queue (its
            # CELERY_QUEUE) takes those too.
            queues = [broker.name]
            if extra_env.get("CELERY_QUEUE") == broker.name:
                queues += queue_names(broker.name)
            worker = Worker(tmp_path / f"worker-{len(workers)}.log", queues, extra_env)
            workers.append(worker)
            return worker

        yield start
        for worker in workers:
            worker.stop()
        # Close this process's connection so the flush that follows is not kept waiting.
        connection.close()

    return broker, start_worker
