"""Applying a connection's stored events: in batches, oldest first, one run per connection
at a time; a mapping's defect or a provider's refusal stops no other event."""

import logging

import pytest
from django.core.cache import cache

from audit.models import AuditEvent
from config.celery import app
from integrations import apply, events, services, tasks
from integrations.base import ProviderError
from integrations.models import Connection, Event
from integrations.providers import provider_get
from integrations.stripe import mapping
from workspaces.kept import leads_sales_refresh
from workspaces.models import Payment, Refund
from workspaces.services import payments_create

from .conftest import charge, event, refund

pytestmark = pytest.mark.django_db

PAT = "pat@example.test"


def _store(connection, payload) -> Event:
    described = provider_get("stripe").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


def _charges(connection, count, amount=10000, *, by_sale=False):
    """Charges by Pat's email, or naming Pat's sale (the fast path places either)."""
    placed = {"metadata": {"sale_id": "sale-pat"}} if by_sale else {"email": PAT}
    return [
        _store(
            connection,
            event(
                f"evt_{n}",
                "charge.succeeded",
                charge(f"ch_{n}", amount, f"2026-03-{n + 2:02} 10:00", **placed),
                f"2026-03-{n + 2:02} 10:00",
            ),
        )
        for n in range(1, count + 1)
    ]


def _one_by_one(monkeypatch):
    """Every event applied through the mapping's event_map (no fast path)."""
    monkeypatch.setattr(type(provider_get("stripe")), "apply_many", None)


def _states(connection):
    return dict(
        Event.objects.filter(connection=connection).order_by("pk").values_list("event_id", "state")
    )


def test_a_run_applies_every_received_event_batch_after_batch(shop, monkeypatch):
    _charges(shop.connection, 5)
    batches = []
    real = services.events_apply_batch

    def counted(**kwargs):
        taken = real(**kwargs)
        batches.append(taken[0])
        return taken

    monkeypatch.setattr(apply, "events_apply_batch", counted)
    assert services.events_apply(connection_id=shop.connection.pk, batch_size=2) == 5
    # Two, two, one, then an empty look that ends the run.
    assert batches == [2, 2, 1, 0]
    assert set(_states(shop.connection).values()) == {"applied"}
    assert sorted(Payment.objects.values_list("external_id", flat=True)) == [
        "ch_1",
        "ch_2",
        "ch_3",
        "ch_4",
        "ch_5",
    ]
    assert AuditEvent.objects.filter(action="integration.event_applied").count() == 5
    counters = Connection.objects.values("events_received", "events_applied", "events_held")
    assert counters.get() == {"events_received": 5, "events_applied": 5, "events_held": 0}
    # The run has ended: the next delivery may queue a new one.
    assert cache.get(f"integrations:apply:{shop.connection.pk}") is None


def test_a_refund_before_its_charge_waits_then_is_applied_in_the_same_run(shop):
    connection = shop.connection
    _store(
        connection,
        event(
            "evt_r",
            "refund.created",
            refund("re_1", "ch_9", 2500, "2026-03-04 09:00"),
            "2026-03-04 09:00",
        ),
    )
    # Placed by the sale it names: applied one by one, in the batch's order.
    _store(
        connection,
        event(
            "evt_c",
            "charge.succeeded",
            charge("ch_9", 10000, "2026-03-03 10:00", metadata={"sale_id": "sale-pat"}),
            "2026-03-03 10:00",
        ),
    )
    # The refund (stored first) waits for its charge; the charge releases it; the run's
    # next batch applies it.
    assert services.events_apply(connection_id=connection.pk, batch_size=100) == 3
    assert _states(connection) == {"evt_r": "applied", "evt_c": "applied"}
    assert list(Refund.objects.values_list("external_id", "amount")) == [("re_1", 2500)]
    actions = list(
        AuditEvent.objects.filter(target_type="integration_event")
        .order_by("at")
        .values_list("action", "detail__event_id")
    )
    assert actions == [
        ("integration.event_held", "evt_r"),
        ("integration.event_applied", "evt_c"),
        ("integration.event_applied", "evt_r"),
    ]
    counters = Connection.objects.values("events_applied", "events_held")
    assert counters.get() == {"events_applied": 2, "events_held": 0}


def test_a_mapping_defect_leaves_its_event_received_and_the_others_applied(
    shop, monkeypatch, caplog
):
    _one_by_one(monkeypatch)
    stored = _charges(shop.connection, 3, by_sale=True)
    real = mapping.event_map

    def broken(*, event, connection):
        if event.event_id == "evt_2":
            raise KeyError("amount")
        return real(event=event, connection=connection)

    monkeypatch.setattr(mapping, "event_map", broken)
    with caplog.at_level(logging.ERROR, logger="integrations.services"):
        assert services.events_apply(connection_id=shop.connection.pk) == 3
    assert _states(shop.connection) == {"evt_1": "applied", "evt_2": "received", "evt_3": "applied"}
    assert Event.objects.get(pk=stored[1].pk).attempts == 1
    assert sorted(Payment.objects.values_list("external_id", flat=True)) == ["ch_1", "ch_3"]
    assert [r.getMessage() for r in caplog.records] == [
        f"event {stored[1].pk}: the stripe mapping failed"
    ]
    # Mended, the beat schedule's run applies it.
    monkeypatch.setattr(mapping, "event_map", real)
    assert services.events_apply(connection_id=shop.connection.pk) == 1
    assert _states(shop.connection)["evt_2"] == "applied"


