"""The apply task on a real Celery worker, against Redis and the test database.

Each test starts `celery -A config worker` as a subprocess pointed at the test database
and a Redis database of its own, and stops it afterwards.
"""

import os
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
from django.test import Client

from agency.apply import PAUSE_MARKER_ENV, PAUSE_SECONDS_ENV
from agency.models import Plan
from agency.tasks import apply_plan
from audit.models import AuditEvent
from config.celery import app as celery_app
from workspaces.models import Member, Workspace

from .conftest import new_workspace_plan

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

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


def _wait_for(predicate, what: str, worker=None):
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
    def __init__(self, log: Path, queue: str, extra_env: dict | None = None):
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
                queue,
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


@pytest.fixture
def broker(transactional_db):
    """Tasks go to Redis for real (the shared conftest makes them eager in-process).

    Each test has a queue of its own, so a suite running at the same time on the same Redis
    database neither takes these tasks nor has its own taken.
    """
    queue_name = f"agency-test-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(BROKER)
    previous = (celery_app.conf.broker_url, celery_app.conf.task_routes)
    celery_app.conf.task_always_eager = False
    _reset_producers(BROKER, {"agency.tasks.apply_plan": {"queue": queue_name}})
    yield SimpleNamespace(name=queue_name, length=lambda: client.llen(queue_name))
    _reset_producers(*previous)
    client.delete(queue_name)


@pytest.fixture
def start_worker(broker, tmp_path):
    workers = []

    def start(**extra_env):
        worker = Worker(tmp_path / f"worker-{len(workers)}.log", broker.name, extra_env)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()
    # Close this process's connection so the flush that follows is not kept waiting.
    connection.close()


@pytest.fixture
def approver(agency_world, django_user_model):
    person = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-123456789")
    agency_world.agency.users.add(person)
    client = Client()
    client.force_login(person)
    return client


def _approved_plan(world, write, approver) -> str:
    plan_id = write(world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    assert (
        write(world.no_apply, "POST", f"/api/v1/plans/{plan_id}/request-approval").status_code
        == 200
    )
    response = approver.post(f"/agency/{world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"})
    assert response.status_code == 302
    return plan_id


def _state(plan_id):
    return Plan.objects.get(pk=plan_id).state


def test_requested_approved_and_applied_by_the_worker(
    agency_world, write, approver, start_worker, broker
):
    worker = start_worker()
    plan_id = _approved_plan(agency_world, write, approver)
    _wait_for(lambda: _state(plan_id) == "applied", "the worker to apply the plan", worker)
    workspace = Workspace.objects.get(slug="acme")
    assert workspace.agency_id == agency_world.agency.pk
    assert sorted(Member.objects.filter(workspace=workspace).values_list("email", flat=True)) == [
        "ana@acme.test",
        "ben@acme.test",
    ]
    plan = Plan.objects.get(pk=plan_id)
    assert [c["status"] for c in plan.result["changes"]] == ["applied"] * 5
    assert "member_tokens" not in plan.result
    assert AuditEvent.objects.filter(action="session_token.minted").count() == 0
    assert worker.succeeded("applied") == 1


def test_the_task_run_twice_makes_its_changes_once(
    agency_world, write, approver, start_worker, broker
):
    plan_id = _approved_plan(agency_world, write, approver)  # enqueues the first run
    apply_plan.delay(plan_id)
    apply_plan.delay(plan_id)
    assert broker.length() == 3
    worker = start_worker()
    _wait_for(
        lambda: worker.succeeded("applied") + worker.succeeded("skipped:applied") == 3,
        "three runs of the task",
        worker,
    )
    assert worker.succeeded("applied") == 1
    assert worker.succeeded("skipped:applied") == 2
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace__slug="acme").count() == 2
    assert AuditEvent.objects.filter(action="plan.applied", target_id=plan_id).count() == 1
    assert AuditEvent.objects.filter(action="workspace.created").count() == 1


def test_a_worker_killed_mid_apply_leaves_nothing_half_done(
    agency_world, write, approver, start_worker, broker, tmp_path
):
    marker = tmp_path / "inside-apply"
    worker = start_worker(**{PAUSE_SECONDS_ENV: "120", PAUSE_MARKER_ENV: str(marker)})
    plan_id = _approved_plan(agency_world, write, approver)
    # The worker has created the workspace inside the apply's transaction and is pausing.
    _wait_for(marker.exists, "the worker to be inside the apply", worker)
    worker.kill()

    # Never half: the plan is unapplied and nothing of it is kept.
    def nothing_kept():
        return (
            _state(plan_id) == "approved"
            and not Workspace.objects.filter(slug="acme").exists()
            and not Member.objects.filter(email="ana@acme.test").exists()
            and not AuditEvent.objects.filter(
                action__in=["workspace.created", "plan.applied"]
            ).exists()
        )

    assert nothing_kept()

    # A retry applies it, once.
    retry = start_worker()
    apply_plan.delay(plan_id)
    _wait_for(lambda: _state(plan_id) == "applied", "the retry to apply the plan", retry)
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace__slug="acme").count() == 2
    assert AuditEvent.objects.filter(action="plan.applied").count() == 1
    assert retry.succeeded("applied") == 1
