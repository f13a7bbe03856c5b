"""Applying deliveries on a real Celery worker, against Redis and the test database."""

import json
import uuid
from types import SimpleNamespace

import pytest
import redis
from django.db import connection
from django.test import Client

from audit.models import AuditEvent
from config.celery import app as celery_app
from integrations.models import Event
from integrations.services import PAUSE_MARKER_ENV, PAUSE_SECONDS_ENV
from integrations.tasks import event_apply, events_apply_pending
from tests.agency.test_worker import BROKER, Worker, _reset_producers, _wait_for
from workspaces.models import Payment

from .conftest import charge, event, sign

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

ROUTED = ("integrations.event_apply", "integrations.events_apply_pending")


@pytest.fixture
def broker(transactional_db):
    """Tasks go to Redis for real, on a queue of this test's own."""
    queue_name = f"integrations-test-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(BROKER)
    previous = (celery_app.conf.broker_url, celery_app.conf.task_routes)
    celery_app.conf.task_always_eager = False
    _reset_producers(BROKER, {name: {"queue": queue_name} for name in ROUTED})
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
    connection.close()


def _post(shop, payload):
    body = json.dumps(payload)
    return Client().post(
        f"/hooks/stripe/{shop.connection.pk}",
        data=body,
        content_type="application/json",
        headers={"Stripe-Signature": sign(body, "whsec_" + "T3stS3cr3tT3stS3cr3tT3stS3cr3t00")},
    )


PAID = event(
    "evt_w1",
    "charge.succeeded",
    charge("ch_w1", 100000, "2026-03-03 10:00", email="pat@example.test"),
    "2026-03-03 10:00",
)


def _state():
    return Event.objects.get(event_id="evt_w1").state


def test_the_worker_applies_a_delivery(shop, start_worker, broker):
    worker = start_worker()
    assert _post(shop, PAID).json() == {"received": True}
    _wait_for(lambda: _state() == "applied", "the worker to apply the delivery", worker)
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_w1", 100000)]
    assert worker.succeeded("applied") == 1


def test_a_worker_killed_while_applying_applies_it_once_after_restart(
    shop, start_worker, broker, tmp_path
):
    marker = tmp_path / "inside-apply"
    worker = start_worker(**{PAUSE_SECONDS_ENV: "120", PAUSE_MARKER_ENV: str(marker)})
    assert _post(shop, PAID).status_code == 200
    # The worker has written the payment inside the apply's transaction and is pausing.
    _wait_for(marker.exists, "the worker to be inside the apply", worker)
    worker.kill()
    assert _state() == "received"
    assert Payment.objects.count() == 0
    assert not AuditEvent.objects.filter(action="integration.event_applied").exists()

    # Restarted, with the pending events sent again (as the beat schedule does), and the
    # provider retrying the same delivery: applied once.
    retry = start_worker()
    assert events_apply_pending(0) == 1
    assert _post(shop, PAID).json() == {"received": True, "duplicate": True}
    _wait_for(lambda: _state() == "applied", "the restarted worker to apply it", retry)
    # Run again, the task changes nothing.
    event_apply.delay(Event.objects.get(event_id="evt_w1").pk)
    _wait_for(lambda: retry.succeeded("applied") == 2, "the task run again", retry)
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_w1", 100000)]
    assert AuditEvent.objects.filter(action="integration.event_applied").count() == 1
    assert shop.connection.__class__.objects.get().events_applied == 1