def test_a_provider_refusal_stops_the_run_and_keeps_what_was_applied(shop, monkeypatch):
    _one_by_one(monkeypatch)
    _charges(shop.connection, 3, by_sale=True)
    real = mapping.event_map

    def refusing(*, event, connection):
        if event.event_id == "evt_2":
            raise ProviderError("Stripe answered 401: the key was revoked.")
        return real(event=event, connection=connection)

    monkeypatch.setattr(mapping, "event_map", refusing)
    assert services.events_apply(connection_id=shop.connection.pk) == 3
    assert _states(shop.connection) == {
        "evt_1": "applied",
        "evt_2": "received",
        "evt_3": "received",
    }
    connection = Connection.objects.get()
    assert (connection.state, connection.last_error) == (
        "failing",
        "Stripe answered in a way we could not use.",
    )
    assert list(Payment.objects.values_list("external_id", flat=True)) == ["ch_1"]


def test_a_delivery_queues_a_run_only_when_none_is_queued(shop, monkeypatch, committed):
    sent = []
    monkeypatch.setattr(events, "task_send", lambda name, *, args: sent.append((name, args)))
    key = f"integrations:apply:{shop.connection.pk}"
    with committed():
        services.events_apply_soon(shop.connection.pk)
    with committed():
        services.events_apply_soon(shop.connection.pk)
    assert sent == [("integrations.events_apply", [str(shop.connection.pk)])]
    assert cache.get(key) == 1
    # The run ends (nothing to apply): the mark goes, and the next delivery queues again.
    assert services.events_apply(connection_id=shop.connection.pk) == 0
    assert cache.get(key) is None
    with committed():
        services.events_apply_soon(shop.connection.pk)
    assert len(sent) == 2


def test_without_a_shared_cache_every_delivery_queues_a_run(shop, monkeypatch, committed, settings):
    # A broker other than Redis and no CACHE_URL: the worker cannot clear a web process's
    # mark, so none is used.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    sent = []
    monkeypatch.setattr(events, "task_send", lambda name, *, args: sent.append(name))
    try:
        for _ in range(3):
            with committed():
                services.events_apply_soon(shop.connection.pk)
    finally:
        app.conf.task_always_eager = eager
    assert sent == ["integrations.events_apply"] * 3


def test_the_beat_sends_a_run_for_each_connection_with_old_received_events(shop, monkeypatch):
    _charges(shop.connection, 2)
    sent = []
    monkeypatch.setattr(
        tasks.events_apply, "delay", lambda connection_id: sent.append(connection_id)
    )
    assert tasks.events_apply_pending(0) == 1
    assert sent == [str(shop.connection.pk)]
    assert tasks.events_apply_pending(3600) == 0


def test_a_defect_of_the_fast_path_leaves_every_event_to_the_one_by_one_path(
    shop, monkeypatch, caplog
):
    _charges(shop.connection, 2)

    def broken(**kwargs):
        payments_create(**kwargs)
        raise ZeroDivisionError("a defect")

    monkeypatch.setattr(mapping, "payments_create", broken)
    with caplog.at_level(logging.ERROR, logger="integrations.services"):
        assert services.events_apply(connection_id=shop.connection.pk) == 2
    assert [r.getMessage() for r in caplog.records] == [
        f"connection {shop.connection.pk}: the stripe fast path failed"
    ]
    # What the fast path wrote was undone; the one-by-one path wrote each payment once.
    assert _states(shop.connection) == {"evt_1": "applied", "evt_2": "applied"}
    assert sorted(Payment.objects.values_list("external_id", "amount")) == [
        ("ch_1", 10000),
        ("ch_2", 10000),
    ]
    assert AuditEvent.objects.filter(action="integration.event_applied").count() == 2


def test_the_fast_path_places_charges_as_one_by_one_would(shop, monkeypatch):
    """Five charges by email in one batch, against the same five applied one by one."""
    # The sale's unpaid 3,000 USD takes three 1,000 USD charges; a failed charge pays
    # nothing; the fifth finds no unpaid balance.
    specs = [
        ("ch_1", 100000, "succeeded"),
        ("ch_2", 100000, "failed"),
        ("ch_3", 100000, "succeeded"),
        ("ch_4", 100000, "succeeded"),
        ("ch_5", 100000, "succeeded"),
    ]

    def run():
        for n, (charge_id, amount, status) in enumerate(specs, start=1):
            at = f"2026-03-{n + 2:02} 10:00"
            _store(
                shop.connection,
                event(
                    f"evt_{n}",
                    f"charge.{status}",
                    charge(charge_id, amount, at, email=PAT.upper(), status=status),
                    at,
                ),
            )
        services.events_apply(connection_id=shop.connection.pk)
        return (
            _states(shop.connection),
            sorted(Payment.objects.values_list("external_id", "sale_id", "amount", "status")),
            list(Event.objects.order_by("pk").values_list("hold_code", "hold_reason")),
        )

    fast = run()
    assert fast[0] == {
        "evt_1": "applied",
        "evt_2": "applied",
        "evt_3": "applied",
        "evt_4": "applied",
        "evt_5": "held",
    }
    assert fast[2][4] == (
        "no_sale",
        "The lead with the email PAT@EXAMPLE.TEST has no sale with an unpaid balance.",
    )
    shop.sale.refresh_from_db()
    assert shop.sale.cash_collected == 300000
    Payment.objects.all().delete()
    Event.objects.all().delete()
    leads_sales_refresh(workspace=shop.ws, lead_ids=[shop.pat.pk])
    monkeypatch.setattr(mapping, "events_map_many", lambda **kwargs: {})
    assert run() == fast
