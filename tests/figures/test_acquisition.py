"""What the leads cost: ad spend beside the leads it bought (/api/v1/acquisition), the
spend records (/api/v1/ad-spend) and their series."""

from datetime import date

import pytest

from figures import rollups
from figures.period import Period
from figures.selectors import acquisition_figures, acquisition_total
from workspaces.models import Lead
from workspaces.services import ad_spend_upsert

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
SPRING = {"utm_source": "facebook", "utm_medium": "paid_social", "utm_campaign": "spring"}


def spend(ws, external_id, day, amount, **utm):
    record, _ = ad_spend_upsert(
        workspace=ws,
        external_id=external_id,
        date=date.fromisoformat(day),
        platform=utm.pop("platform", "meta"),
        amount=amount,
        **utm,
    )
    return record


@pytest.fixture
def march(ws, rec):
    """Leads and spend of March 2026 (workspace in UTC), with the cohort's edges."""
    # facebook / spring: four leads of the period, the first and last day included.
    first = rec.lead("2026-03-01 00:00", **SPRING)
    last = rec.lead("2026-03-31 23:30", **SPRING)
    moved_then_cancelled = rec.lead("2026-03-10 10:00", **SPRING)
    moved = rec.lead("2026-03-15 10:00", **SPRING)
    # Booked and showed, with a sale of 3,000.00 paid.
    rec.call("2026-03-03 10:00", lead=first, attendance="showed")
    rec.payment(rec.sale(300000, "2026-03-04 10:00", lead=first), 300000, "2026-03-04 10:00")
    # A cancelled call only: not booked.
    rec.call("2026-03-31 23:45", lead=last, status="cancelled")
    # Rescheduled, then the final call cancelled: the replaced call no longer counts.
    replaced = rec.call("2026-03-11 10:00", lead=moved_then_cancelled, attendance="showed")
    rec.call(
        "2026-03-12 10:00", lead=moved_then_cancelled, rescheduled_from=replaced, status="cancelled"
    )
    # Rescheduled, the final call taken: booked and showed once; a sale in April with
    # 1,050.00 paid (cash to date counts).
    earlier = rec.call("2026-03-16 10:00", lead=moved)
    rec.call("2026-03-18 10:00", lead=moved, rescheduled_from=earlier, attendance="showed")
    rec.payment(rec.sale(200000, "2026-04-02 10:00", lead=moved), 105000, "2026-04-02 10:00")
    # Created the day before the period, with a sale and cash inside it: not in the cohort.
    before = rec.lead("2026-02-28 23:59", **SPRING)
    rec.call("2026-03-02 10:00", lead=before, attendance="showed")
    rec.payment(rec.sale(90000, "2026-03-05 10:00", lead=before), 90000, "2026-03-05 10:00")
    # Leads with no spend: google without a campaign, and one with no UTM at all (booked,
    # showed, no sale).
    rec.lead("2026-03-05 10:00", utm_source="google")
    untagged = rec.lead("2026-03-06 10:00")
    rec.call("2026-03-07 10:00", lead=untagged, attendance="showed")

    # Spend: facebook / spring on the first and last day (the last day revised from 30.00
    # to 50.00), outside the period on both sides; tiktok / launch with no lead; facebook
    # without a campaign.
    spend(ws, "fb-0301", "2026-03-01", 4000, **SPRING)
    spend(ws, "fb-0331", "2026-03-31", 3000, **SPRING)
    spend(ws, "fb-0331", "2026-03-31", 5000, **SPRING)
    spend(ws, "fb-0228", "2026-02-28", 99900, **SPRING)
    spend(ws, "fb-0401", "2026-04-01", 99900, **SPRING)
    spend(
        ws,
        "tt-0310",
        "2026-03-10",
        2500,
        platform="tiktok",
        utm_source="tiktok",
        utm_campaign="launch",
    )
    spend(ws, "fb-0302", "2026-03-02", 1000, utm_source="facebook")


def _values(row) -> dict:
    return {
        key: (field["value"] if isinstance(field, dict) else field) for key, field in row.items()
    }


def _row(
    keys, spend, leads, booked, shows, closes, cash, per_lead, per_booked, per_show, per_close, roas
) -> dict:
    return {
        **keys,
        "spend": spend,
        "leads": leads,
        "booked": booked,
        "shows": shows,
        "closes": closes,
        "cash_collected": cash,
        "cost_per_lead": per_lead,
        "cost_per_booked_call": per_booked,
        "cost_per_show": per_show,
        "cost_per_close": per_close,
        "roas": roas,
    }


