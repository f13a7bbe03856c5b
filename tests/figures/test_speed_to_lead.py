"""Leads waiting for a first contact (/api/v1/speed-to-lead)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from figures.selectors import speed_to_lead

pytestmark = pytest.mark.django_db


@pytest.fixture
def window(ws, rec, make_member):
    now = timezone.now().replace(microsecond=0)
    setter = make_member(ws, "setter")
    fresh = rec.lead(now - timedelta(minutes=10), name="Fresh")
    contacted = rec.lead(now - timedelta(minutes=30), name="Contacted")
    rec.touch(contacted, now - timedelta(minutes=25), member=setter)
    waiting = rec.lead(now - timedelta(minutes=90), name="Waiting")
    rec.lead(now - timedelta(minutes=200), name="Too old")
    return now, fresh, contacted, waiting


def test_waiting_leads_longest_first(ws, window, client_for, django_assert_max_num_queries):
    now, fresh, _, waiting = window
    data = speed_to_lead(workspace=ws, within_minutes=120, now=now).data
    assert data["waiting"].value == 2
    assert data["contacted_rate"].value == 0.3333
    assert data["contacted_rate"].as_dict()["numerator"]["value"] == 1
    assert data["contacted_rate"].as_dict()["denominator"]["value"] == 3
    assert [(row["name"], row["minutes_waited"]) for row in data["leads"]] == [
        ("Waiting", 90),
        ("Fresh", 10),
    ]
    assert data["leads"][0]["open_url"] == f"{settings.BASE_URL}/app/leads/{waiting.pk}"

    client = client_for(ws)
    with django_assert_max_num_queries(5):
        body = client.get("/api/v1/speed-to-lead").json()
    assert body["period"] is None
    assert body["data"]["within_minutes"] == 120
    assert [row["id"] for row in body["data"]["leads"]] == [str(waiting.pk), str(fresh.pk)]
    assert body["data"]["leads"][1]["open_url"] == f"{settings.BASE_URL}/app/leads/{fresh.pk}"


def test_window_is_within_minutes(ws, window, client_for):
    body = client_for(ws).get("/api/v1/speed-to-lead", {"withinMinutes": "60"}).json()
    assert body["data"]["waiting"]["value"] == 1
    assert body["data"]["contacted_rate"]["value"] == 0.5
    assert [row["name"] for row in body["data"]["leads"]] == ["Fresh"]


def test_nothing_in_the_window(ws, client_for):
    body = client_for(ws).get("/api/v1/speed-to-lead", {"withinMinutes": "10080"}).json()
    assert body["data"]["waiting"]["value"] == 0
    assert body["data"]["contacted_rate"]["unavailable"]["code"] == "empty-denominator"
    assert body["notes"][0]["subject"] == "speed_to_lead.contacted_rate"


@pytest.mark.parametrize(
    "within", ["0", "10081", "-5", "two", "1.5", "\uff15", "\u0661\u0662", "+60", "6_0"]
)
def test_unusable_window_is_400(within, ws, client_for):
    response = client_for(ws).get("/api/v1/speed-to-lead", {"withinMinutes": within})
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == "withinMinutes"
