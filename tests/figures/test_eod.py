"""End-of-day reports (/api/v1/eod): due member-days, filings, compliance."""

from datetime import date

import pytest

pytestmark = pytest.mark.django_db

FIRST_HALF = {"from": "2026-03-01", "to": "2026-03-14"}


@pytest.fixture
def team(make_workspace, records, make_member):
    ws = make_workspace(timezone="America/New_York")
    rec = records(ws)
    closer = make_member(
        ws, "closer", name="Ann", email="ann@example.test", joined_at=date(2026, 3, 10)
    )
    setter = make_member(ws, "setter", name="Bob", email="bob@example.test")
    owner = make_member(ws, "owner", name="Oz")
    rec.eod(closer, "2026-03-09")  # before joining: filed, not due
    rec.eod(closer, "2026-03-10")
    rec.eod(closer, "2026-03-11")
    rec.eod(setter, "2026-03-02")
    rec.eod(setter, "2026-03-08")  # a Sunday: filed, not due
    rec.eod(owner, "2026-03-03")  # not a reporting role
    rec.eod(setter, "2026-03-15")  # after the period
    return ws, closer, setter


def test_compliance_over_due_days(team, client_for, django_assert_max_num_queries):
    ws, closer, setter = team
    client = client_for(ws)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/eod", FIRST_HALF).json()
    data = body["data"]
    # Working days 2-6 and 9-13 March: the setter is due 10, the closer 4 (from the 10th).
    assert data["expected"]["value"] == 14
    assert data["submitted"]["value"] == 6
    assert data["compliance_rate"]["value"] == 0.2143
    assert data["compliance_rate"]["numerator"]["value"] == 3
    assert data["compliance_rate"]["denominator"]["value"] == 14
    rows = [
        (
            {key: row[key] for key in ("id", "name", "email")},
            row["role"],
            row["expected"]["value"],
            row["submitted"]["value"],
            row["compliance_rate"]["value"],
        )
        for row in data["members"]
    ]
    assert rows == [
        ({"id": str(closer.pk), "name": "Ann", "email": "ann@example.test"}, "closer", 4, 3, 0.5),
        ({"id": str(setter.pk), "name": "Bob", "email": "bob@example.test"}, "setter", 10, 2, 0.1),
    ]
    assert body["notes"] == []


def test_custom_working_days(team, client_for):
    ws, _, _ = team
    ws.working_days = [0, 1, 2, 3, 4, 5, 6]
    ws.save()
    data = client_for(ws).get("/api/v1/eod", FIRST_HALF).json()["data"]
    # Every day is a working day: setter 14 due (2 filed), closer 5 (10th-14th, 2 filed).
    assert data["expected"]["value"] == 19
    assert data["compliance_rate"]["numerator"]["value"] == 4


def test_nobody_due_is_no_denominator(ws, make_member, client_for):
    make_member(ws, "owner")
    body = client_for(ws).get("/api/v1/eod", FIRST_HALF).json()
    assert body["data"]["expected"]["value"] == 0
    assert body["data"]["compliance_rate"]["value"] is None
    assert body["data"]["compliance_rate"]["unavailable"] == {
        "code": "no-denominator",
        "reason": "Nobody was due to report on any day of the period.",
    }
    assert body["notes"] == [
        {
            "subject": "eod.compliance_rate",
            "code": "figure-unavailable",
            "reason": "Nobody was due to report on any day of the period.",
        }
    ]


def test_days_after_today_are_not_due(ws, make_member, client_for):
    make_member(ws, "sdr")
    body = client_for(ws).get("/api/v1/eod", {"from": "2099-01-05", "to": "2099-01-09"}).json()
    assert body["data"]["expected"]["value"] == 0
    assert body["data"]["compliance_rate"]["unavailable"]["code"] == "no-denominator"
    assert {note["code"] for note in body["notes"]} == {"figure-unavailable", "period-in-future"}