def test_rows_by_campaign_hand_computed(ws, march, client_for, django_assert_max_num_queries):
    client = client_for(ws)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/acquisition", MARCH).json()
    rows = [_values(row) for row in body["data"]["rows"]]

    def keys(source, campaign):
        return {"utm_source": source, "utm_campaign": campaign}

    assert rows == [
        # 90.00 spent, 4 leads, 2 booked, 2 showed, 2 closed, 4,050.00 collected.
        _row(keys("facebook", "spring"), 90, 4, 2, 2, 2, 4050, 22.5, 45, 45, 45, 45.0),
        _row(keys("tiktok", "launch"), 25, 0, 0, 0, 0, 0, None, None, None, None, 0.0),
        _row(keys("facebook", "(none)"), 10, 0, 0, 0, 0, 0, None, None, None, None, 0.0),
        # No spend: costs 0 per lead, ROAS null; ordered by leads, then the keys.
        _row(keys("(none)", "(none)"), 0, 1, 1, 1, 0, 0, 0, 0, 0, None, None),
        _row(keys("google", "(none)"), 0, 1, 0, 0, 0, 0, 0, None, None, None, None),
    ]
    assert _values(body["data"]["total"]) == _row(
        {}, 125, 6, 3, 3, 2, 4050, 20.83, 41.67, 41.67, 62.5, 32.4
    )
    # Paid: the three rows with spend alone; the leads that came without spend left out.
    assert _values(body["data"]["paid"]) == _row(
        {}, 125, 4, 2, 2, 2, 4050, 31.25, 62.5, 62.5, 62.5, 32.4
    )
    assert body["data"]["paid"]["cost_per_lead"]["denominator"] == {"label": "Leads", "value": 4}

    first = body["data"]["rows"][0]
    assert first["spend"] == {
        "metric": "acquisition.spend",
        "label": "Ad spend",
        "unit": "money",
        "value": 90,
        "currency": "USD",
        "unavailable": None,
    }
    assert first["cost_per_lead"]["numerator"] == {"label": "Ad spend", "value": 90}
    assert first["cost_per_lead"]["denominator"] == {"label": "Leads", "value": 4}
    assert first["roas"]["unit"] == "rate"
    assert first["roas"]["numerator"] == {"label": "Cash collected", "value": 4050}
    assert first["roas"]["denominator"] == {"label": "Ad spend", "value": 90}
    tiktok = body["data"]["rows"][1]
    assert tiktok["cost_per_close"]["unavailable"]["code"] == "empty-denominator"
    organic = body["data"]["rows"][3]
    assert organic["roas"]["unavailable"] == {
        "code": "empty-denominator",
        "reason": "No ad spend in the period.",
    }
    assert {
        "subject": "acquisition.roas",
        "code": "figure-unavailable",
        "reason": "No ad spend in the period.",
    } in body["notes"]


@pytest.mark.parametrize("rolled", [False, True], ids=["records", "roll-up"])
def test_the_total_alone_is_the_total_of_the_rows(ws, march, rolled):
    """The total a page compares with, summed in the database without the rows, is
    /acquisition's data.total: from the records, or from the cohort's daily roll-up."""
    if rolled:
        assert rollups.rollups_build(ws) > 0
    for first, last in (
        ("2026-03-01", "2026-03-31"),
        ("2026-03-31", "2026-03-31"),
        ("2026-02-01", "2026-04-30"),
        ("2025-01-01", "2025-01-31"),
    ):
        period = Period.of_days(
            workspace=ws, first_day=date.fromisoformat(first), last_day=date.fromisoformat(last)
        )
        total = acquisition_total(workspace=ws, period=period)
        assert total == acquisition_figures(workspace=ws, period=period).data["total"]
        if first == "2026-03-01" and last == "2026-03-31":
            assert _values({key: field.as_dict() for key, field in total.items()}) == _row(
                {}, 125, 6, 3, 3, 2, 4050, 20.83, 41.67, 41.67, 62.5, 32.4
            )


def test_rows_by_source(ws, march, client_for):
    body = client_for(ws).get("/api/v1/acquisition", {**MARCH, "by": "source"}).json()
    rows = [_values(row) for row in body["data"]["rows"]]
    assert rows == [
        _row({"utm_source": "facebook"}, 100, 4, 2, 2, 2, 4050, 25, 50, 50, 50, 40.5),
        _row({"utm_source": "tiktok"}, 25, 0, 0, 0, 0, 0, None, None, None, None, 0.0),
        _row({"utm_source": "(none)"}, 0, 1, 1, 1, 0, 0, 0, 0, 0, None, None),
        _row({"utm_source": "google"}, 0, 1, 0, 0, 0, 0, 0, None, None, None, None),
    ]
    by_campaign = client_for(ws).get("/api/v1/acquisition", MARCH).json()["data"]
    assert body["data"]["total"] == by_campaign["total"]
    assert _values(body["data"]["paid"]) == _row(
        {}, 125, 4, 2, 2, 2, 4050, 31.25, 62.5, 62.5, 62.5, 32.4
    )


