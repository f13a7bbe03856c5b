"""One connection's events under real concurrency (PostgreSQL): two apply runs at once
apply each event once, and two identical deliveries racing the insert store one."""

import pytest

from audit.models import AuditEvent
from integrations import services
from integrations.models import Event
from integrations.providers import provider_get
from tests.conftest import at_once
from workspaces.models import Payment

from .conftest import charge, event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _payload(n: int) -> dict:
    return event(
        f"evt_race_{n}",
        "charge.succeeded",
        charge(
            f"ch_race_{n}", 1000 + n, f"2026-03-{n % 20 + 3:02} 10:00", email="pat@example.test"
        ),
        f"2026-03-{n % 20 + 3:02} 10:00",
    )


def _store(connection, payload) -> Event:
    described = provider_get("stripe").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


def test_two_apply_runs_at_once_apply_each_event_once(shop):
    for n in range(40):
        _store(shop.connection, _payload(n))

    at_once(2, lambda n: services.events_apply(connection_id=shop.connection.pk, batch_size=7))

    states = list(Event.objects.filter(connection=shop.connection).values_list("state", flat=True))
    assert states == ["applied"] * 40
    payments = Payment.objects.filter(workspace=shop.ws)
    assert payments.count() == 40
    assert sorted(payments.values_list("amount", flat=True)) == [1000 + n for n in range(40)]
    # One audit event per event applied, each recorded once.
    assert AuditEvent.objects.filter(action="integration.event_applied").count() == 40


def test_two_identical_deliveries_racing_the_insert_store_one(shop):
    payload = _payload(1)
    at_once(2, lambda n: _store(shop.connection, payload))
    assert Event.objects.filter(connection=shop.connection, event_id="evt_race_1").count() == 1
