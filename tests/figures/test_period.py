"""The period and the parameters shared by the figures routes."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from figures.period import Period, local_today, period_from_query
from tests.conftest import aware

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "params, field",
    [
        ({"from": "2026-13-01"}, "from"),
        ({"from": "yesterday"}, "from"),
        ({"to": "2026-02-30"}, "to"),
        ({"to": "20260301"}, "to"),
        ({"from": "2026-W10-1"}, "from"),
        ({"to": "2026-03-0\u0661"}, "to"),
        ({"from": "2026-03-05", "to": "2026-03-04"}, "from"),
        ({"from": "2026-03-05", "to": "9999-12-31"}, "to"),
        # The default from (to - 29 days) would fall before the first day there is.
        ({"to": "0001-01-01"}, "to"),
        ({"to": "0001-01-29"}, "to"),
    ],
)
def test_unusable_dates_answer_400_naming_the_parameter(params, field, ws, client_for):
    response = client_for(ws).get("/api/v1/payments", params)
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["reason"] == "invalid_parameter"
    assert body["field"] == field


def test_default_period_is_the_last_30_days_in_the_workspace_timezone(make_workspace, client_for):
    ws = make_workspace(timezone="Pacific/Kiritimati")  # UTC+14: often a day ahead of UTC
    body = client_for(ws).get("/api/v1/calls", {"unknown": "ignored"}).json()
    today = local_today(ws)
    assert body["period"] == {
        "from": (today - timedelta(days=29)).isoformat(),
        "to": today.isoformat(),
    }
    # The rest of today is after now.
    assert body["notes"][-1]["code"] == "period-in-future"
    assert body["notes"][-1]["subject"] == "period"


def test_from_alone_runs_to_today(ws, client_for):
    today = timezone.now().date()
    body = client_for(ws).get("/api/v1/calls", {"from": "2026-03-01"}).json()
    assert body["period"] == {"from": "2026-03-01", "to": today.isoformat()}


def test_to_alone_starts_29_days_before(ws, client_for):
    body = client_for(ws).get("/api/v1/audit-events", {"to": "2026-03-31"}).json()
    assert body["period"] == {"from": "2026-03-02", "to": "2026-03-31"}
    assert body["notes"] == []


def test_period_in_future_note(ws, client_for):
    far = (timezone.now() + timedelta(days=400)).date().isoformat()
    body = client_for(ws).get("/api/v1/audit-events", {"from": "2026-03-01", "to": far}).json()
    assert [note["code"] for note in body["notes"]] == ["period-in-future"]


def test_local_days_become_a_utc_range(make_workspace):
    ws = make_workspace(timezone="America/New_York")
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 8), last_day=date(2026, 3, 8))
    assert period.start == aware("2026-03-08 05:00")
    assert period.end == aware("2026-03-09 04:00")
    period = period_from_query(workspace=ws, params={"from": "2026-11-01", "to": "2026-11-01"})
    assert period.end - period.start == timedelta(hours=25)
