"""A workspace with a Calendly connection, and Calendly deliveries signed the way Calendly
signs them: `Calendly-Webhook-Signature: t=<unix time>,v1=<hex HMAC-SHA256(signing key,
"<t>.<body>")>`, in the shapes of Calendly's webhooks v2."""

import hashlib
import hmac
import json
import time
from types import SimpleNamespace

import pytest
from django.test import Client

from audit.services import SYSTEM
from integrations import services

TOKEN = "eyJraWQiOiIxIn0.eyJpc3MiOiJodHRwczovL2F1dGguY2FsZW5kbHkuY29tIn0.c2lnbmF0dXJl"
KEY = "calendly-signing-key-0123456789"
OTHER_KEY = "another-signing-key-9876543210"
API = "https://api.calendly.com"
USER = f"{API}/users/UADA"
ORGANIZATION = f"{API}/organizations/ORG1"


def sign(body: str, key: str, timestamp: int | None = None) -> str:
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(key.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def iso(text: str) -> str:
    """'2026-03-02 09:00' (UTC) as Calendly writes times."""
    return text.replace(" ", "T") + ":00.000000Z"


def scheduled_event(event_id, start, *, host="ada@example.test", status="active"):
    return {
        "uri": f"{API}/scheduled_events/{event_id}",
        "name": "Strategy call",
        "status": status,
        "start_time": iso(start),
        "end_time": iso(start)[:-13] + "45:00.000000Z",
        "event_type": f"{API}/event_types/ET1",
        "location": {"type": "zoom", "join_url": "https://zoom.example.test/j/1"},
        "invitees_counter": {"total": 1, "active": 1 if status == "active" else 0, "limit": 1},
        "created_at": iso("2026-02-01 00:00"),
        "updated_at": iso("2026-02-01 00:00"),
        "event_memberships": [
            {"user": USER, "user_email": host, "user_name": host.split("@")[0].title()}
        ],
        "event_guests": [],
    }


def invitee(
    event_id,
    invitee_id,
    *,
    email,
    name,
    created,
    start,
    host="ada@example.test",
    status="active",
    rescheduled=False,
    old=None,
    new=None,
    tracking=None,
    canceled_at=None,
    no_show=None,
):
    uri = f"{API}/scheduled_events/{event_id}/invitees/{invitee_id}"
    return {
        "uri": uri,
        "email": email,
        "name": name,
        "first_name": None,
        "last_name": None,
        "status": status,
        "timezone": "Europe/London",
        "event": f"{API}/scheduled_events/{event_id}",
        "created_at": iso(created),
        "updated_at": iso(canceled_at or created),
        "questions_and_answers": [],
        "tracking": {
            "utm_campaign": None,
            "utm_source": None,
            "utm_medium": None,
            "utm_content": None,
            "utm_term": None,
            "salesforce_uuid": None,
            **(tracking or {}),
        },
        "text_reminder_number": None,
        "rescheduled": rescheduled,
        "old_invitee": old,
        "new_invitee": new,
        "cancel_url": f"https://calendly.com/cancellations/{invitee_id}",
        "reschedule_url": f"https://calendly.com/reschedulings/{invitee_id}",
        "routing_form_submission": None,
        "cancellation": {
            "canceled_by": name,
            "reason": "rescheduled" if rescheduled else "Cannot make it",
            "canceler_type": "invitee",
            "created_at": iso(canceled_at),
        }
        if canceled_at
        else None,
        "payment": None,
        "no_show": no_show,
        "reconfirmation": None,
        "scheduling_method": None,
        "invitee_scheduled_by": None,
        "scheduled_event": scheduled_event(event_id, start, host=host),
    }


def uri(event_id, invitee_id):
    return f"{API}/scheduled_events/{event_id}/invitees/{invitee_id}"


def delivery(event, body, sent):
    return {"created_at": iso(sent), "created_by": USER, "event": event, "payload": body}


def no_show(mark_id, invitee_uri, created):
    return {
        "uri": f"{API}/invitee_no_shows/{mark_id}",
        "invitee": invitee_uri,
        "created_at": iso(created),
    }


def calendly_connection(workspace, key=KEY):
    credentials = {"personal_access_token": TOKEN}
    if key:
        credentials["webhook_signing_key"] = key
    return services.connection_create(
        workspace=workspace, provider="calendly", credentials=credentials, actor=SYSTEM
    )


@pytest.fixture
def send(committed):
    """send(connection, payload, key=..., timestamp=..., header=...) -> response, the apply
    task run as it would be once the delivery's transaction commits."""
    client = Client()

    def post(connection, payload, *, key=KEY, timestamp=None, header=None):
        body = json.dumps(payload)
        headers = {}
        if header is not False:
            headers["Calendly-Webhook-Signature"] = header or sign(body, key, timestamp)
        with committed():
            return client.post(
                f"/hooks/calendly/{connection.pk}",
                data=body,
                content_type="application/json",
                headers=headers,
            )

    return post


@pytest.fixture
def team(make_workspace, make_member, workspace_token, api):
    """A USD workspace in UTC: Ada closes, Sam sets; a Calendly connection."""

    def make():
        ws = make_workspace(currency="USD", timezone="UTC")
        ada = make_member(ws, "closer", name="Ada", email="ada@example.test")
        sam = make_member(ws, "setter", name="Sam", email="sam@example.test")
        return SimpleNamespace(
            ws=ws,
            ada=ada,
            sam=sam,
            connection=calendly_connection(ws),
            reader=api(workspace_token(ws)),
        )

    return make
