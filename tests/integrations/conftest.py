"""A workspace with a Stripe connection, and Stripe deliveries signed the way Stripe signs
them: `Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`."""

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
from workspaces.models import Lead, Sale
from workspaces.services import leads_sales_refresh

STRIPE_KEY = "sk_test_" + "a1B2c3D4e5F6g7H8i9J0k1L2"
SECRET = "whsec_" + "T3stS3cr3tT3stS3cr3tT3stS3cr3t00"
OTHER_SECRET = "whsec_" + "0th3rS3cr3t0th3rS3cr3t0th3rS3cr"


def epoch(text: str) -> int:
    """'2026-03-03 10:00' (UTC) as Stripe's unix time."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def sign(body: str, secret: str, timestamp: int | None = None) -> str:
    timestamp = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def charge(
    charge_id,
    amount,
    when,
    *,
    email=None,
    currency="usd",
    status="succeeded",
    metadata=None,
    refunds=(),
    customer=None,
):
    return {
        "id": charge_id,
        "object": "charge",
        "amount": amount,
        "currency": currency,
        "created": epoch(when),
        "status": status,
        "paid": status == "succeeded",
        "billing_details": {"email": email, "name": None},
        "receipt_email": None,
        "customer": customer,
        "metadata": metadata or {},
        "refunded": bool(refunds),
        "amount_refunded": sum(r["amount"] for r in refunds),
        "refunds": {"object": "list", "data": list(refunds)},
    }


def refund(refund_id, charge_id, amount, when, *, status="succeeded", currency="usd"):
    return {
        "id": refund_id,
        "object": "refund",
        "amount": amount,
        "charge": charge_id,
        "currency": currency,
        "created": epoch(when),
        "status": status,
    }


def dispute(dispute_id, charge_id, amount, *, status="lost", currency="usd"):
    return {
        "id": dispute_id,
        "object": "dispute",
        "amount": amount,
        "charge": charge_id,
        "currency": currency,
        "status": status,
        "created": epoch("2026-03-01 00:00"),
    }


def event(event_id, event_type, obj, when):
    return {
        "id": event_id,
        "object": "event",
        "api_version": "2024-06-20",
        "created": epoch(when),
        "type": event_type,
        "livemode": False,
        "data": {"object": obj},
    }


def stripe_connection(workspace, secret=SECRET):
    return services.connection_create(
        workspace=workspace,
        provider="stripe",
        credentials={"secret_key": STRIPE_KEY, "webhook_secret": secret},
        actor=SYSTEM,
    )


@pytest.fixture(autouse=True)
def backfills(monkeypatch):
    """The backfill a new connection starts is recorded, not run (it calls the provider)."""
    sent = []
    monkeypatch.setattr(services, "_backfill_enqueue", sent.append)
    return sent


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """A block whose transaction.on_commit callbacks run at its end, as after a real commit
    (the test's own transaction never commits); the tasks they send run eagerly."""

    def block():
        return django_capture_on_commit_callbacks(execute=True)

    return block


@pytest.fixture
def deliver(committed):
    """deliver(connection, payload, secret=..., timestamp=..., header=...) -> response, the
    apply task run as it would be once the delivery's transaction commits."""
    client = Client()

    def post(connection, payload, *, secret=SECRET, timestamp=None, header=None, provider=None):
        body = json.dumps(payload)
        headers = {}
        if header is not False:
            headers["Stripe-Signature"] = header or sign(body, secret, timestamp)
        with committed():
            return client.post(
                f"/hooks/{provider or connection.provider}/{connection.pk}",
                data=body,
                content_type="application/json",
                headers=headers,
            )

    return post


@pytest.fixture
def shop(make_workspace, make_member, workspace_token, api):
    """A USD workspace: Ada closes, on a 10% cash commission; Pat bought a 3,000 USD
    programme on 2 March; a Stripe connection."""
    from workspaces.models import CommissionRule

    ws = make_workspace(currency="USD", timezone="UTC")
    ada = make_member(ws, "closer", name="Ada", email="ada@example.test")
    CommissionRule.objects.create(
        workspace=ws, member=ada, basis="cash_collected", slot="closer", rate="0.1"
    )
    pat = Lead.objects.create(
        workspace=ws, name="Pat", email="pat@example.test", created_at=utc("2026-02-20 09:00")
    )
    sale = Sale.objects.create(
        workspace=ws,
        lead=pat,
        closed_at=utc("2026-03-02 12:00"),
        contract_value=300000,
        closer=ada,
        external_id="sale-pat",
    )
    leads_sales_refresh(workspace=ws, lead_ids=[pat.pk])
    return SimpleNamespace(
        ws=ws,
        ada=ada,
        pat=pat,
        sale=sale,
        connection=stripe_connection(ws),
        reader=api(workspace_token(ws)),
    )
