"""Commission owed per member (/api/v1/commission)."""

import pytest

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
APRIL = {"from": "2026-04-01", "to": "2026-04-30"}


@pytest.fixture
def team(ws, rec, make_member):
    ada = make_member(ws, "closer", name="Ada", email="ada@example.test")
    bo = make_member(ws, "setter", name="Bo", email="bo@example.test")
    cy = make_member(ws, "closer", name="Cy", email="cy@example.test")
    eve = make_member(ws, "closer", name="Eve", email="eve@example.test")
    make_member(ws, "owner", name="Oz")  # no rule, not a reporting role: not listed
    rec.rule(ada, basis="cash_collected", slot="closer", rate="0.1")
    rec.rule(bo, basis="revenue_booked", slot="setter", rate="0.05")
    rec.rule(eve, basis="revenue_booked", slot="closer", rate="0.075")
    # Closed before the period, paid in it: cash basis counts it.
    s1 = rec.sale(400000, "2026-02-20 10:00", closer=ada, setter=bo)
    p1 = rec.payment(s1, 100000, "2026-03-03 10:00")
    rec.refund(p1, 20000, "2026-03-20 10:00")
    s2 = rec.sale(200000, "2026-03-05 10:00", closer=ada, setter=bo)
    p2 = rec.payment(s2, 50000, "2026-03-05 10:00")
    rec.payment(s2, 70000, "2026-03-06 10:00", status="failed")
    rec.refund(p2, 10000, "2026-04-02 10:00")  # refunded in a later period
    rec.sale(33333, "2026-03-06 10:00", closer=eve)
    rec.sale(99999, "2026-03-06 10:00", closer=cy)
    return ada, bo, cy, eve


def owed(body):
    return {row["name"]: row["owed"]["value"] for row in body["data"]["members"]}


def test_march(ws, team, client_for, django_assert_max_num_queries):
    ada, _bo, _cy, _eve = team
    client = client_for(ws)
    # One more than the figures: the count of held integration events (the note).
    with django_assert_max_num_queries(7):
        body = client.get("/api/v1/commission", MARCH).json()
    # Ada: (100000 + 50000 - 20000) x 0.1; Bo: (200000 - 20000) x 0.05;
    # Eve: 33333 x 0.075 = 2499.975, rounded half up to 2500 cents.
    assert owed(body) == {"Ada": 130, "Bo": 90, "Cy": None, "Eve": 25}
    rows = {row["name"]: row for row in body["data"]["members"]}
    assert rows["Ada"]["id"] == str(ada.pk)
    assert rows["Ada"]["email"] == "ada@example.test"
    assert rows["Ada"]["owed"] == {
        "metric": "commission.owed",
        "label": "Commission owed",
        "unit": "money",
        "value": 130,
        "currency": "USD",
        "unavailable": None,
    }
    assert rows["Ada"]["rule"] == {
        "basis": "cash_collected",
        "slot": "closer",
        "rate": 0.1,
        "basis_amount": 1500,
        "refunded": 200,
    }
    assert rows["Cy"]["rule"] is None
    assert rows["Cy"]["owed"]["unavailable"] == {
        "code": "not-computed",
        "reason": "Cy has no commission rule.",
    }
    assert body["notes"] == [
        {
            "subject": "commission.owed",
            "code": "figure-unavailable",
            "reason": "Cy has no commission rule.",
        }
    ]


def test_refund_in_a_later_period_subtracts_there(ws, team, client_for):
    body = client_for(ws).get("/api/v1/commission", APRIL).json()
    assert owed(body) == {"Ada": -10, "Bo": -5, "Cy": None, "Eve": 0}


def test_query_count_does_not_grow_with_members(
    ws, team, make_member, client_for, django_assert_max_num_queries
):
    for _ in range(10):
        make_member(ws, "closer")
    client = client_for(ws)
    # One more than the figures: the count of held integration events (the note).
    with django_assert_max_num_queries(7):
        body = client.get("/api/v1/commission", MARCH).json()
    assert len(body["data"]["members"]) == 14
