"""The deliveries bench/webhooks.py times for each provider other than Stripe's charges,
each signed as the provider signs it, with what they need made first and what their run
removes: Zoom's participants of one webinar, Stripe's refunds, lost disputes and charges
naming their sale, Calendly's invitees booked then cancelled, and HubSpot's contacts,
read from a local fake of HubSpot's API.
"""

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from webhooks_common import (
    ALPHANUMERIC,
    AMOUNT,
    ZOOM_JOINED,
    ZOOM_LEFT,
    connection_create,
    connection_forget,
    random_text,
    sign,
)

from scripts.served import HOST

# --- Zoom: one webinar, its registrants, their joins and leaves -----------------------------


def zoom_connection_make(workspace_id: str):
    """A Zoom connection made by the service, with a webhook secret token of its own; its
    account ID too (the deliveries carry it)."""
    secret = random_text(32)
    account_id = random_text(22, ALPHANUMERIC + "-_")
    credentials = {
        "account_id": account_id,
        "client_id": random_text(22),
        "client_secret": random_text(32),
        "webhook_secret_token": secret,
    }
    return connection_create(workspace_id, "zoom", credentials), secret, account_id


def zoom_headers(body: bytes, secret: str) -> dict:
    """Signed now, as Zoom signs: v0=HMAC-SHA256(secret token, "v0:{timestamp}:{body}")."""
    timestamp = str(int(time.time()))
    message = b"v0:" + timestamp.encode() + b":" + body
    digest = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return {"x-zm-signature": f"v0={digest}", "x-zm-request-timestamp": timestamp}


def attendees_pick(workspace_id: str, count: int) -> list[tuple[str, str]]:
    """(email, name) of `count` leads of the workspace, by id, with distinct emails: each
    registration finds its lead by email, so no lead is made."""
    from workspaces.models import Lead

    rows = (
        Lead.objects.filter(workspace_id=workspace_id)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", "name")[: count * 2]
    )
    picked = {}
    for email, name in rows:
        picked.setdefault(email.strip().lower(), name)
        if len(picked) == count:
            return list(picked.items())
    raise SystemExit(
        f"The workspace has {len(picked):,} leads with distinct emails among the "
        f"first {count * 2:,}; --attendees {count:,} needs that many."
    )


def _zoom_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def zoom_webinar(workspace_id: str, run: str) -> dict:
    """Zoom's webinar object for a webinar new to the workspace, which started 75 minutes
    ago and lasts an hour."""
    from workspaces.models import WebinarEvent

    while True:
        webinar_id = 80_000_000_000 + secrets.randbelow(10**10)
        known = WebinarEvent.objects.filter(workspace_id=workspace_id, external_id=str(webinar_id))
        if not known.exists():
            break
    start = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=75)
    return {
        "uuid": base64.b64encode(secrets.token_bytes(16)).decode(),
        "id": webinar_id,
        "host_id": random_text(22),
        "topic": f"Benchmark webinar {run}",
        "type": 5,
        "start_time": _zoom_time(start),
        "duration": 60,
        "timezone": "UTC",
    }


def _zoom_body(event_type: str, sent: datetime, account_id: str, obj: dict, **extra) -> bytes:
    payload = {"account_id": account_id, **extra, "object": obj}
    # Zoom sends an event a moment after it happened.
    return json.dumps(
        {"event": event_type, "event_ts": _ms(sent) + 350, "payload": payload}
    ).encode()


class Attendee:
    """One registrant: their ids at Zoom and their times."""

    def __init__(self, i: int, count: int, email: str, name: str, start: datetime):
        self.email, self.name = email, name
        self.registrant_id = random_text(22, ALPHANUMERIC + "-_")
        self.participant_id = random_text(22)
        self.participant_uuid = str(uuid.uuid4()).upper()
        self.user_id = str(16_778_240 + i)
        # Registered over the week before; all join within five minutes of the start (two
        # early), and leave an hour later.
        self.registered = start - timedelta(days=7) + (timedelta(days=7, hours=-1) * i) / count
        self.joined = start - timedelta(minutes=2) + (timedelta(minutes=5) * i) / count
        self.left = self.joined + timedelta(hours=1)


