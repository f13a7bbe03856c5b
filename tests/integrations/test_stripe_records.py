"""Stripe deliveries become payments and refunds through the writers, once, in any order,
and the figures of /payments and /commission follow."""

import random

import pytest

from audit.models import AuditEvent
from integrations.models import Connection, Event
from integrations.stripe.mapping import to_minor
from workspaces.models import Lead, Payment, Refund, Sale

from .conftest import charge, dispute, event, refund, stripe_connection, utc

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


def story(shop):
    """Seven deliveries: two charges paid (one found by email, one named by the sale id in
    its metadata), one failed, a refund of the first (as refund.created and inside
    charge.refunded), a lost dispute on the second, and an event type nothing maps."""
    re_1 = refund("re_1", "ch_1", 25000, "2026-03-10 09:00")
    return [
        event(
            "evt_1",
            "charge.succeeded",
            charge("ch_1", 100000, "2026-03-03 10:00", email="PAT@example.test"),
            "2026-03-03 10:00",
        ),
        event(
            "evt_2",
            "charge.succeeded",
            charge("ch_2", 50000, "2026-03-04 10:00", metadata={"sale_id": str(shop.sale.pk)}),
            "2026-03-04 10:00",
        ),
        event(
            "evt_3",
            "charge.failed",
            charge("ch_3", 20000, "2026-03-05 10:00", email="pat@example.test", status="failed"),
            "2026-03-05 10:00",
        ),
        event("evt_4", "refund.created", re_1, "2026-03-10 09:00"),
        event(
            "evt_5",
            "charge.refunded",
            charge("ch_1", 100000, "2026-03-03 10:00", email="pat@example.test", refunds=[re_1]),
            "2026-03-10 09:01",
        ),
        event("evt_6", "charge.dispute.closed", dispute("dp_1", "ch_2", 50000), "2026-03-20 15:00"),
        event(
            "evt_7", "customer.created", {"id": "cus_1", "object": "customer"}, "2026-03-01 08:00"
        ),
    ]


def records(shop):
    payments = sorted(
        (p.external_id, p.sale_id, p.amount, p.status, p.paid_at, p.closer_id)
        for p in Payment.objects.filter(workspace=shop.ws)
    )
    refunds = sorted(
        (r.external_id, r.payment.external_id, r.sale_id, r.amount, r.kind, r.at)
        for r in Refund.objects.filter(workspace=shop.ws).select_related("payment")
    )
    return payments, refunds


def expected(shop):
    sale, ada = shop.sale.pk, shop.ada.pk
    return (
        [
            ("ch_1", sale, 100000, "succeeded", utc("2026-03-03 10:00"), ada),
            ("ch_2", sale, 50000, "succeeded", utc("2026-03-04 10:00"), ada),
            ("ch_3", sale, 20000, "failed", utc("2026-03-05 10:00"), ada),
        ],
        [
            ("dp_1", "ch_2", sale, 50000, "chargeback", utc("2026-03-20 15:00")),
            ("re_1", "ch_1", sale, 25000, "refund", utc("2026-03-10 09:00")),
        ],
    )


def test_deliveries_make_the_records_and_the_figures(shop, deliver):
    for payload in story(shop):
        answer = deliver(shop.connection, payload)
        assert answer.status_code == 200
        assert answer.json() == {"received": True}

    assert records(shop) == expected(shop)
    states = dict(Event.objects.values_list("event_id", "state"))
    assert states == {
        "evt_1": "applied",
        "evt_2": "applied",
        "evt_3": "applied",
        "evt_4": "applied",
        "evt_5": "applied",
        "evt_6": "applied",
        "evt_7": "ignored",
    }
    connection = Connection.objects.get()
    assert (
        connection.events_received,
        connection.events_applied,
        connection.events_held,
        connection.events_refused,
    ) == (7, 6, 0, 0)
    assert connection.last_event_at is not None

    # Each apply is audited with the integration as its actor.
    audits = AuditEvent.objects.filter(action="integration.event_applied")
    assert audits.count() == 6
    first = audits.get(detail__event_id="evt_1")
    assert (first.actor_kind, first.actor_id, first.actor_label) == (
        "integration",
        str(connection.pk),
        "stripe",
    )
    assert first.detail == {
        "provider": "stripe",
        "event_id": "evt_1",
        "type": "charge.succeeded",
        "records": ["ch_1"],
    }

    payments = shop.reader.get("/api/v1/payments", MARCH).json()
    figures = {key: field["value"] for key, field in payments["data"].items()}
    # Cash: 1,000 + 500 (the failed 200 is not cash); refunded: 250 + the lost 500.
    assert figures == {
        "cash_collected": 1500,
        "refunded": 750,
        "net_cash": 750,
        "sales": 1,
        "revenue_booked": 3000,
        "average_sale": 3000,
        "collection_rate": 0.5,
    }
    assert [n for n in payments["notes"] if n["code"] == "unplaced-events"] == []
    commission = shop.reader.get("/api/v1/commission", MARCH).json()
    # Ada: (150,000 - 75,000 cents) x 10% = 7,500 cents.
    assert {row["name"]: row["owed"]["value"] for row in commission["data"]["members"]} == {
        "Ada": 75
    }


