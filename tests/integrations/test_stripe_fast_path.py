"""The worker applies a batch's new charges (placed by email or by the sale they name),
refunds and lost disputes set-based (stripe.mapping.events_map_many): the payments,
refunds, balances, events, audit events and announced events are exactly those of
applying the same deliveries one by one."""

import pytest

from integrations import services
from integrations.providers import provider_get
from integrations.stripe import PROVIDER, mapping
from workspaces.kept import leads_sales_refresh
from workspaces.models import Lead, Refund, Sale

from .conftest import charge, dispute, event, refund, stripe_connection, utc
from .fastpath import applied_one_by_one, snapshot, spy

pytestmark = pytest.mark.django_db


@pytest.fixture
def make_shop(make_workspace, make_member):
    def make():
        ws = make_workspace(currency="USD", timezone="UTC")
        ada = make_member(ws, "closer", name="Ada", email="ada@example.test")
        for key, email, value in (
            ("pat", "pat@example.test", 300000),
            ("quinn", "Quinn@Example.test", 20000),
        ):
            lead = Lead.objects.create(
                workspace=ws, name=key.title(), email=email, created_at=utc("2026-02-20 09:00")
            )
            Sale.objects.create(
                workspace=ws,
                lead=lead,
                closed_at=utc("2026-03-02 12:00"),
                contract_value=value,
                closer=ada,
                external_id=f"sale-{key}",
            )
        leads_sales_refresh(workspace=ws)
        return ws, stripe_connection(ws)

    return make


def _store(connection, payload):
    described = provider_get("stripe").describe(payload)
    return services.event_receive(connection=connection, described=described, payload=payload)


def charges():
    """New charges: by email (Quinn's 200 USD sale is paid by the second), by the sale they
    name (by its external id, or by an id no sale has), failed, and in another currency."""
    return [
        event(
            "evt_c1",
            "charge.succeeded",
            charge("ch_1", 15000, "2026-03-03 10:00", email="quinn@example.test"),
            "2026-03-03 10:00",
        ),
        event(
            "evt_c2",
            "charge.succeeded",
            charge("ch_2", 5000, "2026-03-03 11:00", email="QUINN@example.test"),
            "2026-03-03 11:00",
        ),
        event(
            "evt_c3",
            "charge.succeeded",
            charge("ch_3", 1000, "2026-03-03 12:00", email="quinn@example.test"),
            "2026-03-03 12:00",
        ),
        event(
            "evt_c4",
            "charge.succeeded",
            charge("ch_4", 40000, "2026-03-03 13:00", metadata={"sale_id": "sale-pat"}),
            "2026-03-03 13:00",
        ),
        event(
            "evt_c5",
            "charge.succeeded",
            charge("ch_5", 40000, "2026-03-03 14:00", metadata={"sale_id": "sale-nobody"}),
            "2026-03-03 14:00",
        ),
        event(
            "evt_c6",
            "charge.failed",
            charge("ch_6", 9000, "2026-03-03 15:00", email="pat@example.test", status="failed"),
            "2026-03-03 15:00",
        ),
        event(
            "evt_c7",
            "charge.succeeded",
            charge("ch_7", 2000, "2026-03-03 16:00", email="nobody@example.test"),
            "2026-03-03 16:00",
        ),
        event(
            "evt_c8",
            "charge.succeeded",
            charge("ch_8", 30000, "2026-03-03 17:00", email="pat@example.test"),
            "2026-03-03 17:00",
        ),
    ]


def refunds():
    """Refunds and disputes of the charges: two refunds of ch_4 within its amount, one that
    would exceed ch_8's, a lost and a won dispute, a refund of a charge not yet placed, a
    failed refund (of the failed charge), and a refund of ch_1 beside a later snapshot of ch_1 itself."""
    return [
        event(
            "evt_r1",
            "refund.created",
            refund("re_1", "ch_4", 10000, "2026-03-04 09:00"),
            "2026-03-04 09:00",
        ),
        event(
            "evt_r2",
            "refund.created",
            refund("re_2", "ch_4", 20000, "2026-03-04 10:00"),
            "2026-03-04 10:00",
        ),
        event(
            "evt_r3",
            "refund.created",
            refund("re_3", "ch_8", 20000, "2026-03-04 11:00"),
            "2026-03-04 11:00",
        ),
        event(
            "evt_r4",
            "refund.created",
            refund("re_4", "ch_8", 20000, "2026-03-04 12:00"),
            "2026-03-04 12:00",
        ),
        event("evt_d1", "charge.dispute.closed", dispute("dp_1", "ch_2", 5000), "2026-03-05 09:00"),
        event(
            "evt_d2",
            "charge.dispute.closed",
            dispute("dp_2", "ch_3", 1000, status="won"),
            "2026-03-05 10:00",
        ),
        event(
            "evt_r5",
            "refund.created",
            refund("re_5", "ch_99", 100, "2026-03-04 13:00"),
            "2026-03-04 13:00",
        ),
        event(
            "evt_r6",
            "refund.created",
            refund("re_6", "ch_6", 100, "2026-03-04 14:00", status="failed"),
            "2026-03-04 14:00",
        ),
        event(
            "evt_r7",
            "refund.created",
            refund("re_7", "ch_1", 1000, "2026-03-04 15:00"),
            "2026-03-04 15:00",
        ),
        event(
            "evt_c1b",
            "charge.refunded",
            charge(
                "ch_1",
                15000,
                "2026-03-03 10:00",
                email="quinn@example.test",
                refunds=[refund("re_7", "ch_1", 1000, "2026-03-04 15:00")],
            ),
            "2026-03-04 15:01",
        ),
    ]


def run(make_shop):
    ws, connection = make_shop()
    for stage in (charges(), refunds()):
        for payload in stage:
            _store(connection, payload)
        services.events_apply(connection_id=connection.pk)
    return snapshot(ws)


def test_charges_refunds_and_disputes_applied_set_based_end_as_one_by_one(make_shop, monkeypatch):
    slow = applied_one_by_one(monkeypatch, PROVIDER, run, make_shop)
    taken = spy(monkeypatch, mapping)
    fast = run(make_shop)

    assert fast == slow
    assert sorted(event_id for event_id, _outcome in taken) == sorted(
        [
            "evt_c1",
            "evt_c2",
            "evt_c3",
            "evt_c4",
            "evt_c5",
            "evt_c6",
            "evt_c7",
            "evt_c8",
            "evt_r1",
            "evt_r2",
            "evt_d1",
            "evt_d2",
        ]
    )
    states = {row[0]: row[1:3] for row in fast["events"]}
    assert states["evt_c5"] == ("held", "no_sale")
    assert states["evt_r4"] == ("held", "invalid")
    assert states["evt_r5"] == ("held", "waiting")
    assert states["evt_d2"] == ("ignored", "")
    assert sorted(
        Refund.objects.filter(kind="chargeback").values_list("external_id", "amount")
    ) == [("dp_1", 5000), ("dp_1", 5000)]
    assert states["evt_c3"] == ("held", "no_sale")
    assert states["evt_r6"] == ("ignored", "")