def zoom_setup_bodies(webinar: dict, attendees: list, account_id: str) -> list[bytes]:
    """webinar.created, then one webinar.registration_created per attendee."""
    start = datetime.fromisoformat(webinar["start_time"])
    created = start - timedelta(days=8)
    host = {"operator": "host@example.test", "operator_id": webinar["host_id"]}
    bodies = [_zoom_body("webinar.created", created, account_id, webinar, **host)]
    for person in attendees:
        first, _, last = person.name.partition(" ")
        registrant = {
            "id": person.registrant_id,
            "first_name": first,
            "last_name": last,
            "email": person.email,
            "status": "approved",
            "join_url": f"https://zoom.us/w/{webinar['id']}?tk={person.registrant_id}",
        }
        obj = {**webinar, "registrant": registrant}
        bodies.append(
            _zoom_body("webinar.registration_created", person.registered, account_id, obj)
        )
    return bodies


def zoom_participant_bodies(webinar: dict, attendees: list, account_id: str) -> list[bytes]:
    """One webinar.participant_joined per attendee, then one webinar.participant_left each,
    in Zoom's documented shape (the webinar's id a string, as these events carry it)."""
    bodies = {ZOOM_JOINED: [], ZOOM_LEFT: []}
    for person in attendees:
        participant = {
            "user_id": person.user_id,
            "user_name": person.name,
            "id": person.participant_id,
            "participant_uuid": person.participant_uuid,
            "email": person.email,
            "registrant_id": person.registrant_id,
            "participant_user_id": "",
            "customer_key": "",
            "phone_number": "",
        }
        for event_type, at, extra in (
            (ZOOM_JOINED, person.joined, {"join_time": _zoom_time(person.joined)}),
            (
                ZOOM_LEFT,
                person.left,
                {"leave_time": _zoom_time(person.left), "leave_reason": "left the webinar."},
            ),
        ):
            obj = {**webinar, "id": str(webinar["id"]), "participant": {**participant, **extra}}
            bodies[event_type].append(_zoom_body(event_type, at, account_id, obj))
    return bodies[ZOOM_JOINED] + bodies[ZOOM_LEFT]


def zoom_setup(connection, secret: str, webinar: dict, bodies: list[bytes]) -> dict:
    """The webinar and its registrations, made before any timing as Zoom's deliveries make
    them (in_process_apply)."""
    from workspaces.models import Registration

    setup = in_process_apply(
        connection, f"/hooks/zoom/{connection.pk}", bodies, lambda body: zoom_headers(body, secret)
    )
    registrations = Registration.objects.filter(
        workspace_id=connection.workspace_id, event__external_id=str(webinar["id"])
    )
    return {
        "webinar": webinar["id"],
        "registrations": registrations.count(),
        "leads_made": registrations.filter(lead__external_id__startswith="zoom:").count(),
        **setup,
    }


