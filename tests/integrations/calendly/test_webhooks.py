"""Calendly's signature: what the endpoint refuses, storing nothing."""

import json
import time

import pytest

from integrations.models import Connection, Event
from workspaces.models import Call, Lead

from .conftest import KEY, OTHER_KEY, calendly_connection, delivery, invitee, sign

pytestmark = pytest.mark.django_db


def booking():
    return delivery(
        "invitee.created",
        invitee(
            "EV1",
            "I1",
            email="pat@example.test",
            name="Pat",
            created="2026-03-02 09:00",
            start="2026-03-10 15:00",
        ),
        "2026-03-02 09:00",
    )


def nothing_stored(connection, refused):
    connection = Connection.objects.get(pk=connection.pk)
    assert (Event.objects.count(), Lead.objects.count(), Call.objects.count()) == (0, 0, 0)
    assert (connection.events_received, connection.events_refused) == (0, refused)


def test_a_signed_delivery_is_accepted(team, send):
    team = team()
    assert send(team.connection, booking()).json() == {"received": True}
    assert Call.objects.count() == 1


@pytest.mark.parametrize(
    "header, reason, message",
    [
        (
            False,
            "invalid_signature",
            "The Calendly-Webhook-Signature header is missing or is not t=<time>,v1=<signature>.",
        ),
        (
            "v1=abc,t=1",
            "invalid_signature",
            "The Calendly-Webhook-Signature header is missing or is not t=<time>,v1=<signature>.",
        ),
        (
            f"t={int(time.time())},v1={'0' * 64}",
            "invalid_signature",
            "The Calendly-Webhook-Signature header does not match this connection's signing key.",
        ),
    ],
    ids=["missing", "malformed", "wrong"],
)
def test_a_missing_malformed_or_wrong_signature_is_refused(team, send, header, reason, message):
    team = team()
    answer = send(team.connection, booking(), header=header)
    assert answer.status_code == 400
    assert answer.json() == {"error": {"reason": reason, "message": message}}
    nothing_stored(team.connection, refused=1)


def test_another_connections_key_is_refused(team, make_workspace, send):
    team = team()
    calendly_connection(make_workspace(), key=OTHER_KEY)
    answer = send(team.connection, booking(), key=OTHER_KEY)
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_signature"
    nothing_stored(team.connection, refused=1)


def test_a_stale_timestamp_is_refused(team, send):
    team = team()
    # Four minutes old: more than Calendly's three minutes.
    answer = send(team.connection, booking(), timestamp=int(time.time()) - 240)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": {
            "reason": "stale_signature",
            "message": "The Calendly-Webhook-Signature timestamp is more than 180 seconds "
            "away from now; Calendly retries with a fresh one.",
        }
    }
    nothing_stored(team.connection, refused=1)


def test_a_body_changed_after_signing_is_refused(team, send):
    team = team()
    body = json.dumps(booking())
    header = sign(body, KEY)
    tampered = booking()
    tampered["payload"]["email"] = "mallory@example.test"
    answer = send(team.connection, tampered, header=header)
    assert answer.json()["error"]["reason"] == "invalid_signature"
    nothing_stored(team.connection, refused=1)


def test_a_delivery_without_its_uri_or_time_is_refused(team, send):
    team = team()
    answer = send(team.connection, {"event": "invitee.created", "payload": {}})
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    nothing_stored(team.connection, refused=1)
