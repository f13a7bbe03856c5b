"""Payment figures (/api/v1/payments): cash, refunds, revenue, average sale, collection."""

import pytest

from tests.conftest import aware

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
APRIL = {"from": "2026-04-01", "to": "2026-04-30"}


@pytest.fixture
def sales(rec):
    s1 = rec.sale(300000, "2026-03-02 12:00")
    rec.payment(s1, 100000, "2026-03-02 12:00")
    rec.payment(s1, 50000, "2026-03-03 12:00", status="failed")
    rec.payment(s1, 100000, "2026-04-05 12:00")
    s2 = rec.sale(100000, "2026-02-20 12:00")
    p2 = rec.payment(s2, 100000, "2026-03-05 12:00")
    rec.refund(p2, 30000, "2026-04-10 12:00")  # refunded in a later period
    s3 = rec.sale(50000, "2026-03-10 12:00", payment_plan="split")
    rec.payment(s3, 10000, "2026-03-10 12:00")
    return s1, s2, s3


def values(data):
    return {key: field["value"] for key, field in data.items()}


def test_march(ws, sales, client_for, django_assert_max_num_queries):
    client = client_for(ws)
    with django_assert_max_num_queries(9):
        response = client.get("/api/v1/payments", MARCH)
    data = response.json()["data"]
    assert values(data) == {
        "cash_collected": 2100,
        "refunded": 0,
        "net_cash": 2100,
        "sales": 2,
        "revenue_booked": 3500,
        "average_sale": 1750,
        "collection_rate": 0.6,
    }
    assert data["cash_collected"] == {
        "metric": "payments.cash_collected",
        "label": "Cash collected",
        "unit": "money",
        "value": 2100,
        "currency": "USD",
        "unavailable": None,
    }
    assert data["average_sale"]["numerator"] == {"label": "Revenue booked", "value": 3500}
    assert data["average_sale"]["denominator"] == {"label": "Sales", "value": 2}
    # Cash to date on March's sales, including April's payment on s1.
    assert data["collection_rate"]["numerator"]["value"] == 2100
    assert data["collection_rate"]["denominator"]["value"] == 3500
    assert response.json()["notes"] == []


def test_refund_in_a_later_period_and_no_sale(ws, sales, client_for):
    body = client_for(ws).get("/api/v1/payments", APRIL).json()
    data = body["data"]
    assert values(data) == {
        "cash_collected": 1000,
        "refunded": 300,
        "net_cash": 700,
        "sales": 0,
        "revenue_booked": 0,
        "average_sale": None,
        "collection_rate": None,
    }
    assert data["average_sale"]["unavailable"] == {
        "code": "empty-denominator",
        "reason": "No sales.",
    }
    assert data["collection_rate"]["unavailable"]["code"] == "empty-denominator"
    assert [(n["subject"], n["code"]) for n in body["notes"]] == [
        ("payments.average_sale", "figure-unavailable"),
        ("payments.collection_rate", "figure-unavailable"),
    ]


def test_over_collected_sale_does_not_nest(ws, rec, client_for):
    sale = rec.sale(10000, "2026-03-15 12:00")
    rec.payment(sale, 15000, "2026-03-15 12:00")
    other = rec.sale(90000, "2026-03-16 12:00")
    rec.payment(other, 1000, "2026-03-16 12:00")
    data = client_for(ws).get("/api/v1/payments", MARCH).json()["data"]
    assert data["collection_rate"] == {
        "metric": "payments.collection_rate",
        "label": "Collection rate",
        "unit": "rate",
        "value": None,
        "numerator": {"label": "Cash collected to date on these sales", "value": 160},
        "denominator": {"label": "Revenue booked", "value": 1000},
        "unavailable": {
            "code": "does-not-nest",
            "reason": "A sale closed in the period has more cash collected than its contract "
            "value.",
        },
    }


@pytest.mark.parametrize(
    "currency, minor, shown",
    [("USD", 123450, 1234.5), ("JPY", 1234, 1234), ("BHD", 1234567, 1234.567), ("EUR", 5, 0.05)],
)
def test_money_is_in_major_units(currency, minor, shown, make_workspace, records, client_for):
    ws = make_workspace(currency=currency)
    rec = records(ws)
    rec.payment(rec.sale(minor, "2026-03-02 12:00"), minor, "2026-03-02 12:00")
    field = client_for(ws).get("/api/v1/payments", MARCH).json()["data"]["cash_collected"]
    assert field["value"] == shown
    assert field["currency"] == currency


def test_day_boundaries_in_the_workspace_timezone(make_workspace, records, client_for):
    ws = make_workspace(timezone="America/New_York")
    rec = records(ws)
    sale = rec.sale(1000, aware("2026-03-08 04:59"))  # 7 March, local
    rec.payment(sale, 100, aware("2026-03-08 04:59"))
    rec.payment(sale, 200, aware("2026-03-08 05:00"))  # 8 March, local
    rec.payment(sale, 400, aware("2026-03-09 03:59"))  # 8 March, local (EDT)
    rec.payment(sale, 800, aware("2026-03-09 04:00"))  # 9 March, local
    data = client_for(ws).get("/api/v1/payments", {"from": "2026-03-08", "to": "2026-03-08"})
    data = data.json()["data"]
    assert data["cash_collected"]["value"] == 6
    assert data["sales"]["value"] == 0
