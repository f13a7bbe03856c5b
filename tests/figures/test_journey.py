"""A lead's journey (/api/v1/leads/{id}/journey)."""

import pytest

from workspaces.models import Outcome

pytestmark = pytest.mark.django_db


def test_everything_about_one_lead_in_time_order(
    ws, rec, make_member, client_for, django_assert_max_num_queries
):
    closer = make_member(ws, "closer", name="Cleo", email="cleo@example.test")
    lead = rec.lead("2026-03-01 09:00", name="Lia", utm_source="youtube")
    rec.touch(lead, "2026-03-01 09:05", member=closer, channel="sms")
    event = rec.webinar("2026-03-01 18:00", pitch="2026-03-01 18:40", name="Launch")
    rec.registration(event, lead=lead, joined="2026-03-01 18:01", left="2026-03-01 19:00")
    first = rec.call("2026-03-03 10:00", lead=lead, booked="2026-03-01 19:05", closer=closer)
    second = rec.call(
        "2026-03-04 10:00",
        lead=lead,
        booked="2026-03-02 08:00",
        rescheduled_from=first,
        closer=closer,
        attendance="showed",
    )
    rec.outcome("closed", call=second, when="2026-03-04 11:00", member=closer)
    sale = rec.sale(200000, "2026-03-04 11:05", lead=lead, closer=closer)
    payment = rec.payment(sale, 50000, "2026-03-04 11:10")
    rec.refund(payment, 10000, "2026-03-20 09:00")
    funnel = rec.funnel()
    rec.funnel_event(funnel, lead, "opt-in", "2026-03-01 09:00:30")
    other = rec.lead("2026-03-01 09:00")
    rec.call("2026-03-05 10:00", lead=other, status="cancelled")

    client = client_for(ws)
    with django_assert_max_num_queries(4):
        response = client.get(f"/api/v1/leads/{lead.pk}/journey")
    assert response.status_code == 200
    body = response.json()
    assert body["period"] is None
    assert body["data"]["lead"]["name"] == "Lia"
    assert body["data"]["lead"]["utm_source"] == "youtube"
    events = body["data"]["events"]
    assert [(e["at"], e["type"]) for e in events] == [
        ("2026-02-28T18:00:00Z", "webinar.registered"),
        ("2026-03-01T09:00:00Z", "lead.created"),
        ("2026-03-01T09:00:30Z", "funnel.stage"),
        ("2026-03-01T09:05:00Z", "touch"),
        ("2026-03-01T18:01:00Z", "webinar.joined"),
        ("2026-03-01T19:00:00Z", "webinar.left"),
        ("2026-03-01T19:05:00Z", "call.booked"),
        ("2026-03-02T08:00:00Z", "call.rescheduled"),
        ("2026-03-04T10:00:00Z", "call.showed"),
        ("2026-03-04T11:00:00Z", "outcome"),
        ("2026-03-04T11:05:00Z", "sale"),
        ("2026-03-04T11:10:00Z", "payment"),
        ("2026-03-20T09:00:00Z", "refund"),
    ]
    by_type = {e["type"]: e for e in events}
    assert by_type["sale"]["contract_value"] == 2000
    assert by_type["refund"]["amount"] == 100
    assert by_type["outcome"]["result"] == "closed"
    assert by_type["call.rescheduled"]["rescheduled_from"] == str(first.pk)
    assert by_type["funnel.stage"]["stage"] == "opt-in"


@pytest.mark.parametrize("count", [0, 1, 3, 4, 5, 65])
def test_every_outcome_of_every_call(ws, rec, make_member, client_for, count):
    """However many calls the lead has, each call's outcome and the lead's past-call
    outcome appear once; another lead's do not."""
    closer = make_member(ws, "closer")
    lead = rec.lead("2026-03-01 09:00")
    other = rec.lead("2026-03-01 09:00")
    rec.outcome("closed", call=rec.call("2026-03-02 10:00", lead=other), when="2026-03-02 11:00")
    rec.outcome("no_sale", lead=other, member=closer, when="2026-03-02 12:00", reason="price")
    rec.outcome("no_sale", lead=lead, member=closer, when="2026-03-01 12:00", reason="price")
    for n in range(count):
        call = rec.call(f"2026-03-{2 + n // 24:02d} {n % 24:02d}:00", lead=lead, closer=closer)
        rec.outcome(
            "follow_up", call=call, member=closer, when=f"2026-03-{2 + n // 24:02d} {n % 24:02d}:30"
        )
    # Outcomes that name only their call (the model allows it): found by their call.
    Outcome.objects.filter(call__isnull=False).update(lead=None)
    events = client_for(ws).get(f"/api/v1/leads/{lead.pk}/journey").json()["data"]["events"]
    outcomes = [e for e in events if e["type"] == "outcome"]
    assert [e["result"] for e in outcomes] == ["no_sale"] + ["follow_up"] * count
    assert len({e["call_id"] for e in outcomes[1:]}) == count


def test_cancelled_call_appears(ws, rec, client_for):
    lead = rec.lead("2026-03-01 09:00")
    rec.call("2026-03-05 10:00", lead=lead, status="cancelled", booked="2026-03-02 10:00")
    events = client_for(ws).get(f"/api/v1/leads/{lead.pk}/journey").json()["data"]["events"]
    assert [e["type"] for e in events] == ["lead.created", "call.booked", "call.cancelled"]


def test_unknown_lead_is_404(ws, client_for):
    response = client_for(ws).get("/api/v1/leads/00000000-0000-0000-0000-000000000000/journey")
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "not_found"
