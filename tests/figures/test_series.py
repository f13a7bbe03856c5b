"""One figure per local day, week or month (/api/v1/series), on hand-built records."""

from datetime import date

import pytest

from dashboard.selectors import HEADLINE
from figures.period import Period
from figures.selectors import (
    SERIES_METRICS,
    calls,
    metric_figures,
    series_figures,
    series_with_totals,
)
from figures.selectors.base import Counts, MissingCount
from figures.selectors.series import series_bucket_count, series_buckets
from tests.conftest import aware
from workspaces.models import Call
from workspaces.services import ad_spend_upsert

pytestmark = pytest.mark.django_db

BERLIN = "Europe/Berlin"
SHOWED, NO_SHOW = Call.Attendance.SHOWED, Call.Attendance.NO_SHOW


def points(body):
    return [(p["from"], p["to"], p["field"]["value"]) for p in body["data"]["points"]]


@pytest.fixture
def berlin(make_workspace):
    return make_workspace(timezone=BERLIN)


def test_weeks_start_monday_local_across_the_spring_change(
    berlin, records, client_for, django_assert_max_num_queries
):
    rec = records(berlin)
    # Berlin moves from +01:00 to +02:00 on Sunday 29 March 2026.
    for moment in [
        "2026-03-24 23:30",  # before the period
        "2026-03-25 10:00",
        "2026-03-29 23:30",  # Sunday night at +02:00: 21:30 UTC, still that week
        "2026-03-30 00:30",  # Monday 00:30 at +02:00: 22:30 UTC on Sunday, the next week
        "2026-04-02 23:59",
        "2026-04-03 00:30",  # after the period
    ]:
        rec.call(moment, tz=BERLIN)
    client = client_for(berlin)
    with django_assert_max_num_queries(4):
        response = client.get(
            "/api/v1/series",
            {
                "metric": "calls.booked",
                "from": "2026-03-25",
                "to": "2026-04-02",
                "interval": "week",
            },
        )
    assert response.status_code == 200
    body = response.json()
    assert body["period"] == {"from": "2026-03-25", "to": "2026-04-02"}
    assert body["data"]["metric"] == "calls.booked"
    assert body["data"]["interval"] == "week"
    assert points(body) == [("2026-03-25", "2026-03-29", 2), ("2026-03-30", "2026-04-02", 2)]
    assert body["data"]["points"][0]["field"] == {
        "metric": "calls.booked",
        "label": "Calls booked",
        "unit": "count",
        "value": 2,
        "unavailable": None,
    }
    assert body["notes"] == []


def test_days_across_the_autumn_change_money_and_empty_days(berlin, records, client_for):
    rec = records(berlin)
    # Sunday 25 October 2026 lasts 25 hours in Berlin (+02:00 until 03:00, then +01:00).
    sale = rec.sale(500000, "2026-10-20 12:00", tz=BERLIN)
    rec.payment(sale, 10000, "2026-10-25 00:30", tz=BERLIN)  # 24 Oct 22:30 UTC
    rec.payment(sale, 20050, "2026-10-25 23:30", tz=BERLIN)  # 22:30 UTC, still the 25th
    rec.payment(sale, 30000, "2026-10-27 00:10", tz=BERLIN)
    rec.payment(sale, 99900, "2026-10-27 09:00", tz=BERLIN, status="failed")
    body = (
        client_for(berlin)
        .get(
            "/api/v1/series",
            {"metric": "payments.cash_collected", "from": "2026-10-24", "to": "2026-10-27"},
        )
        .json()
    )
    assert body["data"]["interval"] == "day"
    assert points(body) == [
        ("2026-10-24", "2026-10-24", 0),
        ("2026-10-25", "2026-10-25", 300.5),
        ("2026-10-26", "2026-10-26", 0),
        ("2026-10-27", "2026-10-27", 300),
    ]
    assert body["data"]["points"][1]["field"]["currency"] == "USD"
    assert body["notes"] == []


