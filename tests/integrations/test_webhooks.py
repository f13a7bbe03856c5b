"""The webhook endpoint: what it refuses (and that a refusal stores nothing), what it
stores, and its answers."""

import json
import time

import pytest
from celery import current_app
from django.test import Client
from prometheus_client import REGISTRY

from audit.services import SYSTEM
from integrations import services
from integrations.models import Connection, Event
from workspaces.models import Payment

from .conftest import OTHER_SECRET, SECRET, charge, event, sign, stripe_connection

pytestmark = pytest.mark.django_db


def paid(charge_id="ch_1"):
    return event(
        f"evt_{charge_id}",
        "charge.succeeded",
        charge(charge_id, 100000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )


def nothing_stored(refused=1):
    connection = Connection.objects.get(pk=nothing_stored.connection_id)
    assert Event.objects.count() == 0
    assert Payment.objects.count() == 0
    assert (
        connection.events_received,
        connection.events_applied,
        connection.events_held,
        connection.events_refused,
    ) == (0, 0, 0, refused)


@pytest.fixture
def connection(shop):
    nothing_stored.connection_id = shop.connection.pk
    return shop.connection


def _error(response):
    return response.json()["error"]["reason"]


def test_a_wrong_signature_is_refused_and_nothing_is_stored(connection, deliver):
    answer = deliver(connection, paid(), secret="whsec_" + "W" * 32)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": {
            "reason": "invalid_signature",
            "message": "The Stripe-Signature header is missing or does not match this "
            "endpoint's signing secret.",
        }
    }
    nothing_stored()


def test_another_connections_secret_is_refused(connection, deliver, make_workspace):
    # Another workspace's connection (a workspace has one per provider).
    other = stripe_connection(make_workspace(currency="USD"), secret=OTHER_SECRET)
    answer = deliver(connection, paid(), secret=OTHER_SECRET)
    assert (answer.status_code, _error(answer)) == (400, "invalid_signature")
    nothing_stored()
    # Signed with its own secret, the other connection takes it.
    assert deliver(other, paid(), secret=OTHER_SECRET).status_code == 200


def test_a_missing_or_malformed_header_is_refused(connection, deliver):
    assert _error(deliver(connection, paid(), header=False)) == "invalid_signature"
    assert _error(deliver(connection, paid(), header="t=abc,v1=00")) == "invalid_signature"
    nothing_stored(refused=2)


def test_a_stale_signature_is_refused(connection, deliver):
    answer = deliver(connection, paid(), timestamp=int(time.time()) - 301)
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "stale_signature",
        "message": "The Stripe-Signature timestamp is more than 300 seconds old; Stripe "
        "retries with a fresh one.",
    }
    nothing_stored()


def test_a_changed_body_is_refused(connection):
    body = json.dumps(paid())
    header = sign(body, SECRET)
    answer = Client().post(
        f"/hooks/stripe/{connection.pk}",
        data=body.replace("100000", "900000"),
        content_type="application/json",
        headers={"Stripe-Signature": header},
    )
    assert (answer.status_code, _error(answer)) == (400, "invalid_signature")
    nothing_stored()


def test_a_disconnected_connection_answers_410(connection, deliver):
    services.connection_disconnect(connection=connection, actor=SYSTEM)
    answer = deliver(connection, paid())
    assert answer.status_code == 410
    assert answer.json()["error"]["reason"] == "connection_disconnected"
    nothing_stored(refused=0)
    connection.refresh_from_db()
    assert connection.signing_secret_encrypted is None
    assert services.connection_credentials(connection) == {}


def test_an_unknown_connection_or_another_provider_is_404(connection, deliver):
    answer = Client().post(
        "/hooks/stripe/00000000-0000-4000-8000-000000000000",
        data="{}",
        content_type="application/json",
    )
    assert answer.status_code == 404
    assert answer.json()["error"]["reason"] == "not_found"
    assert deliver(connection, paid(), provider="calendly").status_code == 404
    assert deliver(connection, paid(), provider="nosuch").status_code == 404
    nothing_stored(refused=0)


def test_only_post(connection):
    answer = Client().get(f"/hooks/stripe/{connection.pk}")
    assert answer.status_code == 405
    assert answer.json()["error"]["reason"] == "method_not_allowed"
    nothing_stored(refused=0)