def test_a_single_day_period_holds_its_first_and_last_instants(ws, march, client_for):
    body = client_for(ws).get("/api/v1/acquisition", {"from": "2026-03-31", "to": "2026-03-31"})
    (row,) = body.json()["data"]["rows"]
    assert _values(row) == _row(
        {"utm_source": "facebook", "utm_campaign": "spring"},
        50,
        1,
        0,
        0,
        0,
        0,
        50,
        None,
        None,
        None,
        0.0,
    )


def test_nothing_in_the_period(ws, client_for):
    body = client_for(ws).get("/api/v1/acquisition", MARCH).json()
    assert body["data"]["rows"] == []
    total = _values(body["data"]["total"])
    assert total == _row({}, 0, 0, 0, 0, 0, 0, None, None, None, None, None)
    assert _values(body["data"]["paid"]) == total


@pytest.mark.parametrize("by", ["medium", "Campaign", "campaign,source"])
def test_another_by_is_400_naming_it(ws, client_for, by):
    answer = client_for(ws).get("/api/v1/acquisition", {"by": by})
    assert answer.status_code == 400
    body = answer.json()
    assert (body["error"]["reason"], body["field"]) == ("invalid_parameter", "by")


def test_a_return_above_one_is_no_fault(ws, rec, client_for):
    lead = rec.lead("2026-03-02 10:00", **SPRING)
    rec.payment(rec.sale(500000, "2026-03-03 10:00", lead=lead), 123457, "2026-03-03 10:00")
    spend(ws, "a", "2026-03-02", 10000, **SPRING)
    roas = client_for(ws).get("/api/v1/acquisition", MARCH).json()["data"]["total"]["roas"]
    assert (roas["value"], roas["unavailable"]) == (12.3457, None)


def test_series_of_spend_cost_per_lead_and_roas(ws, march, client_for):
    client = client_for(ws)
    week = {"from": "2026-03-01", "to": "2026-03-08", "interval": "week"}

    def points(metric, query):
        body = client.get("/api/v1/series", {"metric": metric, **query}).json()
        return [(p["from"], p["to"], p["field"]["value"]) for p in body["data"]["points"]]

    # Weeks from Monday: 1 March (a Sunday) alone, then 2 to 8 March.
    assert points("acquisition.spend", week) == [
        ("2026-03-01", "2026-03-01", 40),
        ("2026-03-02", "2026-03-08", 10),
    ]
    # 1 March: 40.00 for one lead; 2-8 March: 10.00 for two leads.
    assert points("acquisition.cost_per_lead", week) == [
        ("2026-03-01", "2026-03-01", 40),
        ("2026-03-02", "2026-03-08", 5),
    ]
    assert points("acquisition.roas", week) == [
        ("2026-03-01", "2026-03-01", 75.0),
        ("2026-03-02", "2026-03-08", 0.0),
    ]
    month = points("acquisition.roas", {**MARCH, "interval": "month"})
    assert month == [("2026-03-01", "2026-03-31", 32.4)]
    days = points("acquisition.spend", {"from": "2026-03-30", "to": "2026-04-01"})
    assert days == [
        ("2026-03-30", "2026-03-30", 0),
        ("2026-03-31", "2026-03-31", 50),
        ("2026-04-01", "2026-04-01", 999),
    ]


def test_the_records_oldest_day_first_and_paged(ws, march, client_for):
    client = client_for(ws)
    body = client.get("/api/v1/ad-spend", MARCH).json()
    assert [r["id"] for r in body["data"]["records"]] == [
        "fb-0301",
        "fb-0302",
        "tt-0310",
        "fb-0331",
    ]
    assert body["data"]["spend"]["value"] == 125
    assert body["data"]["records"][3] == {
        "id": "fb-0331",
        "date": "2026-03-31",
        "platform": "meta",
        "utm_source": "facebook",
        "utm_medium": "paid_social",
        "utm_campaign": "spring",
        "utm_content": None,
        "campaign_id": None,
        "campaign_name": None,
        "impressions": None,
        "clicks": None,
        "currency": "USD",
        "amount": 50,
    }
    assert body["notes"] == []
    cut = client.get("/api/v1/ad-spend", {**MARCH, "limit": "2"}).json()
    assert [r["id"] for r in cut["data"]["records"]] == ["fb-0301", "fb-0302"]
    assert cut["data"]["spend"]["value"] == 125
    assert [note["code"] for note in cut["notes"]] == ["truncated"]
    assert client.get("/api/v1/ad-spend", {"limit": "0"}).json()["field"] == "limit"


def test_leads_without_their_combination_kept_are_grouped_by_their_tags(ws, march, client_for):
    client = client_for(ws)
    before = client.get("/api/v1/acquisition", MARCH).json()
    Lead.objects.filter(workspace=ws, utm_source="facebook").update(utm_tags=None)
    again = client.get("/api/v1/acquisition", MARCH).json()
    assert again["data"] == before["data"]
    by_source = client.get("/api/v1/acquisition", {**MARCH, "by": "source"}).json()
    assert by_source["data"]["rows"][0]["leads"]["value"] == 4
