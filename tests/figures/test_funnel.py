"""Funnel stages for a cohort (/api/v1/funnel)."""

from datetime import date

import pytest

from figures.period import Period
from figures.selectors import funnel_figures
from workspaces.models import FunnelEvent

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


@pytest.fixture
def vsl(ws, rec):
    funnel = rec.funnel()
    rec.funnel("webinar", stages=("registered", "attended"))
    l1 = rec.lead()
    for stage, day in [
        ("opt-in", 2),
        ("application", 3),
        ("booked", 4),
        ("taken", 5),
        ("closed", 6),
    ]:
        rec.funnel_event(funnel, l1, stage, f"2026-03-0{day} 10:00")
    # Booked before applying: application counts, booked does not.
    l2 = rec.lead()
    rec.funnel_event(funnel, l2, "opt-in", "2026-03-02 10:00")
    rec.funnel_event(funnel, l2, "booked", "2026-03-03 10:00")
    rec.funnel_event(funnel, l2, "application", "2026-03-04 10:00")
    # Entered before the period: not in the cohort.
    l3 = rec.lead()
    rec.funnel_event(funnel, l3, "opt-in", "2026-02-27 10:00")
    rec.funnel_event(funnel, l3, "opt-in", "2026-03-02 10:00")
    rec.funnel_event(funnel, l3, "application", "2026-03-02 11:00")
    l4 = rec.lead()
    rec.funnel_event(funnel, l4, "opt-in", "2026-03-10 10:00")
    # Never opted in: not in the cohort.
    l5 = rec.lead()
    rec.funnel_event(funnel, l5, "application", "2026-03-05 10:00")
    return funnel


def stages(body):
    return [
        (row["name"], row["count"]["value"], row["rate"]["value"]) for row in body["data"]["stages"]
    ]


def test_cohort_stages(ws, vsl, client_for, django_assert_max_num_queries):
    client = client_for(ws)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/funnel", MARCH).json()
    assert body["data"]["funnel"] == "vsl"
    assert stages(body) == [
        ("opt-in", 3, None),
        ("application", 2, 0.6667),
        ("booked", 1, 0.5),
        ("taken", 1, 1.0),
        ("closed", 1, 1.0),
    ]
    first = body["data"]["stages"][0]["rate"]
    assert first["unavailable"] == {
        "code": "no-denominator",
        "reason": "The first stage has no previous stage.",
    }
    second = body["data"]["stages"][1]
    assert second["count"]["metric"] == "funnel.stage_count"
    assert second["rate"]["numerator"]["value"] == 2
    assert second["rate"]["denominator"]["value"] == 3
    assert body["notes"] == [
        {
            "subject": "funnel.stage_rate",
            "code": "figure-unavailable",
            "reason": "The first stage has no previous stage.",
        }
    ]


def test_stage_after_an_empty_stage_is_empty_denominator(ws, vsl, client_for):
    body = client_for(ws).get("/api/v1/funnel", {"from": "2026-03-10", "to": "2026-03-10"})
    body = body.json()
    assert stages(body) == [
        ("opt-in", 1, None),
        ("application", 0, 0.0),
        ("booked", 0, None),
        ("taken", 0, None),
        ("closed", 0, None),
    ]
    assert body["data"]["stages"][2]["rate"]["unavailable"]["code"] == "empty-denominator"


def test_another_funnel_by_name(ws, vsl, client_for):
    body = client_for(ws).get("/api/v1/funnel", {**MARCH, "funnel": "webinar"}).json()
    assert stages(body) == [("registered", 0, None), ("attended", 0, None)]


def test_unknown_funnel_names_the_existing_ones(ws, vsl, client_for):
    response = client_for(ws).get("/api/v1/funnel", {**MARCH, "funnel": "nope"})
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["reason"] == "invalid_parameter"
    assert body["field"] == "funnel"
    assert body["funnels"] == ["vsl", "webinar"]


def test_no_funnel_at_all(ws, client_for):
    body = client_for(ws).get("/api/v1/funnel", MARCH).json()
    assert body["data"] == {"funnel": "vsl", "stages": []}
    assert body["notes"] == [
        {
            "subject": "funnel",
            "code": "no-data-source",
            "reason": "This workspace has no funnel yet.",
        }
    ]
    response = client_for(ws).get("/api/v1/funnel", {"funnel": "vsl"})
    assert response.status_code == 400
    assert response.json()["funnels"] == []


def test_restricted_to_a_setters_leads(ws, vsl, make_member):
    setter = make_member(ws, "setter")
    lead = FunnelEvent.objects.get(stage__key="closed").lead
    lead.setter = setter
    lead.save()
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))
    data = funnel_figures(workspace=ws, period=period, member=setter).data
    assert [row["count"].value for row in data["stages"]] == [1, 1, 1, 1, 1]