def zoom_counts(workspace_id: str) -> dict:
    """What a Zoom run must leave as it found it."""
    from audit.models import AuditEvent
    from integrations.models import Connection, Event
    from workspaces.models import Lead, Registration, WebinarEvent

    registrations = Registration.objects.filter(workspace_id=workspace_id)
    return {
        "leads": Lead.objects.filter(workspace_id=workspace_id).count(),
        "webinar_events": WebinarEvent.objects.filter(workspace_id=workspace_id).count(),
        "registrations": registrations.count(),
        "registrations_booked_after": registrations.filter(booked_after=True).count(),
        "connections": Connection.objects.count(),
        "events": Event.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


def zoom_cleanup(connection) -> dict:
    """Delete, in one transaction, what a Zoom run added: the registrations and webinar
    events of the webinars its events name, the leads its mapping made (`zoom:<email>`), its
    connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.models import Lead, Registration, WebinarEvent

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        # A webinar's events name it; a person's, "<webinar>|<email>".
        objects = set(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
            .distinct()
        )
        webinar_ids = {item.split("|", 1)[0] for item in objects}
        made = [f"zoom:{item.split('|', 1)[1]}" for item in objects if "|" in item]
        webinars = WebinarEvent.objects.filter(workspace=workspace, external_id__in=webinar_ids)
        registrations, _ = Registration.objects.filter(event__in=webinars).delete()
        webinar_events, _ = webinars.delete()
        _, leads = Lead.objects.filter(workspace=workspace, external_id__in=made).delete()
        events, audits = connection_forget(connection)
    return {
        "registrations": registrations,
        "webinar_events": webinar_events,
        "leads": leads.get("workspaces.Lead", 0),
        "events": events,
        "audit_events": audits,
    }


# --- Stripe: refunds, lost disputes and charges naming their sale ----------------------------


def in_process_apply(connection, path: str, bodies: list[bytes], headers: Callable) -> dict:
    """Post each body signed through the endpoint in this process (Django's test client, no
    server), then apply the stored events here as the worker's task applies them: the
    records a timed run starts from, made as the provider's deliveries make them."""
    from django.db.models import Count
    from django.test import Client

    from integrations import services
    from integrations.models import Event

    client = Client(HTTP_HOST=HOST)
    began = time.perf_counter()
    for body in bodies:
        answer = client.post(path, body, content_type="application/json", headers=headers(body))
        if answer.status_code != 200 or answer.json() != {"received": True}:
            raise SystemExit(f"The endpoint answered {answer.status_code}: {answer.content[:300]}")
    delivered = time.perf_counter() - began
    began = time.perf_counter()
    taken = services.events_apply(connection_id=connection.pk)
    applied = time.perf_counter() - began
    states = dict(
        Event.objects.filter(connection=connection)
        .values("state")
        .annotate(n=Count("pk"))
        .values_list("state", "n")
    )
    if states != {"applied": len(bodies)}:
        raise SystemExit(f"The setup's deliveries were not all applied: {states}")
    return {
        "deliveries": len(bodies),
        "seconds_delivering": round(delivered, 3),
        "seconds_applying": round(applied, 3),
        "applied_per_second": taken / applied if applied else 0.0,
    }


def _stripe_event(event_id: str, event_type: str, obj: dict, created: int) -> bytes:
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "api_version": "2024-06-20",
            "created": created,
            "type": event_type,
            "livemode": False,
            "data": {"object": obj},
        }
    ).encode()


def refund_bodies(count: int, run: str, kind: str) -> list[bytes]:
    """One `refund.created` (half the charge) or one lost `charge.dispute.closed` (all of
    it) per charge of the setup (deliveries_make's ids)."""
    now = int(time.time())
    bodies = []
    for i in range(count):
        charge_id = f"ch_bench{run}{i:06d}"
        if kind == "refund":
            refund = {
                "id": f"re_bench{run}{i:06d}",
                "object": "refund",
                "amount": AMOUNT // 2,
                "charge": charge_id,
                "currency": "usd",
                "created": now,
                "status": "succeeded",
                "reason": "requested_by_customer",
                "metadata": {},
            }
            bodies.append(_stripe_event(f"evt_benchre{run}{i:06d}", "refund.created", refund, now))
        else:
            dispute = {
                "id": f"dp_bench{run}{i:06d}",
                "object": "dispute",
                "amount": AMOUNT,
                "charge": charge_id,
                "currency": "usd",
                "created": now - 86400,
                "status": "lost",
                "reason": "fraudulent",
                "metadata": {},
            }
            bodies.append(
                _stripe_event(f"evt_benchdp{run}{i:06d}", "charge.dispute.closed", dispute, now)
            )
    return bodies


