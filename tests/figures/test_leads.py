"""Leads created (/api/v1/leads) and the limit."""

from datetime import timedelta

import pytest

from tests.conftest import aware
from workspaces.models import Lead

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


@pytest.fixture
def leads(rec, ws, make_member):
    setter = make_member(ws, "setter", name="Sam", email="sam@example.test")
    a = rec.lead("2026-03-02 10:00", name="Ann", email="ann@example.test", utm_source="google")
    b = rec.lead("2026-03-05 10:00", name="Ben", setter=setter, status="booked")
    rec.touch(b, "2026-03-05 10:07", member=setter)
    c = rec.lead("2026-03-09 10:00", name="Cat")
    rec.lead("2026-02-27 10:00", name="Old")
    return a, b, c, setter


def test_leads_newest_first(ws, leads, client_for, django_assert_max_num_queries):
    _a, b, _c, setter = leads
    client = client_for(ws)
    with django_assert_max_num_queries(5):
        body = client.get("/api/v1/leads", MARCH).json()
    assert body["data"]["created"]["value"] == 3
    assert [row["name"] for row in body["data"]["leads"]] == ["Cat", "Ben", "Ann"]
    assert body["data"]["leads"][1] == {
        "id": str(b.pk),
        "created_at": "2026-03-05T10:00:00Z",
        "name": "Ben",
        "email": "",
        "source": "(none)",
        "utm_source": "(none)",
        "utm_medium": "(none)",
        "utm_campaign": "(none)",
        "utm_content": "(none)",
        "status": "booked",
        "setter": {"id": str(setter.pk), "name": "Sam", "email": "sam@example.test"},
        "first_contact_at": "2026-03-05T10:07:00Z",
    }
    assert body["data"]["leads"][2]["source"] == "google"
    assert body["notes"] == []


def test_limit_truncates_and_says_so(ws, leads, client_for):
    body = client_for(ws).get("/api/v1/leads", {**MARCH, "limit": "2"}).json()
    assert body["data"]["created"]["value"] == 3
    assert [row["name"] for row in body["data"]["leads"]] == ["Cat", "Ben"]
    assert body["notes"] == [
        {
            "subject": "leads",
            "code": "truncated",
            "reason": "2 of 3 leads listed (limit 2); leads.created counts them all.",
        }
    ]


def test_limit_above_500_is_capped(ws, rec, client_for):
    for minute in range(3):
        rec.lead(f"2026-03-02 10:0{minute}")
    response = client_for(ws).get("/api/v1/leads", {**MARCH, "limit": "100000"})
    assert response.status_code == 200
    assert len(response.json()["data"]["leads"]) == 3


def test_limit_500_lists_500(ws, rec, client_for):
    start = aware("2026-03-02 00:00")
    Lead.objects.bulk_create(
        Lead(workspace=ws, created_at=start + timedelta(minutes=i)) for i in range(501)
    )
    body = client_for(ws).get("/api/v1/leads", {**MARCH, "limit": "900"}).json()
    assert len(body["data"]["leads"]) == 500
    assert body["data"]["created"]["value"] == 501
    assert body["notes"][0]["code"] == "truncated"
    body = client_for(ws).get("/api/v1/leads", MARCH).json()
    assert len(body["data"]["leads"]) == 100


@pytest.mark.parametrize(
    "limit", ["0", "-3", "ten", "2.5", "\u00b2", "\u0661\u0662", "\uff15", "+5", "1_0", " 5"]
)
def test_unusable_limit_is_400(limit, ws, client_for):
    response = client_for(ws).get("/api/v1/leads", {**MARCH, "limit": limit})
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == "limit"


def test_times_keep_their_microseconds_and_rows_hold_only_texts(ws, rec, client_for):
    # The times come from the database as text: microseconds only when there are any, a
    # lead's first contact in any zone written in UTC.
    lead = rec.lead("2026-03-02 10:00:00.250000", name="Ann")
    rec.lead("2026-03-03 10:00", name="Bo")
    Lead.objects.filter(pk=lead.pk).update(
        first_contact_at=aware("2026-03-02 12:00:01.000001", "Europe/Berlin")
    )
    body = client_for(ws).get("/api/v1/leads", MARCH).json()
    rows = {row["name"]: row for row in body["data"]["leads"]}
    assert (rows["Ann"]["created_at"], rows["Ann"]["first_contact_at"]) == (
        "2026-03-02T10:00:00.250000Z",
        "2026-03-02T11:00:01.000001Z",
    )
    assert (rows["Bo"]["created_at"], rows["Bo"]["first_contact_at"]) == (
        "2026-03-03T10:00:00Z",
        None,
    )
    # A lead's row holds only texts and None.
    leaves = [value for row in rows.values() for value in row.values()]
    leaves += [value for row in rows.values() if row["setter"] for value in row["setter"].values()]
    assert {type(value) for value in leaves} <= {str, type(None), dict}
