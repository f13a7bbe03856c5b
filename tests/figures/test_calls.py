"""Call figures (/api/v1/calls) on a small hand-counted dataset."""

from datetime import date

import pytest

from figures.period import Period
from figures.selectors import calls_figures
from tests.conftest import aware

pytestmark = pytest.mark.django_db

NOW = aware("2026-03-20 12:00")


def march(ws):
    return Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))


def values(data):
    return {key: field.value for key, field in data.items()}


def test_call_counts_and_rates(ws, calls_dataset):
    data = calls_figures(workspace=ws, period=march(ws), now=NOW).data
    assert values(data) == {
        "booked": 9,
        "cancelled": 1,
        "taken": 5,
        "no_show": 1,
        "awaiting_outcome": 2,
        "upcoming": 1,
        "closed": 2,
        "show_rate": 0.8333,
        "close_rate": 0.4,
        "offer_rate": 0.2,
    }
    show = data["show_rate"].as_dict()
    assert show["numerator"] == {"label": "Calls taken", "value": 5}
    assert show["denominator"] == {"label": "Calls taken or no-show", "value": 6}
    assert show["unavailable"] is None
    assert data["offer_rate"].as_dict()["numerator"]["value"] == 1


def test_calls_endpoint_envelope(ws, calls_dataset, client_for, django_assert_max_num_queries):
    client = client_for(ws)
    with django_assert_max_num_queries(5):
        response = client.get("/api/v1/calls", {"from": "2026-03-01", "to": "2026-03-31"})
    assert response.status_code == 200
    body = response.json()
    assert body["workspace"] == {"id": str(ws.pk), "currency": "USD"}
    assert body["period"] == {"from": "2026-03-01", "to": "2026-03-31"}
    # Today is long after March 2026: nothing is upcoming any more.
    assert body["data"]["booked"]["value"] == 9
    assert body["data"]["awaiting_outcome"]["value"] == 3
    assert body["data"]["upcoming"]["value"] == 0
    assert body["data"]["booked"] == {
        "metric": "calls.booked",
        "label": "Calls booked",
        "unit": "count",
        "value": 9,
        "unavailable": None,
    }
    assert body["data"]["close_rate"] == {
        "metric": "calls.close_rate",
        "label": "Close rate",
        "unit": "rate",
        "value": 0.4,
        "numerator": {"label": "Calls closed", "value": 2},
        "denominator": {"label": "Calls taken", "value": 5},
        "unavailable": None,
    }
    assert body["notes"] == [
        {
            "subject": "calls.show_rate",
            "code": "awaiting-outcome",
            "reason": "3 call(s) past their start have no attendance recorded; the show rate "
            "leaves them out.",
        }
    ]


def test_query_count_does_not_grow_with_the_period(
    ws, rec, client_for, django_assert_max_num_queries
):
    for day in range(1, 29):
        rec.call(f"2026-02-{day:02d} 10:00", attendance="showed")
    client = client_for(ws)
    with django_assert_max_num_queries(5):
        response = client.get("/api/v1/calls", {"from": "2025-01-01", "to": "2026-03-31"})
    assert response.json()["data"]["taken"]["value"] == 28


def test_empty_period_has_null_rates_with_reasons(ws, client_for):
    body = client_for(ws).get("/api/v1/calls", {"from": "2026-03-01", "to": "2026-03-31"}).json()
    assert body["data"]["booked"]["value"] == 0
    for key, label in [
        ("show_rate", "Calls taken or no-show"),
        ("close_rate", "Calls taken"),
        ("offer_rate", "Calls taken"),
    ]:
        field = body["data"][key]
        assert field["value"] is None
        assert field["unavailable"] == {
            "code": "empty-denominator",
            "reason": f"{label}: none in the period.",
        }
        assert field["denominator"] == {"label": label, "value": 0}
    assert body["notes"] == [
        {
            "subject": f"calls.{key}",
            "code": "figure-unavailable",
            "reason": f"{label}: none in the period.",
        }
        for key, label in [
            ("show_rate", "Calls taken or no-show"),
            ("close_rate", "Calls taken"),
            ("offer_rate", "Calls taken"),
        ]
    ]


def test_offer_rate_has_no_numerator_when_no_offer_is_recorded(ws, rec):
    rec.call("2026-03-02 10:00", attendance="showed")
    rec.call("2026-03-03 10:00", attendance="showed")
    field = calls_figures(workspace=ws, period=march(ws), now=NOW).data["offer_rate"].as_dict()
    assert field["value"] is None
    assert field["unavailable"] == {
        "code": "no-numerator",
        "reason": "No taken call in the period has whether an offer was made recorded.",
    }
    assert field["denominator"]["value"] == 2


def test_period_crossing_daylight_saving_in_new_york(make_workspace, records, client_for):
    ws = make_workspace(timezone="America/New_York")
    rec = records(ws)
    # 2026-03-08 lasts 23 hours in New York: [05:00 UTC, next day 04:00 UTC).
    rec.call("2026-03-08 04:59")  # 23:59 on 7 March, EST
    rec.call("2026-03-08 05:00")  # 00:00 on 8 March
    rec.call("2026-03-09 03:59")  # 23:59 on 8 March, EDT
    rec.call("2026-03-09 04:00")  # 00:00 on 9 March, EDT
    body = client_for(ws).get("/api/v1/calls", {"from": "2026-03-08", "to": "2026-03-08"}).json()
    assert body["period"] == {"from": "2026-03-08", "to": "2026-03-08"}
    assert body["data"]["booked"]["value"] == 2
    # A week across the change: 7 local days, 167 hours.
    body = client_for(ws).get("/api/v1/calls", {"from": "2026-03-02", "to": "2026-03-08"}).json()
    assert body["data"]["booked"]["value"] == 3


def test_workspace_label_overrides_the_english_label(make_workspace, client_for):
    ws = make_workspace(branding={"labels": {"calls.booked": "Appels réservés"}})
    body = client_for(ws).get("/api/v1/calls", {"from": "2026-03-01", "to": "2026-03-02"}).json()
    assert body["data"]["booked"]["label"] == "Appels réservés"
    assert body["data"]["taken"]["label"] == "Calls taken"