def sales_pick(workspace_id: str, count: int) -> list[tuple[str, str]]:
    """(sale id, lead email) of sales with an unpaid balance, each once; repeated in turn
    when there are fewer."""
    from django.db.models import F

    from workspaces.models import Sale

    rows = list(
        Sale.objects.filter(workspace_id=workspace_id, cash_collected__lt=F("contract_value"))
        .order_by("pk")
        .values_list("pk", "lead__email")[:count]
    )
    if not rows:
        raise SystemExit("The workspace has no sale with an unpaid balance.")
    return [(str(rows[i % len(rows)][0]), rows[i % len(rows)][1]) for i in range(count)]


def named_bodies(sales: list[tuple[str, str]], run: str) -> list[bytes]:
    """`charge.succeeded` naming its sale in the metadata (`sale_id`, the sale's id)."""
    now = int(time.time())
    bodies = []
    for i, (sale_id, email) in enumerate(sales):
        charge = {
            "id": f"ch_benchnm{run}{i:06d}",
            "object": "charge",
            "amount": AMOUNT,
            "currency": "usd",
            "created": now,
            "status": "succeeded",
            "paid": True,
            "billing_details": {"email": email, "name": None},
            "receipt_email": email,
            "customer": None,
            "metadata": {"sale_id": sale_id},
            "refunded": False,
            "amount_refunded": 0,
            "refunds": {"object": "list", "data": []},
        }
        bodies.append(_stripe_event(f"evt_benchnm{run}{i:06d}", "charge.succeeded", charge, now))
    return bodies


# --- Calendly: invitees booked, then cancelled ---------------------------------------------------


def calendly_connection_make(workspace_id: str):
    """A Calendly connection made by the service with a webhook signing key of its own (so
    it subscribes to nothing at Calendly)."""
    secret = random_text(40)
    part = lambda n: random_text(n, ALPHANUMERIC + "-_")  # noqa: E731
    token = f"eyJ{part(30)}.{part(60)}.{part(40)}"
    credentials = {"personal_access_token": token, "webhook_signing_key": secret}
    return connection_create(workspace_id, "calendly", credentials), secret


def calendly_headers(body: bytes, secret: str) -> dict:
    """Signed now, as Calendly signs: t=<time>,v1=HMAC-SHA256(signing key, "t.body")."""
    return {"Calendly-Webhook-Signature": sign(body, secret)}


def closer_email(workspace_id: str) -> str:
    from workspaces.models import Member

    email = (
        Member.objects.filter(workspace_id=workspace_id, role="closer")
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)
        .first()
    )
    return email or "host@example.test"


