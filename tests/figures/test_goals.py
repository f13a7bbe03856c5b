"""A month's goals against their figures (/api/v1/goals) and the team ranked
(/api/v1/leaderboard), with the clock set: every value below is worked out by hand."""

from datetime import date

import pytest

from .conftest import goal

pytestmark = pytest.mark.django_db

JUNE = {"month": "2026-06"}


def values(row):
    return {
        key: row[key]["value"]
        for key in ("actual", "target", "expected", "attainment", "pace", "projected")
    }


def test_a_month_under_way_pro_rates_every_goal(ws, team, client_for, clock):
    ada, bo, cy = team
    goal(ws, "leads.created", 9)
    goal(ws, "calls.closed", 0)
    goal(ws, "payments.cash_collected", 500000)
    goal(ws, "calls.booked", 10, bo)
    goal(ws, "calls.taken", 7, ada)
    goal(ws, "payments.revenue_booked", 200000, ada)
    goal(ws, "calls.taken", 3, cy)
    clock("2026-06-10 12:00")  # 10 of June's 30 days have run
    body = client_for(ws).get("/api/v1/goals", JUNE).json()
    assert body["period"] == {"from": "2026-06-01", "to": "2026-06-30"}
    rows = body["data"]["goals"]
    assert [(row["metric"], row["member"] and row["member"]["name"]) for row in rows] == [
        ("leads.created", None),
        ("calls.closed", None),
        ("payments.cash_collected", None),
        ("calls.taken", "Ada"),
        ("payments.revenue_booked", "Ada"),
        ("calls.booked", "Bo"),
        ("calls.taken", "Cy"),
    ]
    assert rows[3]["member"] == {"id": str(ada.pk), "name": "Ada"}
    got = [values(row) for row in rows]
    # Leads of 2, 3 and 5 June (the 12th is after today): 3 of 9; 9 x 10 / 30 = 3 expected.
    assert got[0] == {
        "actual": 3,
        "target": 9,
        "expected": 3,
        "attainment": 0.3333,
        "pace": 1.0,
        "projected": 9,
    }
    # Calls closed or with a deposit: Ada's of the 3rd, Cy's of the 9th. A target of 0.
    assert got[1] == {
        "actual": 2,
        "target": 0,
        "expected": 0,
        "attainment": None,
        "pace": None,
        "projected": 6,
    }
    assert rows[1]["attainment"]["unavailable"]["code"] == "empty-denominator"
    assert rows[1]["pace"]["unavailable"]["code"] == "empty-denominator"
    # Cash paid by the 10th: 1,000.00 and 200.00 (the 15th's 500.00 is to come).
    # 5,000.00 x 10 / 30 = 1,666.67; 1200 / 1666.67 = 0.71999...
    assert got[2] == {
        "actual": 1200,
        "target": 5000,
        "expected": 1666.67,
        "attainment": 0.24,
        "pace": 0.72,
        "projected": 3600,
    }
    assert rows[2]["actual"]["currency"] == "USD"
    assert rows[2]["pace"]["numerator"] == {"label": "Actual", "value": 1200}
    assert rows[2]["pace"]["denominator"] == {"label": "Expected by today", "value": 1666.67}
    # Ada as closer: the calls of the 3rd and 4th taken; 7 x 10 / 30 = 2.33; 2 / 2.33.
    assert got[3] == {
        "actual": 2,
        "target": 7,
        "expected": 2.33,
        "attainment": 0.2857,
        "pace": 0.8584,
        "projected": 6,
    }
    # Ada's sale of 3,000.00 beats her 2,000.00: rates above 1.
    assert got[4] == {
        "actual": 3000,
        "target": 2000,
        "expected": 666.67,
        "attainment": 1.5,
        "pace": 4.5,
        "projected": 9000,
    }
    # Bo as setter: the calls of the 3rd, 4th, 8th and 9th (Cy's); the cancelled one is not
    # booked. 4 / 3.33 = 1.2012.
    assert got[5] == {
        "actual": 4,
        "target": 10,
        "expected": 3.33,
        "attainment": 0.4,
        "pace": 1.2012,
        "projected": 12,
    }
    # Cy left, and keeps the call he took on the 9th.
    assert got[6]["actual"] == 1


def test_the_first_and_last_day_of_the_month(ws, team, client_for, clock):
    ada, _bo, _cy = team
    goal(ws, "calls.taken", 30, ada)
    clock("2026-06-01 05:00")
    (row,) = client_for(ws).get("/api/v1/goals", JUNE).json()["data"]["goals"]
    assert values(row) == {
        "actual": 0,
        "target": 30,
        "expected": 1,
        "attainment": 0.0,
        "pace": 0.0,
        "projected": 0,
    }
    clock("2026-06-30 23:59")
    (row,) = client_for(ws).get("/api/v1/goals", JUNE).json()["data"]["goals"]
    assert values(row) == {
        "actual": 2,
        "target": 30,
        "expected": 30,
        "attainment": 0.0667,
        "pace": 0.0667,
        "projected": 2,
    }


