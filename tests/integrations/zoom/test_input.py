"""What a Zoom delivery may carry without a server error."""

import json

import pytest
from django.test import Client

from integrations import services
from integrations.models import Event

from .conftest import SECRET_TOKEN, participant, zoom_headers

pytestmark = pytest.mark.django_db


def test_a_body_that_is_a_string_is_refused(school):
    body = json.dumps("webinar.participant_joined")
    answer = Client().post(
        f"/hooks/zoom/{school.connection.pk}",
        data=body,
        content_type="application/json",
        headers=zoom_headers(body, SECRET_TOKEN),
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    assert Event.objects.count() == 0


@pytest.mark.parametrize("event", ["endpoint.url_validation", "webinar.participant_joined"])
def test_a_payload_member_that_is_a_string_is_no_server_error(school, zoom_deliver, event):
    answer = zoom_deliver(school.connection, {"event": event, "event_ts": 1, "payload": "x"})
    assert answer.status_code in {200, 400}
    services.events_apply(connection_id=school.connection.pk)
    assert all(state != "received" for state in Event.objects.values_list("state", flat=True))


@pytest.mark.parametrize("event_ts", [10**30, 1e30])
def test_an_event_time_outside_the_calendar_is_stored_without_a_time(
    school, zoom_deliver, event_ts
):
    payload = participant("joined", "2026-03-10 18:00", "pat@example.test", "Pat", "p1")
    payload["event_ts"] = event_ts
    answer = zoom_deliver(school.connection, payload)
    assert answer.status_code == 200
    stored = Event.objects.get()
    assert stored.occurred_at is None
    services.events_apply(connection_id=school.connection.pk)
    assert Event.objects.get().state in {"applied", "held", "ignored"}
