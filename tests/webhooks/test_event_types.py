"""Every event type, made by the writers that cause it: each arrives once per endpoint
that wants it, and each event's body validates against its callback in the served
description of the agent API (beside createWebhookEndpoint)."""

import json
from datetime import date

import pytest
from django.db import transaction
from django.test import Client
from openapi_schema_validator import OAS30Validator

from agentapi.services import change_create
from audit.services import SYSTEM
from events.models import Event
from events.types import EVENT_TYPES
from integrations.connections import connection_create, connection_fail
from webhooks import services
from workspaces.services import (
    ad_spend_upsert,
    call_upsert,
    eod_upsert,
    lead_upsert,
    outcome_upsert,
    payment_upsert,
    payments_create,
    refund_upsert,
    sale_upsert,
)
from workspaces.tenancy import member_add, member_deactivate

from ..conftest import aware

pytestmark = pytest.mark.django_db(transaction=True)


def callback_schemas() -> dict:
    document = Client().get("/openapi/agent.json").json()
    callbacks = document["paths"]["/api/v1/webhook-endpoints"]["post"]["callbacks"]
    schemas = {}
    for type, callback in callbacks.items():
        (operation,) = callback.values()
        body = operation["post"]["requestBody"]["content"]["application/json"]["schema"]
        schemas[type] = {**body, "components": document["components"]}
    return schemas


def event_validate(schemas, event: Event) -> None:
    errors = [e.message for e in OAS30Validator(schemas[event.type]).iter_errors(event.as_api())]
    assert errors == [], (event.type, errors)


def test_the_writers_make_every_type_each_once_per_wanting_endpoint(
    make_workspace, make_member, receiver
):
    ws = make_workspace(currency="EUR")
    closer = make_member(ws, "closer")
    services.endpoint_create(workspace=ws, url=receiver.url + "/all", actor=SYSTEM)
    services.endpoint_create(
        workspace=ws,
        url=receiver.url + "/money",
        events=["sale.closed", "payment.refunded"],
        actor=SYSTEM,
    )
    at = aware("2026-11-02 10:00")
    with transaction.atomic():
        lead, _ = lead_upsert(workspace=ws, external_id="L", created_at=at, name="Lea")
        lead_upsert(workspace=ws, external_id="L", created_at=at, name="Lea Renamed")
        first, _ = call_upsert(
            workspace=ws,
            external_id="C1",
            lead=lead,
            booked_at=at,
            scheduled_for=aware("2026-11-03 10:00"),
            closer=closer,
        )
        call_upsert(
            workspace=ws,
            external_id="C2",
            lead=lead,
            booked_at=at,
            scheduled_for=aware("2026-11-04 10:00"),
            closer=closer,
            rescheduled_from=first,
        )
        call_upsert(
            workspace=ws,
            external_id="C2",
            lead=lead,
            booked_at=at,
            scheduled_for=aware("2026-11-04 10:00"),
            closer=closer,
            rescheduled_from=first,
            status="cancelled",
        )
        outcome_upsert(workspace=ws, external_id="O", result="closed", at=at, call=first)
        sale, _ = sale_upsert(
            workspace=ws,
            external_id="S",
            lead=lead,
            closed_at=at,
            contract_value=500000,
            call=first,
            closer=closer,
        )
        paid, _ = payment_upsert(
            workspace=ws, external_id="P1", sale=sale, paid_at=at, amount=100000
        )
        payment_upsert(
            workspace=ws, external_id="P2", sale=sale, paid_at=at, amount=5000, status="failed"
        )
        refund_upsert(workspace=ws, external_id="R", payment=paid, at=at, amount=2550)
        eod_upsert(
            workspace=ws,
            external_id="E",
            member=closer,
            date=date(2026, 11, 2),
            submitted_at=at,
            fields={"calls": 4},
        )
        ad_spend_upsert(
            workspace=ws,
            external_id="fb-1",
            date=date(2026, 11, 2),
            platform="meta",
            utm_source="facebook",
            amount=41237,
        )
        change_create(
            workspace=ws,
            actor=SYSTEM,
            effective_at=at,
            kind="price",
            title="New price",
            what="4,997 to 5,497",
        )
        joined = member_add(
            workspace=ws,
            user=None,
            email="new@example.test",
            name="New",
            role="setter",
            actor=SYSTEM,
        )
        member_deactivate(member=joined, by_role="owner", actor=SYSTEM)
        connection = connection_create(
            workspace=ws,
            provider="stripe",
            credentials={
                "secret_key": "rk_test_" + "a" * 24,
                "webhook_secret": "whsec_" + "b" * 24,
            },
            actor=SYSTEM,
        )
        connection_fail(connection=connection, error="Stripe refused the key.")
        connection_fail(connection=connection, error="Still refused.")  # once, on the change
    events = list(Event.objects.filter(workspace=ws).order_by("seq"))
    types = [event.type for event in events]
    assert types == [
        "lead.created",
        "lead.updated",
        "call.booked",
        "call.rescheduled",
        "call.cancelled",
        "call.outcome_recorded",
        "sale.closed",
        "payment.succeeded",
        "payment.failed",
        "payment.refunded",
        "eod.submitted",
        "ad_spend.updated",
        "change.created",
        "member.added",
        "member.removed",
        "integration.failing",
    ]
    refunded = events[types.index("payment.refunded")].data
    assert (refunded["amount"], refunded["refunded"], refunded["refund"]["amount"]) == (
        1000,
        25.5,
        25.5,
    )
    assert refunded["currency"] == "EUR"
    spent = events[types.index("ad_spend.updated")].data
    assert (spent["id"], spent["amount"], spent["currency"], spent["utm_campaign"]) == (
        "fb-1",
        412.37,
        "EUR",
        None,
    )
    schemas = callback_schemas()
    assert set(schemas) == set(EVENT_TYPES)
    for event in events:
        event_validate(schemas, event)
    received = receiver.wait(len(events) + 2)
    by_path = {}
    for request in received:
        by_path.setdefault(request.path, []).append(json.loads(request.body)["id"])
    assert sorted(by_path["/hooks/all"]) == sorted(event.id for event in events)
    assert sorted(by_path["/hooks/money"]) == sorted(
        event.id for event in events if event.type in ("sale.closed", "payment.refunded")
    )


def test_payments_written_at_once_announce_each_payment(make_workspace, receiver):
    """The bulk writer (a batch of Stripe charges) records one event per payment, in one
    insert, and each reaches the endpoint."""
    ws = make_workspace()
    services.endpoint_create(
        workspace=ws, url=receiver.url, events=["payment.succeeded"], actor=SYSTEM
    )
    at = aware("2026-11-02 10:00")
    with transaction.atomic():
        lead, _ = lead_upsert(workspace=ws, external_id="L", created_at=at)
        sale, _ = sale_upsert(
            workspace=ws, external_id="S", lead=lead, closed_at=at, contract_value=900000
        )
        payments_create(
            workspace=ws,
            payments=[
                {"external_id": f"ch_{n}", "sale": sale, "paid_at": at, "amount": 100000 * n}
                for n in (1, 2, 3)
            ],
        )
    received = receiver.wait(3)
    amounts = sorted(json.loads(r.body)["data"]["amount"] for r in received)
    assert amounts == [1000, 2000, 3000]
    assert Event.objects.filter(workspace=ws, type="payment.succeeded").count() == 3
