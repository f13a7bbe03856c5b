"""A goal by day or week (/api/v1/series with metric goal.actual or goal.expected): its
actual through each point against what was expected by then, worked out by hand."""

from datetime import date

import pytest

from .conftest import Records, goal

pytestmark = pytest.mark.django_db


def series(client, **params):
    return client.get("/api/v1/series", params)


def points(body):
    return [(p["from"], p["to"], p["field"]["value"]) for p in body["data"]["points"]]


def test_the_workspaces_cash_goal_by_week_against_its_line(ws, team, client_for, clock):
    goal(ws, "payments.cash_collected", 500000)
    clock("2026-06-10 12:00")  # 10 of June's 30 days have run
    reader = client_for(ws)
    common = {"goal_metric": "payments.cash_collected", "month": "2026-06", "interval": "week"}
    actual = series(reader, metric="goal.actual", **common)
    assert actual.status_code == 200
    body = actual.json()
    assert body["period"] == {"from": "2026-06-01", "to": "2026-06-30"}
    assert (body["data"]["goal_metric"], body["data"]["member"]) == (
        "payments.cash_collected",
        None,
    )
    # Paid on the 2nd (200.00) and the 3rd (1,000.00); the 15th's 500.00 is to come. A
    # week that ends after today has no actual yet.
    assert points(body) == [
        ("2026-06-01", "2026-06-07", 1200),
        ("2026-06-08", "2026-06-14", None),
        ("2026-06-15", "2026-06-21", None),
        ("2026-06-22", "2026-06-28", None),
        ("2026-06-29", "2026-06-30", None),
    ]
    assert body["data"]["points"][1]["field"]["unavailable"]["code"] == "not-computed"
    assert body["data"]["points"][0]["field"]["metric"] == "goal.actual"
    # 5,000.00 x 7 / 30 = 1,166.67; x 14 / 30 = 2,333.33; x 21 / 30; x 28 / 30; all of it.
    expected = series(reader, metric="goal.expected", **common).json()
    assert points(expected) == [
        ("2026-06-01", "2026-06-07", 1166.67),
        ("2026-06-08", "2026-06-14", 2333.33),
        ("2026-06-15", "2026-06-21", 3500),
        ("2026-06-22", "2026-06-28", 4666.67),
        ("2026-06-29", "2026-06-30", 5000),
    ]


def test_a_members_goal_by_day_reads_their_slot(ws, team, client_for, clock):
    ada, _bo, _cy = team
    goal(ws, "calls.taken", 7, ada)
    goal(ws, "calls.taken", 3)  # the workspace's: not this series
    clock("2026-06-10 12:00")
    reader = client_for(ws)
    common = {"goal_metric": "calls.taken", "member": str(ada.pk), "month": "2026-06"}
    body = series(reader, metric="goal.actual", **common).json()
    assert body["data"]["member"] == {"id": str(ada.pk), "name": "Ada"}
    got = [value for _first, _last, value in points(body)]
    # Ada took calls on the 3rd and the 4th (the 8th was a no-show); from the 11th, to come.
    assert got == [0, 0, 1, 2, 2, 2, 2, 2, 2, 2] + [None] * 20
    expected = [
        value for *_, value in points(series(reader, metric="goal.expected", **common).json())
    ]
    # 7 x d / 30 to 2 decimals.
    assert expected[:5] == [0.23, 0.47, 0.7, 0.93, 1.17]
    assert (expected[9], expected[29]) == (2.33, 7)


def test_a_past_month_has_every_point_and_a_month_to_come_none(ws, team, client_for, clock):
    goal(ws, "leads.created", 4)
    goal(ws, "leads.created", 4, month=date(2026, 7, 1))
    clock("2026-07-02 12:00")
    reader = client_for(ws)
    june = series(
        reader, metric="goal.actual", goal_metric="leads.created", month="2026-06", interval="week"
    ).json()
    # Leads of the 2nd, 3rd and 5th, then the 12th.
    assert [value for *_, value in points(june)] == [3, 4, 4, 4, 4]
    clock("2026-06-20 12:00")
    july = series(
        reader, metric="goal.actual", goal_metric="leads.created", month="2026-07", interval="week"
    ).json()
    assert {value for *_, value in points(july)} == {None}


def test_the_days_are_the_workspaces_own(make_workspace, client_for, clock):
    ny = make_workspace(timezone="America/New_York")
    rec = Records(ny)
    rec.lead("2026-06-02 23:30", tz="America/New_York")  # 03:30 UTC on the 3rd
    rec.lead("2026-06-03 00:30", tz="America/New_York")
    goal(ny, "leads.created", 30)
    clock("2026-06-04 12:00", "America/New_York")
    body = series(
        client_for(ny), metric="goal.actual", goal_metric="leads.created", month="2026-06"
    ).json()
    assert [value for *_, value in points(body)][:5] == [0, 1, 2, 2, None]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        (
            {"goal_metric": "calls.closed"},
            "goal_metric",
            "No goal of the workspace on calls.closed",
        ),
        ({}, "goal_metric", "goal_metric is required"),
        ({"goal_metric": "calls.offered"}, "goal_metric", "goal_metric must name the metric"),
        ({"goal_metric": "leads.created", "from": "2026-06-01"}, "from", "give month=YYYY-MM"),
        ({"goal_metric": "leads.created", "member": "nobody"}, "member", "No member"),
        ({"goal_metric": "leads.created", "month": "June"}, "month", "month must be a month"),
    ],
)
def test_a_goal_series_that_cannot_be_drawn_is_refused_naming_why(
    ws, team, client_for, clock, params, field, words
):
    goal(ws, "leads.created", 4)
    clock("2026-06-10 12:00")
    answer = series(client_for(ws), metric="goal.actual", **{"month": "2026-06", **params})
    assert answer.status_code == 400
    error = answer.json()
    assert error["field"] == field
    assert words in error["error"]["message"]
