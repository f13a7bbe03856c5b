"""A workspace with a Zoom connection, and Zoom deliveries in Zoom's documented shapes,
signed the way Zoom signs them:
`x-zm-signature: v0=<hex HMAC-SHA256(secret token, "v0:<x-zm-request-timestamp>:<body>")>`."""

import hashlib
import hmac
import json
import time
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test import Client

from audit.services import SYSTEM
from integrations import services

ACCOUNT_ID = "lAAAAAAAAAAAAA"
CLIENT_ID = "zoomClientId123"
CLIENT_SECRET = "zoomClientSecret0123456789abcdef"
SECRET_TOKEN = "zoomWebhookSecretToken42"
OTHER_TOKEN = "someOtherSecretToken0000"
WEBINAR_ID = 88812345678
WEBINAR_UUID = "4444AAAiAAAAAiAiAiiAii=="
START = "2026-03-05T17:00:00Z"


def ms(text: str) -> int:
    """'2026-03-05 17:02' (UTC) as Zoom's event_ts, in milliseconds."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()) * 1000


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def iso(text: str) -> str:
    return utc(text).strftime("%Y-%m-%dT%H:%M:%SZ")


def zoom_headers(body: str, secret: str, timestamp: int | None = None) -> dict:
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256)
    return {
        "x-zm-signature": f"v0={digest.hexdigest()}",
        "x-zm-request-timestamp": str(timestamp),
    }


def webinar(topic="Scale your offer", start=START, **extra):
    return {
        "uuid": WEBINAR_UUID,
        "id": WEBINAR_ID,
        "host_id": "z8yCxjabcdEFGHfp8uQ",
        "topic": topic,
        "type": 5,
        "start_time": start,
        "duration": 90,
        "timezone": "America/New_York",
        **extra,
    }


def created(sent, **fields):
    return {
        "event": "webinar.created",
        "event_ts": ms(sent),
        "payload": {
            "account_id": ACCOUNT_ID,
            "operator": "host@example.test",
            "operator_id": "z8yCxjabcdEFGHfp8uQ",
            "object": webinar(**fields),
        },
    }


def updated(sent, **changes):
    return {
        "event": "webinar.updated",
        "event_ts": ms(sent),
        "payload": {
            "account_id": ACCOUNT_ID,
            "operator": "host@example.test",
            "operator_id": "z8yCxjabcdEFGHfp8uQ",
            "time_stamp": ms(sent),
            "object": {"id": WEBINAR_ID, **changes},
            "old_object": {"id": WEBINAR_ID},
        },
    }


def registered(sent, email, first, last, registrant_id):
    return {
        "event": "webinar.registration_created",
        "event_ts": ms(sent),
        "payload": {
            "account_id": ACCOUNT_ID,
            "object": {
                **webinar(),
                "id": WEBINAR_ID,
                "registrant": {
                    "id": registrant_id,
                    "first_name": first,
                    "last_name": last,
                    "email": email,
                    "status": "approved",
                    "join_url": f"https://example.zoom.us/w/{WEBINAR_ID}?tk={registrant_id}",
                },
            },
        },
    }


def participant(kind, at, email, name, participant_id, *, sent=None):
    """webinar.participant_joined (kind "joined") or webinar.participant_left ("left") at
    `at`; Zoom sends it a moment later (`sent`)."""
    person = {
        "user_id": "16778240",
        "user_name": name,
        "id": participant_id,
        "participant_uuid": f"{participant_id}-{kind}-{at}",
        "email": email,
        "registrant_id": "",
        "participant_user_id": "",
    }
    person["join_time" if kind == "joined" else "leave_time"] = iso(at)
    if kind == "left":
        person["leave_reason"] = "left the webinar."
    return {
        "event": f"webinar.participant_{kind}",
        "event_ts": ms(sent or at) + 512,
        "payload": {
            "account_id": ACCOUNT_ID,
            "object": {**webinar(), "id": str(WEBINAR_ID), "participant": person},
        },
    }


def zoom_connection(workspace, secret=SECRET_TOKEN):
    return services.connection_create(
        workspace=workspace,
        provider="zoom",
        credentials={
            "account_id": ACCOUNT_ID,
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "webhook_secret_token": secret,
        },
        actor=SYSTEM,
    )


@pytest.fixture
def zoom_deliver(committed):
    """zoom_deliver(connection, payload, secret=..., timestamp=..., headers=...) -> response,
    the apply task run as once the delivery's transaction commits."""
    client = Client()

    def post(connection, payload, *, secret=SECRET_TOKEN, timestamp=None, headers=None):
        body = json.dumps(payload)
        with committed():
            return client.post(
                f"/hooks/zoom/{connection.pk}",
                data=body,
                content_type="application/json",
                headers=zoom_headers(body, secret, timestamp) if headers is None else headers,
            )

    return post


@pytest.fixture
def school(make_workspace, make_member, workspace_token, api):
    """A UTC workspace that runs webinars, with a manager, a closer and a Zoom connection."""
    ws = make_workspace(currency="USD", timezone="UTC")
    return SimpleNamespace(
        ws=ws,
        manager=make_member(ws, "manager", name="Mia", email="mia@example.test"),
        closer=make_member(ws, "closer", name="Cole", email="cole@example.test"),
        connection=zoom_connection(ws),
        reader=api(workspace_token(ws)),
    )