def calendly_bodies(attendees: list[tuple[str, str]], host: str, run: str) -> list[bytes]:
    """Per person one `invitee.created` (an existing lead's email, a call two days ahead),
    then one `invitee.canceled` each, in Calendly's webhook shape (v2)."""
    api = "https://api.calendly.com"
    now = datetime.now(UTC).replace(microsecond=0)
    created, cancelled = [], []
    for i, (email, name) in enumerate(attendees):
        event_uri = f"{api}/scheduled_events/BENCH{run}{i:06d}"
        start = now + timedelta(days=2, minutes=30 * (i % 40))
        booked = now - timedelta(seconds=5)
        invitee = {
            "uri": f"{event_uri}/invitees/INV{run}{i:06d}",
            "email": email,
            "name": name,
            "first_name": None,
            "last_name": None,
            "status": "active",
            "timezone": "UTC",
            "questions_and_answers": [],
            "created_at": booked.isoformat().replace("+00:00", ".000000Z"),
            "updated_at": booked.isoformat().replace("+00:00", ".000000Z"),
            "rescheduled": False,
            "old_invitee": None,
            "new_invitee": None,
            "cancel_url": f"https://calendly.com/cancellations/INV{run}{i:06d}",
            "reschedule_url": f"https://calendly.com/reschedulings/INV{run}{i:06d}",
            "tracking": {
                "utm_source": None,
                "utm_medium": None,
                "utm_campaign": None,
                "utm_content": None,
                "utm_term": None,
                "salesforce_uuid": None,
            },
            "no_show": None,
            "reconfirmation": None,
            "payment": None,
            "scheduled_event": {
                "uri": event_uri,
                "name": "Sales call",
                "status": "active",
                "start_time": start.isoformat().replace("+00:00", ".000000Z"),
                "end_time": (start + timedelta(minutes=30))
                .isoformat()
                .replace("+00:00", ".000000Z"),
                "event_type": f"{api}/event_types/BENCH",
                "location": {"type": "zoom"},
                "event_memberships": [{"user": f"{api}/users/BENCHHOST", "user_email": host}],
            },
        }
        sent = now.isoformat().replace("+00:00", ".000000Z")
        created.append(
            json.dumps(
                {
                    "event": "invitee.created",
                    "created_at": sent,
                    "created_by": f"{api}/users/BENCHHOST",
                    "payload": invitee,
                }
            ).encode()
        )
        gone = {
            **invitee,
            "status": "canceled",
            "cancellation": {"canceled_by": name, "reason": "", "canceler_type": "invitee"},
        }
        later = (now + timedelta(seconds=1)).isoformat().replace("+00:00", ".000000Z")
        cancelled.append(
            json.dumps(
                {
                    "event": "invitee.canceled",
                    "created_at": later,
                    "created_by": f"{api}/users/BENCHHOST",
                    "payload": gone,
                }
            ).encode()
        )
    return created + cancelled


def calendly_counts(workspace_id: str) -> dict:
    """What a Calendly run must leave as it found it."""
    from audit.models import AuditEvent
    from integrations.models import Connection, Event
    from workspaces.models import Call, Lead, Registration

    return {
        "leads": Lead.objects.filter(workspace_id=workspace_id).count(),
        "calls": Call.objects.filter(workspace_id=workspace_id).count(),
        "calls_replaced": Call.objects.filter(workspace_id=workspace_id, replaced=True).count(),
        "registrations_booked_after": Registration.objects.filter(
            workspace_id=workspace_id, booked_after=True
        ).count(),
        "connections": Connection.objects.count(),
        "events": Event.objects.count(),
        "audit_events": AuditEvent.objects.count(),
    }