def test_a_past_and_a_future_month(ws, team, client_for, clock):
    goal(ws, "payments.cash_collected", 100000, month=date(2026, 5, 1))
    goal(ws, "calls.booked", 10, month=date(2026, 7, 1))
    clock("2026-06-10 12:00")
    client = client_for(ws)
    (may,) = client.get("/api/v1/goals", {"month": "2026-05"}).json()["data"]["goals"]
    # May has run: expected is the target, the projection the actual.
    assert values(may) == {
        "actual": 300,
        "target": 1000,
        "expected": 1000,
        "attainment": 0.3,
        "pace": 0.3,
        "projected": 300,
    }
    july = client.get("/api/v1/goals", {"month": "2026-07"}).json()
    (row,) = july["data"]["goals"]
    assert values(row) == {
        "actual": 0,
        "target": 10,
        "expected": 0,
        "attainment": 0.0,
        "pace": None,
        "projected": None,
    }
    assert row["pace"]["unavailable"]["code"] == "empty-denominator"
    assert row["projected"]["unavailable"] == {
        "code": "not-computed",
        "reason": "The month has not started: nothing to project from.",
    }
    assert {"subject": "goal.projected", "code": "figure-unavailable"} in [
        {"subject": note["subject"], "code": note["code"]} for note in july["notes"]
    ]


def test_this_month_by_default_and_a_bad_month_named(ws, team, client_for, clock):
    goal(ws, "leads.created", 9)
    clock("2026-06-10 12:00")
    client = client_for(ws)
    body = client.get("/api/v1/goals").json()
    assert body["period"] == {"from": "2026-06-01", "to": "2026-06-30"}
    assert len(body["data"]["goals"]) == 1
    for bad in ("2026-13", "2026-6", "June", "2026-06-01", "0001-01", "9999-12", "0000-01"):
        answer = client.get("/api/v1/goals", {"month": bad})
        assert answer.status_code == 400, bad
        assert answer.json()["field"] == "month"


@pytest.mark.parametrize(
    ("zone", "inside", "outside"),
    [
        # 22:00 on 30 June in New York is 02:00 on 1 July in UTC; 23:30 on 31 May is not June.
        ("America/New_York", "2026-07-01 02:00", "2026-06-01 03:30"),
        # 01:00 on 1 June in Sydney is 15:00 on 31 May in UTC; 1 July 00:30 there is not June.
        ("Australia/Sydney", "2026-05-31 15:00", "2026-06-30 14:30"),
    ],
)
def test_the_month_is_the_workspaces_own(
    make_workspace, records, client_for, clock, zone, inside, outside
):
    ws = make_workspace(timezone=zone)
    rec = records(ws)
    rec.lead(inside)
    rec.lead(outside)
    goal(ws, "leads.created", 30)
    clock("2026-07-15 12:00")
    (row,) = client_for(ws).get("/api/v1/goals", JUNE).json()["data"]["goals"]
    assert row["actual"]["value"] == 1


def test_the_closers_leaderboard_shares_ranks(ws, team, rec, make_member, client_for, clock):
    ada, _bo, cy = team
    eli = make_member(ws, "closer", name="Eli")  # active, nothing in June
    fay = make_member(ws, "closer", name="Fay")
    gus = make_member(ws, "closer", name="Gus")  # left, nothing in June: not listed
    gus.is_active = False
    gus.save(update_fields=["is_active"])
    c = rec.call("2026-06-12 10:00", closer=fay, attendance="showed")
    rec.outcome("closed", call=c)
    rec.payment(rec.sale(20000, "2026-06-12 11:00", closer=fay), 20000, "2026-06-12 11:00")
    clock("2026-07-05 12:00")
    body = (
        client_for(ws).get("/api/v1/leaderboard", {"from": "2026-06-01", "to": "2026-06-30"}).json()
    )
    rows = body["data"]["members"]
    assert [(row["rank"], row["member"]["name"]) for row in rows] == [
        (1, "Ada"),
        (2, "Cy"),
        (2, "Fay"),
        (4, "Eli"),
    ]
    assert rows[0]["member"] == {"id": str(ada.pk), "name": "Ada"}
    assert {key: rows[0][key]["value"] for key in ("taken", "closed", "close_rate")} == {
        "taken": 2,
        "closed": 1,
        "close_rate": 0.5,
    }
    assert rows[0]["cash_collected"]["value"] == 1500
    assert (rows[1]["member"]["id"], rows[1]["cash_collected"]["value"]) == (str(cy.pk), 200)
    assert rows[3]["close_rate"]["value"] is None
    assert set(rows[3]) == {"rank", "member", "taken", "closed", "close_rate", "cash_collected"}
    assert eli.pk  # listed with nothing: an active member of the role


def test_the_setters_leaderboard(ws, team, make_member, client_for, clock):
    _ada, bo, _cy = team
    make_member(ws, "setter", name="Al")
    clock("2026-07-05 12:00")
    client = client_for(ws)
    rows = client.get(
        "/api/v1/leaderboard", {"from": "2026-06-01", "to": "2026-06-30", "role": "setter"}
    ).json()["data"]["members"]
    assert [(row["rank"], row["member"]["name"]) for row in rows] == [(1, "Bo"), (2, "Al")]
    # Bo set the calls of the 3rd, 4th, 8th (no-show), 9th (Cy's) and 20th, and a cancelled
    # one: 5 booked, 3 taken, 3 / (3 + 1) shown.
    assert {key: rows[0][key]["value"] for key in ("booked", "taken", "show_rate")} == {
        "booked": 5,
        "taken": 3,
        "show_rate": 0.75,
    }
    assert set(rows[0]) == {"rank", "member", "booked", "taken", "show_rate"}
    answer = client.get("/api/v1/leaderboard", {"role": "sdr"})
    assert answer.status_code == 400
    assert answer.json()["field"] == "role"
    assert bo.pk
