"""Outcome counts (/api/v1/outcomes)."""

import pytest

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


def test_every_call_counted_once_by_its_current_outcome(
    ws, rec, calls_dataset, client_for, django_assert_max_num_queries
):
    lead = rec.lead()
    rec.outcome("disqualified", lead=lead, when="2026-03-12 10:00")
    rec.outcome("no_sale", lead=lead, when="2026-03-13 10:00", reason="price")
    rec.outcome("closed", lead=lead, when="2026-02-13 10:00")  # before the period
    client = client_for(ws)
    with django_assert_max_num_queries(8):
        response = client.get("/api/v1/outcomes", MARCH)
    data = response.json()["data"]
    counts = {key: data[key]["value"] for key in data if key != "no_sale_reasons"}
    # Today is after every March call, so the unmarked ones await an outcome.
    assert counts == {
        "closed": 1,
        "deposit": 1,
        "follow_up": 1,
        "no_sale": 3,
        "disqualified": 1,
        "no_show": 1,
        "cancelled": 1,
        "awaiting": 3,
        "total": 12,
    }
    assert data["total"]["metric"] == "outcomes.total"
    assert data["no_sale_reasons"] == [
        {"reason": "price", "count": 2},
        {"reason": "timing", "count": 1},
    ]
    assert response.json()["notes"] == []


def test_empty_period(ws, client_for):
    data = client_for(ws).get("/api/v1/outcomes", MARCH).json()["data"]
    assert data["total"]["value"] == 0
    assert data["no_sale_reasons"] == []