def test_a_rate_with_an_empty_denominator_is_null_in_its_bucket(ws, rec, client_for):
    rec.call("2026-03-02 10:00", attendance=SHOWED)
    rec.call("2026-03-02 11:00", attendance=SHOWED)
    rec.call("2026-03-02 12:00", attendance=NO_SHOW)
    rec.call("2026-03-04 10:00", attendance=NO_SHOW)
    body = (
        client_for(ws)
        .get(
            "/api/v1/series",
            {"metric": "calls.show_rate", "from": "2026-03-02", "to": "2026-03-04"},
        )
        .json()
    )
    assert points(body) == [
        ("2026-03-02", "2026-03-02", 0.6667),
        ("2026-03-03", "2026-03-03", None),
        ("2026-03-04", "2026-03-04", 0.0),
    ]
    empty = body["data"]["points"][1]["field"]
    assert empty["numerator"] == {"label": "Calls taken", "value": 0}
    assert empty["denominator"] == {"label": "Calls taken or no-show", "value": 0}
    assert empty["unavailable"] == {
        "code": "empty-denominator",
        "reason": "Calls taken or no-show: none in the period.",
    }
    assert body["notes"] == [
        {
            "subject": "calls.show_rate",
            "code": "figure-unavailable",
            "reason": "Calls taken or no-show: none in the period.",
        }
    ]


def test_months_are_clipped_to_the_period(ws, rec, client_for):
    for created in [
        "2026-01-14 23:00",
        "2026-01-15 00:00",
        "2026-02-28 23:59",
        "2026-03-01 00:00",
        "2026-03-10 12:00",
        "2026-03-11 00:00",
    ]:
        rec.lead(created)
    body = (
        client_for(ws)
        .get(
            "/api/v1/series",
            {
                "metric": "leads.created",
                "from": "2026-01-15",
                "to": "2026-03-10",
                "interval": "month",
            },
        )
        .json()
    )
    assert points(body) == [
        ("2026-01-15", "2026-01-31", 1),
        ("2026-02-01", "2026-02-28", 1),
        ("2026-03-01", "2026-03-10", 2),
    ]


@pytest.mark.parametrize("interval", ["day", "week", "month"])
def test_every_point_is_what_the_endpoint_answers_for_its_days(
    ws, rec, calls_dataset, client_for, interval
):
    sale = rec.sale(300000, "2026-03-05 12:00")
    payment = rec.payment(sale, 100000, "2026-03-06 09:00")
    rec.payment(sale, 50000, "2026-03-17 09:00")
    rec.refund(payment, 20000, "2026-03-18 10:00")
    rec.outcome("disqualified", lead=rec.lead("2026-03-11 08:00"), when="2026-03-12 09:00")
    for n, day in enumerate(("2026-02-26", "2026-03-05", "2026-03-05", "2026-03-31")):
        ad_spend_upsert(
            workspace=ws,
            external_id=f"s{n}",
            date=date.fromisoformat(day),
            platform="meta",
            amount=1000 * (n + 1),
        )
    client = client_for(ws)
    endpoint = {
        "calls": "calls",
        "outcomes": "outcomes",
        "payments": "payments",
        "leads": "leads",
        "acquisition": "acquisition",
    }
    for metric in SERIES_METRICS:
        family, key = metric.split(".", 1)
        body = client.get(
            "/api/v1/series",
            {"metric": metric, "from": "2026-02-26", "to": "2026-03-31", "interval": interval},
        ).json()
        assert body["data"]["points"], metric
        for point in body["data"]["points"]:
            answer = client.get(
                f"/api/v1/{endpoint[family]}", {"from": point["from"], "to": point["to"]}
            ).json()
            # /acquisition's figures of the whole period are its data.total.
            data = answer["data"]["total"] if family == "acquisition" else answer["data"]
            assert point["field"] == data[key], (metric, point["from"])


def test_series_of_several_metrics_share_their_queries(
    ws, rec, calls_dataset, django_assert_num_queries
):
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))
    # Calls, payments, and which daily roll-ups the workspace has (figures.rollups).
    with django_assert_num_queries(4):
        series = series_figures(
            workspace=ws,
            period=period,
            metrics=[
                "calls.booked",
                "calls.taken",
                "calls.closed",
                "payments.cash_collected",
                "payments.revenue_booked",
            ],
            interval="day",
            now=aware("2026-03-20 12:00"),
        ).data
    assert len(series["calls.booked"]) == 31
    assert sum(point["field"].value for point in series["calls.booked"]) == 9


def test_unknown_metric_names_the_known_ones(ws, client_for):
    response = client_for(ws).get("/api/v1/series", {"metric": "calls.nope"})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == {
        "reason": "invalid_parameter",
        "message": "metric must name a figure with a series, not 'calls.nope'.",
    }
    assert body["field"] == "metric"
    assert body["metrics"] == [*SERIES_METRICS, "goal.actual", "goal.expected"]
    assert "leads.created" in body["metrics"]
    assert "payments.collection_rate" in body["metrics"]
    assert "eod.compliance_rate" not in body["metrics"]


