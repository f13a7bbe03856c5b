"""Leads, closes and cash by first-touch UTM tuple (/api/v1/attribution)."""

from datetime import date

import pytest

from figures.period import Period
from figures.selectors import attribution_figures, leads_created_of_attribution
from workspaces.models import Lead

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
GOOGLE = {
    "utm_source": "google",
    "utm_medium": "cpc",
    "utm_campaign": "spring",
    "utm_content": "a",
}


def test_rows_by_whole_tuple(ws, rec, client_for, django_assert_max_num_queries):
    l1 = rec.lead("2026-03-02 10:00", **GOOGLE)
    rec.lead("2026-03-03 10:00", **GOOGLE)
    l3 = rec.lead("2026-03-04 10:00")
    rec.lead("2026-03-05 10:00", utm_source="facebook")
    rec.lead("2026-03-05 11:00", **{**GOOGLE, "utm_content": "b"})
    old = rec.lead("2026-02-20 10:00", **GOOGLE)
    s1 = rec.sale(300000, "2026-03-06 10:00", lead=l1)
    rec.payment(s1, 100000, "2026-03-06 10:00")
    rec.payment(s1, 100000, "2026-03-07 10:00", status="failed")
    s1b = rec.sale(20000, "2026-05-01 10:00", lead=l1)  # a later sale: cash to date counts
    rec.payment(s1b, 20000, "2026-05-01 10:00")
    s3 = rec.sale(5000, "2026-03-08 10:00", lead=l3)
    rec.payment(s3, 5000, "2026-03-08 10:00")
    rec.payment(rec.sale(100, lead=old), 100)

    client = client_for(ws)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/attribution", MARCH).json()
    rows = [
        (
            row["utm_source"],
            row["utm_medium"],
            row["utm_campaign"],
            row["utm_content"],
            row["leads"]["value"],
            row["closes"]["value"],
            row["cash_collected"]["value"],
            row["close_rate"]["value"],
        )
        for row in body["data"]["rows"]
    ]
    assert rows == [
        ("google", "cpc", "spring", "a", 2, 1, 1200, 0.5),
        ("(none)", "(none)", "(none)", "(none)", 1, 1, 50, 1.0),
        ("facebook", "(none)", "(none)", "(none)", 1, 0, 0, 0.0),
        ("google", "cpc", "spring", "b", 1, 0, 0, 0.0),
    ]
    first = body["data"]["rows"][0]
    assert first["close_rate"]["numerator"] == {"label": "Leads with a sale", "value": 1}
    assert first["close_rate"]["denominator"] == {"label": "Leads", "value": 2}
    assert first["cash_collected"]["currency"] == "USD"

    # Leads written without their combination kept (not through the services) are grouped
    # by their tags, with the others of the same tags.
    Lead.objects.filter(pk__in=[l1.pk, l3.pk]).update(utm_tags=None)
    again = client.get("/api/v1/attribution", MARCH).json()
    assert again["data"] == body["data"]


def test_no_leads(ws, client_for):
    body = client_for(ws).get("/api/v1/attribution", MARCH).json()
    assert body["data"] == {"rows": []}
    assert body["notes"] == []


def test_the_rows_add_up_to_the_leads_created(ws, rec, client_for, django_assert_num_queries):
    for day, utm in (
        (2, GOOGLE),
        (3, GOOGLE),
        (4, {}),
        (5, {"utm_source": "facebook"}),
        (31, {**GOOGLE, "utm_content": ""}),
    ):
        rec.lead(f"2026-03-{day:02d} 10:00", **utm)
    rec.lead("2026-02-28 23:00", **GOOGLE)  # before the period in the workspace's zone
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 31))
    data = attribution_figures(workspace=ws, period=period).data
    with django_assert_num_queries(0):
        created = leads_created_of_attribution(data, ws)
    answer = client_for(ws).get("/api/v1/leads", MARCH).json()["data"]["created"]
    assert created.as_dict() == answer
    assert answer["value"] == 5
    empty = Period.of_days(workspace=ws, first_day=date(2025, 1, 1), last_day=date(2025, 1, 31))
    nothing = leads_created_of_attribution(attribution_figures(workspace=ws, period=empty).data, ws)
    assert nothing.value == 0