def test_a_delivery_sent_again_changes_nothing(shop, deliver):
    payloads = story(shop)
    for payload in payloads:
        deliver(shop.connection, payload)
    before = records(shop)
    audits = AuditEvent.objects.count()
    for payload in payloads:
        again = deliver(shop.connection, payload)
        assert again.status_code == 200
        assert again.json() == {"received": True, "duplicate": True}
    assert records(shop) == before
    assert AuditEvent.objects.count() == audits
    assert Event.objects.count() == 7
    assert Connection.objects.get().events_received == 7


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_any_delivery_order_ends_in_the_same_records(shop, deliver, seed):
    payloads = story(shop)
    random.Random(seed).shuffle(payloads)
    for payload in payloads:
        assert deliver(shop.connection, payload).status_code == 200
    assert records(shop) == expected(shop)
    assert not Event.objects.filter(state="held").exists()
    assert Connection.objects.get().events_held == 0


def test_a_refund_before_its_charge_waits_and_is_applied_when_it_arrives(shop, deliver):
    deliver(
        shop.connection,
        event(
            "evt_r",
            "refund.created",
            refund("re_9", "ch_9", 1000, "2026-03-08 10:00"),
            "2026-03-08 10:00",
        ),
    )
    held = Event.objects.get(event_id="evt_r")
    assert (held.state, held.hold_code, held.waits_for) == ("held", "waiting", "ch_9")
    assert Refund.objects.count() == 0
    deliver(
        shop.connection,
        event(
            "evt_c",
            "charge.succeeded",
            charge("ch_9", 4000, "2026-03-07 10:00", email="pat@example.test"),
            "2026-03-07 10:00",
        ),
    )
    held.refresh_from_db()
    assert (held.state, held.hold_code, held.waits_for) == ("applied", "", "")
    assert list(Refund.objects.values_list("external_id", "amount", "at")) == [
        ("re_9", 1000, utc("2026-03-08 10:00"))
    ]
    connection = Connection.objects.get()
    assert (connection.events_applied, connection.events_held) == (2, 0)


def test_a_refund_that_failed_later_counts_nothing_in_either_order(shop, deliver):
    made = event(
        "evt_a",
        "refund.created",
        refund("re_5", "ch_5", 1000, "2026-03-08 10:00"),
        "2026-03-08 10:00",
    )
    failed = event(
        "evt_b",
        "refund.updated",
        refund("re_5", "ch_5", 1000, "2026-03-08 10:00", status="failed"),
        "2026-03-09 10:00",
    )
    paid = event(
        "evt_c",
        "charge.succeeded",
        charge("ch_5", 4000, "2026-03-07 10:00", email="pat@example.test"),
        "2026-03-07 10:00",
    )
    for payload in (paid, failed, made):
        deliver(shop.connection, payload)
    assert list(Refund.objects.values_list("external_id", "amount")) == []
    assert Event.objects.get(event_id="evt_a").state == "ignored"


def test_zero_decimal_and_two_decimal_representations(make_workspace, deliver):
    yen = make_workspace(currency="JPY")
    krona = make_workspace(currency="ISK")
    dinar = make_workspace(currency="KWD")
    # Stripe gives JPY in yen, ISK in hundredths (always 00), KWD in thousandths.
    assert to_minor(5000, currency="jpy", workspace=yen) == 5000
    assert to_minor(150000, currency="isk", workspace=krona) == 1500
    assert to_minor(12340, currency="kwd", workspace=dinar) == 12340

    lead = Lead.objects.create(workspace=yen, email="k@example.test", created_at=utc("2026-03-01"))
    sale = Sale.objects.create(
        workspace=yen, lead=lead, closed_at=utc("2026-03-01 10:00"), contract_value=90000
    )
    connection = stripe_connection(yen)
    deliver(
        connection,
        event(
            "evt_y",
            "charge.succeeded",
            charge("ch_y", 5000, "2026-03-02 10:00", currency="jpy", email="k@example.test"),
            "2026-03-02 10:00",
        ),
    )
    assert list(Payment.objects.values_list("sale_id", "amount")) == [(sale.pk, 5000)]