def test_missing_metric_is_400(ws, client_for):
    response = client_for(ws).get("/api/v1/series")
    assert response.status_code == 400
    assert response.json()["field"] == "metric"
    assert response.json()["error"]["message"] == (
        "metric is required: name a figure with a series."
    )


def test_bad_interval_is_400_naming_it(ws, client_for):
    response = client_for(ws).get("/api/v1/series", {"metric": "calls.booked", "interval": "hour"})
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "reason": "invalid_parameter",
            "message": "interval must be day, week or month, not 'hour'.",
        },
        "field": "interval",
    }


def test_bad_dates_are_400_naming_them(ws, client_for):
    response = client_for(ws).get(
        "/api/v1/series", {"metric": "calls.booked", "from": "2026-03-05", "to": "2026-03-01"}
    )
    assert response.status_code == 400
    assert response.json()["field"] == "from"


def test_more_than_1000_points_is_400_naming_interval(ws, client_for):
    client = client_for(ws)
    params = {"metric": "leads.created", "from": "2024-01-01", "to": "2026-09-27"}
    assert client.get("/api/v1/series", {**params, "interval": "day"}).json() == {
        "error": {
            "reason": "invalid_parameter",
            "message": "2024-01-01 to 2026-09-27 by day makes 1001 points; at most 1000 are "
            "answered: use a longer interval or a shorter period.",
        },
        "field": "interval",
    }
    assert client.get("/api/v1/series", {**params, "to": "2026-09-26"}).status_code == 200
    week = client.get("/api/v1/series", {**params, "interval": "week"})
    assert week.status_code == 200
    assert len(week.json()["data"]["points"]) == 143


def test_every_calls_figure_names_the_counts_it_is_built_from():
    counts = calls._calls_aggregates(aware("2026-03-20 12:00"))
    assert tuple(counts) == calls.CALLS_COUNT_KEYS
    calls_metrics = {m.split(".", 1)[1] for m in SERIES_METRICS if m.startswith("calls.")}
    assert set(calls.CALLS_COUNTS_OF) == calls_metrics


@pytest.mark.parametrize(
    ("interval", "points_made"),
    [("day", 3652058), ("week", 521723), ("month", 119988)],
)
def test_the_whole_calendar_is_refused_without_building_its_buckets(
    ws, client_for, monkeypatch, interval, points_made
):
    def never(*args, **kwargs):
        raise AssertionError("the buckets were built before the count was checked")

    monkeypatch.setattr("figures.selectors.series.series_buckets", never)
    params = {"metric": "calls.booked", "from": "0001-01-01", "to": "9999-12-30"}
    response = client_for(ws).get("/api/v1/series", {**params, "interval": interval})
    assert response.status_code == 400
    assert response.json()["field"] == "interval"
    assert f"makes {points_made} points" in response.json()["error"]["message"]


@pytest.mark.parametrize("interval", ["day", "week", "month"])
def test_the_count_is_the_number_of_buckets(ws, interval):
    for first, last in [
        (date(2026, 1, 1), date(2026, 1, 1)),
        (date(2025, 12, 29), date(2026, 3, 2)),
        (date(2024, 2, 29), date(2026, 11, 25)),
        (date(9999, 11, 20), date(9999, 12, 30)),
        (date(1, 1, 1), date(1, 3, 1)),
    ]:
        period = Period.of_days(workspace=ws, first_day=first, last_day=last)
        assert series_bucket_count(period, interval) == len(series_buckets(period, interval))


def test_the_last_weeks_and_months_of_the_calendar_answer(ws, client_for):
    params = {"metric": "calls.booked", "from": "9999-11-20", "to": "9999-12-30"}
    for interval, count in (("week", 7), ("month", 2)):
        response = client_for(ws).get("/api/v1/series", {**params, "interval": interval})
        assert response.status_code == 200, response.content
        assert len(response.json()["data"]["points"]) == count
        assert response.json()["data"]["points"][-1]["to"] == "9999-12-30"


