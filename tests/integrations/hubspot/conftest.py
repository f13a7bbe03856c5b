"""A workspace with a HubSpot connection; deliveries signed the way HubSpot signs them
(`X-HubSpot-Signature-v3`: base64 HMAC-SHA256 of method + URL + body + timestamp, with
`X-HubSpot-Request-Timestamp` in milliseconds), and HubSpot's API answers replayed from
the cassettes beside this file (vcrpy, under the library's own urllib3 calls)."""

import base64
import hashlib
import hmac
import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import vcr
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from hubspot.crm.contacts import rest

from audit.services import SYSTEM
from integrations import services
from workspaces.kept import leads_sales_refresh
from workspaces.models import Lead, Payment, Sale

from ..conftest import utc

ACCESS_TOKEN = "pat-na1-0a1b2c3d-0a1b-4c2d-8e3f-0a1b2c3d4e5f"
CLIENT_SECRET = "5f1c3a2e-7b4d-4e6f-9a8b-1c2d3e4f5a6b"
OTHER_SECRET = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
PORTAL = 62515

replay = vcr.VCR(
    cassette_library_dir=str(Path(__file__).parent / "cassettes"),
    record_mode="none",
    match_on=["method", "scheme", "host", "path", "query"],
    decode_compressed_response=True,
)


def ms(text: str) -> int:
    return int(utc(text).timestamp() * 1000)


def sign(secret: str, method: str, url: str, body: str, timestamp: int) -> str:
    source = f"{method}{url}{body}{timestamp}".encode()
    return base64.b64encode(hmac.new(secret.encode(), source, hashlib.sha256).digest()).decode()


def created(event_id, contact_id, when):
    """A `contact.creation` event as HubSpot sends it."""
    return {
        "eventId": event_id,
        "subscriptionId": 2181,
        "portalId": PORTAL,
        "appId": 3340012,
        "occurredAt": ms(when),
        "subscriptionType": "contact.creation",
        "attemptNumber": 0,
        "objectId": contact_id,
        "changeFlag": "CREATED",
        "changeSource": "FORM",
    }


def changed(event_id, contact_id, when, name, value):
    """A `contact.propertyChange` event as HubSpot sends it."""
    return {
        "eventId": event_id,
        "subscriptionId": 2182,
        "portalId": PORTAL,
        "appId": 3340012,
        "occurredAt": ms(when),
        "subscriptionType": "contact.propertyChange",
        "attemptNumber": 0,
        "objectId": contact_id,
        "propertyName": name,
        "propertyValue": value,
        "changeSource": "CRM_UI",
        "sourceId": "userId:1203",
    }


@pytest.fixture
def sent(monkeypatch):
    """The requests HubSpot's library sends, as (method, url, JSON body, headers), seen
    where its generated client hands them to urllib3 (the replay answers them)."""
    calls = []
    original = rest.RESTClientObject.request

    def request(self, method, url, query_params=None, headers=None, body=None, **kwargs):
        calls.append(SimpleNamespace(method=method, url=url, body=body, headers=headers or {}))
        return original(
            self, method, url, query_params=query_params, headers=headers, body=body, **kwargs
        )

    monkeypatch.setattr(rest.RESTClientObject, "request", request)
    return calls


@pytest.fixture(autouse=True)
def fresh_cache():
    """Contacts read by one test are not seen by the next."""
    cache.clear()
    yield
    cache.clear()


def hubspot_connection(workspace, secret=CLIENT_SECRET):
    return services.connection_create(
        workspace=workspace,
        provider="hubspot",
        credentials={"access_token": ACCESS_TOKEN, "client_secret": secret},
        actor=SYSTEM,
    )


@pytest.fixture
def deliver(committed):
    """deliver(connection, events, secret=..., timestamp=..., signature=...) -> response;
    the apply tasks run as they would once the delivery's transaction commits."""
    client = Client()

    def post(connection, events, *, secret=CLIENT_SECRET, timestamp=None, signature=None):
        body = json.dumps(events)
        path = f"/hooks/hubspot/{connection.pk}"
        timestamp = int(time.time() * 1000) if timestamp is None else timestamp
        headers = {
            "X-HubSpot-Signature-v3": signature
            or sign(secret, "POST", f"{settings.BASE_URL}{path}", body, timestamp),
            "X-HubSpot-Request-Timestamp": str(timestamp),
        }
        with committed():
            return client.post(path, data=body, content_type="application/json", headers=headers)

    return post


@pytest.fixture
def portal(make_workspace, workspace_token, api):
    """A USD workspace whose import made Pat (pat@example.test, 5 March, no UTMs) and sold
    Pat a 3,000 USD programme, 1,000 USD paid; a HubSpot connection."""
    ws = make_workspace(currency="USD", timezone="UTC")
    pat = Lead.objects.create(
        workspace=ws,
        external_id="import-pat",
        name="Pat",
        email="pat@example.test",
        created_at=utc("2026-03-05 08:00"),
        status="booked",
    )
    sale = Sale.objects.create(
        workspace=ws, lead=pat, closed_at=utc("2026-03-06 12:00"), contract_value=300000
    )
    Payment.objects.create(workspace=ws, sale=sale, paid_at=utc("2026-03-06 12:00"), amount=100000)
    leads_sales_refresh(workspace=ws, lead_ids=[pat.pk])
    return SimpleNamespace(
        ws=ws, pat=pat, connection=hubspot_connection(ws), reader=api(workspace_token(ws))
    )
