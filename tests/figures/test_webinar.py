"""Webinar cohort figures (/api/v1/webinar)."""

import pytest

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


@pytest.fixture
def events(ws, rec):
    e1 = rec.webinar("2026-03-05 18:00", pitch="2026-03-05 18:45", name="Launch")
    e2 = rec.webinar("2026-03-12 18:00", name="No pitch")
    e3 = rec.webinar("2026-02-20 18:00", pitch="2026-02-20 18:45", name="Old")
    r1 = rec.registration(e1, joined="2026-03-05 18:00")  # stayed, booked after
    rec.call("2026-03-09 10:00", lead=r1.lead, booked="2026-03-06 09:00")
    rec.registration(e1, joined="2026-03-05 18:10", left="2026-03-05 18:30")
    r3 = rec.registration(e1, joined="2026-03-05 18:50")  # joined after the pitch
    rec.call("2026-03-04 10:00", lead=r3.lead, booked="2026-03-01 09:00")  # booked before
    rec.registration(e1)  # never joined
    rec.registration(e1, joined="2026-03-05 18:00", left="2026-03-05 18:45")  # left at pitch
    rec.registration(e1, joined="2026-03-05 18:45", left="2026-03-05 19:00")  # joined at pitch
    rec.registration(e2, joined="2026-03-12 18:05")
    rec.registration(e2)
    rec.registration(e3, joined="2026-02-20 18:00")
    return e1, e2, e3


def values(data):
    return {key: field["value"] for key, field in data.items() if key != "event"}


def test_one_event(ws, events, client_for, django_assert_max_num_queries):
    e1, _, _ = events
    client = client_for(ws)
    with django_assert_max_num_queries(6):
        body = client.get("/api/v1/webinar", {"eventId": str(e1.pk)}).json()
    assert body["period"] is None
    assert body["data"]["event"] == {
        "id": str(e1.pk),
        "name": "Launch",
        "starts_at": "2026-03-05T18:00:00Z",
        "pitch_at": "2026-03-05T18:45:00Z",
    }
    assert values(body["data"]) == {
        "registrations": 6,
        "attended": 5,
        "stayed_to_pitch": 2,
        "booked": 1,
        "attendance_rate": 0.8333,
        "stay_rate": 0.4,
        "booking_rate": 0.2,
    }
    assert body["data"]["stay_rate"]["denominator"] == {"label": "Attended", "value": 5}


def test_event_without_pitch_time(ws, events, client_for):
    _, e2, _ = events
    body = client_for(ws).get("/api/v1/webinar", {"eventId": str(e2.pk)}).json()
    assert values(body["data"]) == {
        "registrations": 2,
        "attended": 1,
        "stayed_to_pitch": None,
        "booked": 0,
        "attendance_rate": 0.5,
        "stay_rate": None,
        "booking_rate": 0.0,
    }
    reason = "A webinar event attended in this cohort has no pitch time recorded."
    assert body["data"]["stay_rate"]["unavailable"] == {"code": "no-numerator", "reason": reason}
    assert body["data"]["stayed_to_pitch"]["unavailable"]["code"] == "no-numerator"
    assert [(n["subject"], n["code"]) for n in body["notes"]] == [
        ("webinar.stayed_to_pitch", "figure-unavailable"),
        ("webinar.stay_rate", "figure-unavailable"),
    ]


def test_all_events_of_the_period(ws, events, client_for):
    body = client_for(ws).get("/api/v1/webinar", MARCH).json()
    assert body["data"]["event"] is None
    assert values(body["data"]) == {
        "registrations": 8,
        "attended": 6,
        "stayed_to_pitch": None,
        "booked": 1,
        "attendance_rate": 0.75,
        "stay_rate": None,
        "booking_rate": 0.1667,
    }


@pytest.mark.parametrize("event_id", ["not-a-uuid", "00000000-0000-0000-0000-000000000001"])
def test_unknown_event_is_400(event_id, ws, events, client_for):
    response = client_for(ws).get("/api/v1/webinar", {"eventId": event_id})
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == "eventId"


def test_another_workspaces_event_is_400(ws, events, make_workspace, client_for):
    e1, _, _ = events
    response = client_for(make_workspace()).get("/api/v1/webinar", {"eventId": str(e1.pk)})
    assert response.status_code == 400
    assert response.json()["field"] == "eventId"


def test_no_webinar_ever_recorded(ws, client_for):
    body = client_for(ws).get("/api/v1/webinar", MARCH).json()
    assert body["data"]["registrations"]["value"] == 0
    assert body["data"]["attendance_rate"]["unavailable"]["code"] == "empty-denominator"
    assert {
        "subject": "webinar",
        "code": "no-data-source",
        "reason": "No webinar event has ever been recorded here.",
    } in body["notes"]