@pytest.mark.parametrize("interval", ["day", "week", "month"])
def test_a_periods_figures_added_up_from_its_buckets_are_the_endpoints(
    ws, rec, calls_dataset, client_for, interval, django_assert_num_queries
):
    sale = rec.sale(300000, "2026-03-05 12:00")
    payment = rec.payment(sale, 100000, "2026-03-06 09:00")
    rec.payment(sale, 50000, "2026-03-17 09:00")
    rec.refund(payment, 20000, "2026-03-18 10:00")
    rec.outcome("disqualified", lead=rec.lead("2026-03-11 08:00"), when="2026-03-12 09:00")
    period = Period.of_days(workspace=ws, first_day=date(2026, 2, 26), last_day=date(2026, 3, 31))
    now = None  # as the endpoints: the period is wholly past
    every = [metric for metric in SERIES_METRICS if metric not in HEADLINE]
    # Grouped aggregates only: calls, payments' cash and sales, leads, and outcomes' two
    # (calls by outcome, past-call forms); and which daily roll-ups the workspace has.
    with django_assert_num_queries(7):
        series, totals = series_with_totals(
            workspace=ws,
            period=period,
            metrics=["calls.booked", "payments.cash_collected"],
            totals=[*HEADLINE, "outcomes.disqualified"],
            interval=interval,
            now=now,
        )
    assert (
        series.data
        == series_figures(
            workspace=ws,
            period=period,
            metrics=["calls.booked", "payments.cash_collected"],
            interval=interval,
            now=now,
        ).data
    )
    # Only what the headline is built from: calls, payments' cash and sales, leads.
    with django_assert_num_queries(4):
        whole = metric_figures(workspace=ws, period=period, metrics=HEADLINE, now=now)
    assert {metric: totals[metric] for metric in HEADLINE} == whole
    _, everything = series_with_totals(
        workspace=ws, period=period, metrics=[], totals=every, interval=interval, now=now
    )
    assert everything == metric_figures(workspace=ws, period=period, metrics=every, now=now)
    assert totals["payments.cash_collected"].value == 1500
    assert totals["payments.revenue_booked"].value == 3000
    assert everything["payments.refunded"].value == 200
    assert totals["outcomes.disqualified"].value == 1
    client = client_for(ws)
    endpoint = {
        "calls": "calls",
        "outcomes": "outcomes",
        "payments": "payments",
        "leads": "leads",
        "acquisition": "acquisition",
    }
    rendered = {}
    for metric, field in {**totals, **everything}.items():
        family, key = metric.split(".", 1)
        if family not in rendered:
            data = client.get(
                f"/api/v1/{endpoint[family]}", {"from": "2026-02-26", "to": "2026-03-31"}
            ).json()["data"]
            # /acquisition's figures of the whole period are its data.total.
            rendered[family] = data["total"] if family == "acquisition" else data
        assert rendered[family][key] == field.as_dict(), metric


def test_a_count_left_out_of_an_aggregate_raises_instead_of_reading_0(ws, rec, monkeypatch):
    rec.call("2026-03-05 10:00", attendance=NO_SHOW)
    rec.call("2026-03-05 11:00")  # past its start, no attendance: awaiting
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))
    now = aware("2026-03-20 12:00")
    shown = metric_figures(workspace=ws, period=period, metrics=["calls.show_rate"], now=now)
    assert [note.code for note in shown["calls.show_rate"].notes] == ["awaiting-outcome"]
    # The show rate's note reads the awaiting calls: counted without them, it would say
    # nothing is awaiting. Every path that builds it refuses instead.
    monkeypatch.setitem(calls.CALLS_COUNTS_OF, "show_rate", {"taken", "no_show"})
    with pytest.raises(MissingCount, match="'awaiting' was not counted"):
        metric_figures(workspace=ws, period=period, metrics=["calls.show_rate"], now=now)
    with pytest.raises(MissingCount, match="'awaiting'"):
        series_figures(
            workspace=ws, period=period, metrics=["calls.show_rate"], interval="week", now=now
        )
    with pytest.raises(MissingCount, match="'awaiting'"):
        series_with_totals(
            workspace=ws,
            period=period,
            metrics=[],
            totals=["calls.show_rate"],
            interval="week",
            now=now,
        )


def test_counts_refuse_a_key_they_did_not_count():
    counts = Counts({"taken": 2, "no_show": 0})
    assert (counts["taken"], counts["no_show"]) == (2, 0)
    with pytest.raises(
        MissingCount, match=r"'awaiting' was not counted \(counted: no_show, taken\)"
    ):
        counts["awaiting"]