def test_a_body_over_the_limit_is_refused(connection, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = json.dumps({**paid(), "padding": "x" * 2000})
    answer = Client().post(
        f"/hooks/stripe/{connection.pk}",
        data=body,
        content_type="application/json",
        headers={"Stripe-Signature": sign(body, SECRET)},
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    assert Event.objects.count() == 0


def test_a_verified_delivery_is_stored_as_received(connection, deliver):
    payload = paid()
    answer = deliver(connection, payload)
    assert (answer.status_code, answer.json()) == (200, {"received": True})
    stored = Event.objects.get()
    assert (
        stored.provider,
        stored.event_id,
        stored.event_type,
        stored.object_id,
        stored.source,
        stored.payload,
        stored.workspace_id,
    ) == (
        "stripe",
        "evt_ch_1",
        "charge.succeeded",
        "ch_1",
        "webhook",
        payload,
        connection.workspace_id,
    )
    assert stored.occurred_at.isoformat() == "2026-03-03T10:00:00+00:00"


def test_an_unknown_event_type_is_stored_and_ignored(connection, deliver):
    answer = deliver(connection, event("evt_x", "invoice.paid", {"id": "in_1"}, "2026-03-03"))
    assert answer.status_code == 200
    stored = Event.objects.get()
    assert (stored.state, stored.hold_reason) == (
        "ignored",
        "Stripe's invoice.paid feeds no record.",
    )
    connection.refresh_from_db()
    assert (connection.events_received, connection.events_applied) == (1, 0)


def test_the_receive_stores_once_per_event_id(connection):
    described = services.provider_get("stripe").describe(paid())
    first = services.event_receive(connection=connection, described=described, payload=paid())
    again = services.event_receive(connection=connection, described=described, payload=paid())
    assert first is not None and first.pk == Event.objects.get().pk
    assert again is None
    connection.refresh_from_db()
    assert connection.events_received == 1


def test_metrics_count_each_delivery_and_what_became_of_it(shop, deliver):
    outcomes = ("received", "duplicate", "refused", "applied", "held")

    def counts():
        return [
            REGISTRY.get_sample_value(
                "webhook_deliveries_total", {"provider": "stripe", "outcome": outcome}
            )
            or 0
            for outcome in outcomes
        ]

    before = counts()
    paid = event(
        "evt_m1",
        "charge.succeeded",
        charge("ch_m1", 1000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )
    unknown = event(
        "evt_m2",
        "charge.succeeded",
        charge("ch_m2", 1000, "2026-03-03 10:00", email="nobody@example.test"),
        "2026-03-03 10:00",
    )
    assert deliver(shop.connection, paid).status_code == 200
    assert deliver(shop.connection, paid).json() == {"received": True, "duplicate": True}
    assert deliver(shop.connection, unknown).status_code == 200
    assert deliver(shop.connection, paid, secret=OTHER_SECRET).status_code == 400
    after = counts()
    assert dict(
        zip(outcomes, [a - b for a, b in zip(after, before, strict=True)], strict=True)
    ) == {
        "received": 2,
        "duplicate": 1,
        "refused": 1,
        "applied": 1,
        "held": 1,
    }


def test_a_delivery_is_received_while_the_broker_cannot_be_reached(
    shop, deliver, settings, monkeypatch
):
    """Redis restarting: the stored delivery is answered 200 and stays received, for the
    beat schedule to send its apply task again; nothing is lost."""
    closed = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)
    monkeypatch.setitem(current_app.conf, "broker_url", closed)
    monkeypatch.setitem(current_app.conf, "broker_connection_retry", False)
    monkeypatch.setitem(current_app.conf, "broker_connection_max_retries", 0)
    monkeypatch.setenv("CELERY_BROKER_URL", closed)
    monkeypatch.setattr(current_app, "_pool", None)
    monkeypatch.setattr(current_app.amqp, "_producer_pool", None)
    paid = event(
        "evt_down",
        "charge.succeeded",
        charge("ch_down", 1000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )
    answer = deliver(shop.connection, paid)
    assert (answer.status_code, answer.json()) == (200, {"received": True})
    assert list(Event.objects.values_list("event_id", "state")) == [("evt_down", "received")]


def test_metrics_count_the_apply_task_runs(shop, deliver):
    labels = {"task": "integrations.events_apply", "state": "succeeded"}
    runs = REGISTRY.get_sample_value("celery_tasks_total", labels) or 0
    timed = (
        REGISTRY.get_sample_value("celery_task_duration_seconds_count", {"task": labels["task"]})
        or 0
    )
    paid = event(
        "evt_t1",
        "charge.succeeded",
        charge("ch_t1", 1000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )
    assert deliver(shop.connection, paid).status_code == 200
    assert REGISTRY.get_sample_value("celery_tasks_total", labels) == runs + 1
    assert (
        REGISTRY.get_sample_value("celery_task_duration_seconds_count", {"task": labels["task"]})
        == timed + 1
    )