def calendly_cleanup(connection) -> dict:
    """Delete, in one transaction, what a Calendly run added: the calls of the invitees its
    events name (their leads' registrations' booked-after refreshed), the leads its mapping
    made (`calendly:<email>`, none expected), its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.kept import calls_replaced_refresh, registrations_booked_refresh
    from workspaces.models import Call, Lead

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        events = Event.objects.filter(connection=connection)
        uris = set(events.exclude(object_id="").values_list("object_id", flat=True).distinct())
        emails = {
            str(((p or {}).get("payload") or {}).get("email") or "").strip().lower()
            for p in events.values_list("payload", flat=True)
        }
        calls = Call.objects.filter(workspace=workspace, external_id__in=uris)
        lead_ids = set(calls.values_list("lead_id", flat=True))
        removed, _ = calls.delete()
        made = Lead.objects.filter(
            workspace=workspace, external_id__in=[f"calendly:{e}" for e in emails if e]
        )
        _, leads = made.delete()
        registrations_booked_refresh(workspace=workspace, lead_ids=lead_ids)
        calls_replaced_refresh(workspace=workspace)
        events_count, audits = connection_forget(connection)
    return {
        "calls": removed,
        "leads": leads.get("workspaces.Lead", 0),
        "events": events_count,
        "audit_events": audits,
    }


# --- HubSpot: contacts created, read from a local fake of HubSpot's API ----------------------


def hubspot_connection_make(workspace_id: str):
    """A HubSpot connection made by the service; its app client secret signs the deliveries."""
    secret = str(uuid.uuid4())
    token = f"pat-na1-{uuid.uuid4()}"
    credentials = {"access_token": token, "client_secret": secret}
    return connection_create(workspace_id, "hubspot", credentials), secret


def hubspot_headers(body: bytes, secret: str, uri: str) -> dict:
    """Signed now, as HubSpot signs (v3): base64(HMAC-SHA256(client secret, "POST" + URI +
    body + timestamp in ms))."""
    timestamp = str(int(time.time() * 1000))
    message = b"POST" + uri.encode() + body + timestamp.encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return {
        "X-HubSpot-Signature-v3": base64.b64encode(digest).decode(),
        "X-HubSpot-Request-Timestamp": timestamp,
    }


class FakeHubSpot:
    """HubSpot's contacts batch read (`POST /crm/v3/objects/contacts/batch/read`), served
    on 127.0.0.1 from a thread of this process, for the contacts of the run: the worker's
    HUBSPOT_API_BASE points here, so no request leaves the machine."""

    def __init__(self, port: int, contacts: dict[str, dict]):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        fake = self
        self.contacts, self.calls, self.ids = contacts, 0, 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"] or 0)))
                if self.path.split("?")[0] != "/crm/v3/objects/contacts/batch/read":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                ids = [str(item["id"]) for item in body.get("inputs", [])]
                fake.calls += 1
                fake.ids += len(ids)
                stamp = datetime.now(UTC).isoformat().replace("+00:00", "Z")
                answer = json.dumps(
                    {
                        "status": "COMPLETE",
                        "results": [fake.contacts[i] for i in ids if i in fake.contacts],
                        "startedAt": stamp,
                        "completedAt": stamp,
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json;charset=utf-8")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer((HOST, port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def hubspot_contacts(count: int, run: str) -> dict[str, dict]:
    """`count` contacts new to the workspace (emails of the run), as HubSpot's API gives them."""
    base = 900_000_000_000 + secrets.randbelow(10**10)
    created = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=30)
    stamp = created.isoformat().replace("+00:00", ".000Z")
    contacts = {}
    for i in range(count):
        contact_id = str(base + i)
        contacts[contact_id] = {
            "id": contact_id,
            "properties": {
                "createdate": stamp,
                "email": f"hs{run}{i:06d}@bench.example.test",
                "firstname": f"Bench{i}",
                "lastname": f"Contact{run}",
                "hs_object_id": contact_id,
                "lastmodifieddate": stamp,
                "utm_source": "bench",
                "utm_medium": None,
                "utm_campaign": None,
                "utm_content": None,
            },
            "createdAt": stamp,
            "updatedAt": stamp,
            "archived": False,
        }
    return contacts


def hubspot_bodies(contacts: dict[str, dict]) -> list[bytes]:
    """One `contact.creation` per contact, each in a delivery of its own (a JSON array, as
    HubSpot sends them)."""
    now = int(time.time() * 1000)
    first = secrets.randbelow(10**12)
    bodies = []
    for i, contact_id in enumerate(contacts):
        event = {
            "eventId": first + i,
            "subscriptionId": 2_345_678,
            "portalId": 62_515,
            "appId": 1_234_567,
            "occurredAt": now - 20_000 + i,
            "subscriptionType": "contact.creation",
            "attemptNumber": 0,
            "objectId": int(contact_id),
            "changeFlag": "CREATED",
            "changeSource": "CRM",
            "sourceId": "userId:123",
        }
        bodies.append(json.dumps([event]).encode())
    return bodies


def hubspot_cleanup(connection) -> dict:
    """Delete, in one transaction, the leads a HubSpot run made (`hubspot:<contact id>`),
    its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.models import Lead

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        ids = set(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
        )
        _, leads = Lead.objects.filter(
            workspace=connection.workspace, external_id__in=[f"hubspot:{i}" for i in ids]
        ).delete()
        events, audits = connection_forget(connection)
    return {"leads": leads.get("workspaces.Lead", 0), "events": events, "audit_events": audits}
