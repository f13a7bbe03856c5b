"""Zoom's endpoint: the signature and its timestamp, and the URL-validation challenge."""

import hashlib
import hmac
import json
import time

import pytest
from prometheus_client import REGISTRY

from integrations.models import Connection, Event
from workspaces.models import Registration

from .conftest import OTHER_TOKEN, SECRET_TOKEN, participant, registered, zoom_headers

pytestmark = pytest.mark.django_db


def signup():
    return registered("2026-03-02 10:00", "pat@example.test", "Pat", "Lee", "reg-pat")


def nothing_stored(refused):
    assert Event.objects.count() == 0
    assert Registration.objects.count() == 0
    assert Connection.objects.get().events_refused == refused


def test_a_wrong_secret_is_refused_and_nothing_is_stored(school, zoom_deliver):
    answer = zoom_deliver(school.connection, signup(), secret=OTHER_TOKEN)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": {
            "reason": "invalid_signature",
            "message": "The x-zm-signature header does not match this endpoint's secret token.",
        }
    }
    nothing_stored(refused=1)


def test_missing_headers_and_a_changed_body_are_refused(school, zoom_deliver):
    answer = zoom_deliver(school.connection, signup(), headers={})
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "invalid_signature",
        "message": "The x-zm-signature or x-zm-request-timestamp header is missing.",
    }
    body = json.dumps(signup())
    headers = zoom_headers(body.replace("Pat", "Pam"), SECRET_TOKEN)
    answer = zoom_deliver(school.connection, signup(), headers=headers)
    assert answer.json()["error"]["reason"] == "invalid_signature"
    nothing_stored(refused=2)


# 20 s past the limit: the request's own time (a second of truncation, a slow machine)
# never brings a future timestamp back inside it.
@pytest.mark.parametrize("offset", [-320, 320])
def test_a_timestamp_more_than_five_minutes_away_is_stale(school, zoom_deliver, offset):
    answer = zoom_deliver(school.connection, signup(), timestamp=int(time.time()) + offset)
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "stale_signature"
    nothing_stored(refused=1)


def test_a_timestamp_within_five_minutes_is_accepted(school, zoom_deliver):
    answer = zoom_deliver(school.connection, signup(), timestamp=int(time.time()) - 240)
    assert answer.status_code == 200
    assert Registration.objects.count() == 1


def test_the_url_validation_challenge_is_answered_and_stores_nothing(school, zoom_deliver):
    challenge = {
        "payload": {"plainToken": "qgg8vlvZRS6UYooatFL8Aw"},
        "event_ts": 1654503849680,
        "event": "endpoint.url_validation",
    }

    def counted():
        return [
            REGISTRY.get_sample_value(
                "webhook_deliveries_total", {"provider": "zoom", "outcome": outcome}
            )
            or 0
            for outcome in ("received", "duplicate", "refused")
        ]

    before = counted()
    answer = zoom_deliver(school.connection, challenge)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    # A challenge is no delivery: the metrics count nothing for it.
    assert counted() == before
    expected = hmac.new(SECRET_TOKEN.encode(), b"qgg8vlvZRS6UYooatFL8Aw", hashlib.sha256)
    assert answer.json() == {
        "plainToken": "qgg8vlvZRS6UYooatFL8Aw",
        "encryptedToken": expected.hexdigest(),
    }
    nothing_stored(refused=0)
    assert Connection.objects.get().events_received == 0


def test_an_unsigned_challenge_is_refused(school, zoom_deliver):
    challenge = {"payload": {"plainToken": "abc"}, "event": "endpoint.url_validation"}
    answer = zoom_deliver(school.connection, challenge, secret=OTHER_TOKEN)
    assert answer.status_code == 400
    assert "encryptedToken" not in answer.content.decode()
    nothing_stored(refused=1)


def test_two_participants_joining_at_the_same_moment_are_two_events(school, zoom_deliver):
    for email, who in (("ann@example.test", "p-ann"), ("bo@example.test", "p-bo")):
        answer = zoom_deliver(
            school.connection, participant("joined", "2026-03-05 17:01", email, who, who)
        )
        assert answer.json() == {"received": True}
    assert Event.objects.count() == 2
    assert Registration.objects.filter(joined_at__isnull=False).count() == 2
