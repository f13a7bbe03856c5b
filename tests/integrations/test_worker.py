"""Applying deliveries on a real Celery worker, against Redis and the test database."""

import json

import pytest
from django.test import Client

from audit.models import AuditEvent
from integrations.apply import PAUSE_MARKER_ENV, PAUSE_SECONDS_ENV
from integrations.models import Connection, Event
from integrations.tasks import event_apply, events_apply_pending
from tests.worker import wait_for, worker_fixtures
from workspaces.models import Payment

from .conftest import charge, event, sign

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

broker, start_worker = worker_fixtures(
    "integrations-test",
    ["integrations.events_apply", "integrations.event_apply", "integrations.events_apply_pending"],
)


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
    wait_for(lambda: _state() == "applied", "the worker to apply the delivery", worker)
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_w1", 100000)]
    wait_for(lambda: worker.results("integrations.events_apply"), "the task to end", worker)
    assert worker.results("integrations.events_apply") == ["1"]


def test_deliveries_queued_meanwhile_are_applied_by_one_task_in_order(shop, start_worker, broker):
    # Four charges of 1,000 USD by Pat's email, while no worker runs: the first delivery
    # queues the task, the others find it queued.
    for n in range(1, 5):
        paid = event(
            f"evt_b{n}",
            "charge.succeeded",
            charge(f"ch_b{n}", 100000, f"2026-03-0{n + 2} 10:00", email="pat@example.test"),
            f"2026-03-0{n + 2} 10:00",
        )
        assert _post(shop, paid).json() == {"received": True}
    assert broker.length() == 1
    worker = start_worker()
    wait_for(lambda: worker.results("integrations.events_apply"), "the task to end", worker)
    assert worker.results("integrations.events_apply") == ["4"]
    # One transaction, and still each charge sees the cash of the ones before it: the
    # 3,000 USD sale takes three, the fourth finds no unpaid balance.
    states = dict(Event.objects.values_list("event_id", "state"))
    assert states == {
        "evt_b1": "applied",
        "evt_b2": "applied",
        "evt_b3": "applied",
        "evt_b4": "held",
    }
    assert Event.objects.get(event_id="evt_b4").hold_code == "no_sale"
    assert sorted(Payment.objects.values_list("external_id", flat=True)) == [
        "ch_b1",
        "ch_b2",
        "ch_b3",
    ]
    shop.sale.refresh_from_db()
    assert shop.sale.cash_collected == 300000
    counters = Connection.objects.values("events_received", "events_applied", "events_held")
    assert counters.get() == {"events_received": 4, "events_applied": 3, "events_held": 1}


def test_a_worker_killed_while_applying_applies_it_once_after_restart(
    shop, start_worker, broker, tmp_path
):
    marker = tmp_path / "inside-apply"
    worker = start_worker(**{PAUSE_SECONDS_ENV: "120", PAUSE_MARKER_ENV: str(marker)})
    assert _post(shop, PAID).status_code == 200
    # The worker has written the payment inside the apply's transaction and is pausing.
    wait_for(marker.exists, "the worker to be inside the apply", worker)
    worker.kill()
    assert _state() == "received"
    assert Payment.objects.count() == 0
    assert not AuditEvent.objects.filter(action="integration.event_applied").exists()

    # Restarted, with the connection's pending events sent again (as the beat schedule
    # does), and the provider retrying the same delivery: applied once.
    retry = start_worker()
    assert events_apply_pending(0) == 1
    assert _post(shop, PAID).json() == {"received": True, "duplicate": True}
    wait_for(lambda: _state() == "applied", "the restarted worker to apply it", retry)
    wait_for(lambda: retry.results("integrations.events_apply"), "the task to end", retry)
    assert retry.results("integrations.events_apply") == ["1"]
    # The one-event task run again changes nothing.
    event_apply.delay(Event.objects.get(event_id="evt_w1").pk)
    wait_for(lambda: retry.results("integrations.event_apply"), "the task run again", retry)
    assert retry.results("integrations.event_apply") == ["'applied'"]
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_w1", 100000)]
    assert AuditEvent.objects.filter(action="integration.event_applied").count() == 1
    assert Connection.objects.get().events_applied == 1
