"""Deliveries on a real Celery worker, against Redis and the test database
(tests/worker.py starts it)."""

import json
import threading

import pytest
from django.db import transaction

from audit.services import SYSTEM
from tests.worker import wait_for, worker_fixtures
from webhooks import services
from webhooks.models import Delivery, DeliveryAttempt
from workspaces.services import lead_upsert

from ..conftest import aware
from .receiver import Answer

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

broker, start_worker = worker_fixtures(
    "webhooks-test",
    ["webhooks.deliveries_make", "webhooks.delivery_attempt", "webhooks.deliveries_sweep"],
)


@pytest.fixture
def worker_env(broker):
    # The tasks a delivery's task sends go to this test's queue too.
    return {
        "WEBHOOK_ALLOW_LOOPBACK": "true",
        "WEBHOOK_TIMEOUT_SECONDS": "5",
        "CELERY_QUEUE": broker.name,
    }


def _lead(ws, n):
    with transaction.atomic():
        lead_upsert(workspace=ws, external_id=f"L{n}", created_at=aware("2026-11-02 10:00"))


def test_the_write_does_not_wait_for_the_receiver(
    make_workspace, receiver, start_worker, broker, worker_env
):
    """The receiver holds the request until the write has returned: had the write waited
    for the delivery, it could not have returned first."""
    worker = start_worker(**worker_env)
    ws = make_workspace()
    services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    release = threading.Event()
    receiver.answers = [Answer(hold=release)]
    _lead(ws, 1)  # returns with the delivery still to come
    wait_for(lambda: len(receiver.received) == 1, "the delivery to arrive", worker)
    assert DeliveryAttempt.objects.count() == 0
    release.set()
    wait_for(
        lambda: Delivery.objects.filter(state="succeeded").count() == 1,
        "the worker to record the delivery",
        worker,
    )
    assert DeliveryAttempt.objects.get().status_code == 200


def test_a_worker_killed_mid_delivery_delivers_after_restart(
    make_workspace, receiver, start_worker, broker, worker_env
):
    worker = start_worker(**worker_env)
    ws = make_workspace()
    made = services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    receiver.answers = [Answer(hold=threading.Event())]  # never answers
    _lead(ws, 1)
    wait_for(lambda: len(receiver.received) == 1, "the delivery to arrive", worker)
    (first,) = receiver.received
    worker.kill()  # mid-delivery: the request is out, no answer came
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts) == ("pending", 0)
    assert delivery.leased_until is not None

    restarted = start_worker(**worker_env)

    def sent_again():
        # The beat's round (webhooks.deliveries_sweep): due deliveries whose lease ran out.
        services.deliveries_send_due()
        return len(receiver.received) >= 2

    wait_for(sent_again, "the delivery to be attempted again", restarted)
    wait_for(
        lambda: Delivery.objects.get().state == "succeeded",
        "the worker to record the delivery",
        restarted,
    )
    second = receiver.received[1]
    assert second.headers["webhook-id"] == first.headers["webhook-id"]
    assert json.loads(second.body) == json.loads(first.body)
    from standardwebhooks import Webhook  # noqa: PLC0415

    assert Webhook(made.secret).verify(second.body, second.headers)["type"] == "lead.created"
    assert DeliveryAttempt.objects.count() == 1
    assert Delivery.objects.get().attempts == 1
