"""How the webhook routes and the events' payloads are described: one operation per route
(the events feed in the figures API's description, the endpoints in the agent API's), and
on createWebhookEndpoint a callback per event type carrying that type's `data` (OpenAPI
3.0's way to describe what the service sends to a URL the caller gives)."""

import re

from drf_spectacular.utils import (
    OpenApiCallback,
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers

from core.openapi import IDEMPOTENCY_KEY, ErrorSerializer, error_example, error_responses
from events.types import EVENT_TYPES
from figures.schema import GoalsMonthSerializer
from integrations.providers import PROVIDERS

from .serializers import (
    EndpointCreatedSerializer,
    EndpointCreateSerializer,
    EndpointListSerializer,
    EndpointSerializer,
    EndpointUpdateSerializer,
    EventListSerializer,
)

_CATALOGUE = {
    400: (
        "A parameter or body member cannot be used; `field` names it.",
        [
            error_example(
                "invalid_field",
                "invalid_field",
                "url: The host 10.0.0.5 resolves to a private address; webhooks go to public "
                "addresses only.",
                field="url",
            ),
            error_example(
                "invalid_parameter",
                "invalid_parameter",
                "limit must be a whole number from 1 to 500.",
                field="limit",
            ),
        ],
    ),
    401: (
        "No token, or a token not accepted (agency tokens are not).",
        [
            error_example(
                "unauthenticated",
                "unauthenticated",
                "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
            )
        ],
    ),
    403: (
        "Refused: see error.reason (`insufficient_scope` with `requiredScope`, "
        "`refused.member_scope` for a closer's, setter's or SDR's session, and for a "
        "manager's on a write).",
        [
            error_example(
                "insufficient_scope",
                "insufficient_scope",
                "This token lacks the data:write scope.",
                requiredScope="data:write",
            )
        ],
    ),
    404: (
        "No webhook endpoint of this workspace has that id.",
        [
            error_example(
                "not_found", "not_found", "No webhook endpoint of this workspace has that id."
            )
        ],
    ),
    409: (
        "A write with this Idempotency-Key is still running.",
        [
            error_example(
                "refused.idempotency_in_progress",
                "refused.idempotency_in_progress",
                "A write with this Idempotency-Key is still running; retry in a moment.",
            )
        ],
    ),
    422: (
        "The Idempotency-Key was used for another request.",
        [
            error_example(
                "refused.idempotency_key_reused",
                "refused.idempotency_key_reused",
                "This Idempotency-Key was used for a different request; use a new key.",
            )
        ],
    ),
}


def _errors(*statuses):
    return error_responses(ErrorSerializer, _CATALOGUE, statuses)


_ID = OpenApiParameter("id", str, OpenApiParameter.PATH, description="The endpoint's id.")

_ENDPOINT = {
    "id": "5f0e6a43-8e3b-4d55-9a4e-2b1f6a7c9d21",
    "url": "https://hooks.example.com/sales",
    "events": ["lead.created", "payment.succeeded"],
    "description": "CRM sync",
    "enabled": True,
    "created_at": "2026-11-02T09:30:00Z",
}

# --- The events' payloads ------------------------------------------------------------------

_S = serializers
_ID_TEXT = {"id": _S.UUIDField(), "external_id": _S.CharField(allow_null=True)}


def _data(name: str, fields: dict):
    return inline_serializer(name, fields)


LEAD = _data(
    "LeadEventData",
    {
        **_ID_TEXT,
        "name": _S.CharField(allow_blank=True),
        "email": _S.CharField(allow_blank=True),
        "status": _S.CharField(),
        "setter_id": _S.UUIDField(allow_null=True),
        "created_at": _S.DateTimeField(),
        "utm": inline_serializer(
            "LeadEventUtm",
            {
                k: _S.CharField(allow_blank=True)
                for k in ("source", "medium", "campaign", "content")
            },
        ),
    },
)
CALL = _data(
    "CallEventData",
    {
        **_ID_TEXT,
        "lead_id": _S.UUIDField(),
        "closer_id": _S.UUIDField(allow_null=True),
        "setter_id": _S.UUIDField(allow_null=True),
        "booked_at": _S.DateTimeField(),
        "scheduled_for": _S.DateTimeField(),
        "status": _S.ChoiceField(choices=["scheduled", "cancelled"]),
        "rescheduled_from": _S.UUIDField(allow_null=True, help_text="The call it replaces."),
        "attendance": _S.ChoiceField(choices=["", "showed", "no_show"]),
        "offer_made": _S.BooleanField(allow_null=True),
        "outcome": _S.CharField(allow_blank=True),
    },
)
OUTCOME = _data(
    "OutcomeEventData",
    {
        **_ID_TEXT,
        "call_id": _S.UUIDField(allow_null=True),
        "lead_id": _S.UUIDField(allow_null=True),
        "member_id": _S.UUIDField(allow_null=True),
        "result": _S.ChoiceField(
            choices=["closed", "deposit", "follow_up", "no_sale", "disqualified"]
        ),
        "offer_made": _S.BooleanField(allow_null=True),
        "reason": _S.CharField(allow_blank=True),
        "at": _S.DateTimeField(),
    },
)
_MONEY = {"currency": _S.CharField(), "amount": _S.FloatField(help_text="Major units.")}
SALE = _data(
    "SaleEventData",
    {
        **_ID_TEXT,
        "origin": _S.ChoiceField(choices=["call", "past_call", "dm"]),
        "lead_id": _S.UUIDField(),
        "call_id": _S.UUIDField(allow_null=True),
        "closer_id": _S.UUIDField(allow_null=True),
        "setter_id": _S.UUIDField(allow_null=True),
        "closed_at": _S.DateTimeField(),
        "currency": _S.CharField(),
        "contract_value": _S.FloatField(help_text="Major units."),
        "payment_plan": _S.ChoiceField(choices=["", "paid_in_full", "split", "financed"]),
    },
)
_PAYMENT_FIELDS = {
    **_ID_TEXT,
    "sale_id": _S.UUIDField(),
    "status": _S.ChoiceField(choices=["succeeded", "failed"]),
    "paid_at": _S.DateTimeField(),
    **_MONEY,
}
PAYMENT = _data("PaymentEventData", _PAYMENT_FIELDS)
REFUND = _data(
    "RefundEventData",
    {
        **_PAYMENT_FIELDS,
        "refunded": _S.FloatField(help_text="Everything refunded of the payment so far."),
        "refund": inline_serializer(
            "Refund",
            {
                **_ID_TEXT,
                "payment_id": _S.UUIDField(),
                "sale_id": _S.UUIDField(),
                "kind": _S.ChoiceField(choices=["refund", "chargeback"]),
                "at": _S.DateTimeField(),
                **_MONEY,
            },
        ),
    },
)
EOD = _data(
    "EodEventData",
    {
        **_ID_TEXT,
        "member_id": _S.UUIDField(),
        "date": _S.DateField(),
        "submitted_at": _S.DateTimeField(),
        "fields": _S.DictField(),
    },
)
_TEXT_OR_NULL = {"allow_null": True, "required": True}
AD_SPEND = _data(
    "AdSpendEventData",
    {
        "id": _S.CharField(help_text="The record's own id, its identity."),
        "date": _S.DateField(),
        "platform": _S.RegexField(r"^[a-z0-9_-]{1,32}$"),
        **{
            name: _S.CharField(**_TEXT_OR_NULL)
            for name in (
                "utm_source",
                "utm_medium",
                "utm_campaign",
                "utm_content",
                "campaign_id",
                "campaign_name",
            )
        },
        "impressions": _S.IntegerField(allow_null=True),
        "clicks": _S.IntegerField(allow_null=True),
        **_MONEY,
    },
)
CHANGE = _data(
    "ChangeEventData",
    {
        "id": _S.UUIDField(),
        "workspace_id": _S.UUIDField(),
        "effective_at": _S.DateTimeField(),
        "kind": _S.ChoiceField(choices=["price", "offer", "script", "rule", "other"]),
        "title": _S.CharField(),
        "what": _S.CharField(),
        "why": _S.CharField(allow_blank=True),
        "created_at": _S.DateTimeField(),
        "created_by": inline_serializer(
            "ChangeEventActor",
            {"kind": _S.CharField(), "id": _S.CharField(), "label": _S.CharField()},
        ),
    },
)
MEMBER = _data(
    "MemberEventData",
    {
        "id": _S.UUIDField(),
        "name": _S.CharField(),
        "email": _S.CharField(),
        "role": _S.ChoiceField(choices=["owner", "admin", "manager", "closer", "setter", "sdr"]),
        "active": _S.BooleanField(),
    },
)
PLAN = _data(
    "PlanEventData",
    {
        "id": _S.UUIDField(),
        "agency_id": _S.UUIDField(),
        "state": _S.CharField(),
        "applied_at": _S.DateTimeField(),
        "changes": _S.ListField(
            child=inline_serializer(
                "PlanEventChange",
                {
                    "op": _S.CharField(),
                    "target": _S.CharField(),
                    "status": _S.ChoiceField(choices=["applied", "blocked"]),
                    "reason": _S.CharField(required=False),
                },
            )
        ),
        "invited": _S.ListField(
            child=inline_serializer(
                "PlanEventInvite", {"email": _S.CharField(), "role": _S.CharField()}
            )
        ),
    },
)
INTEGRATION = _data(
    "IntegrationEventData",
    {
        "id": _S.UUIDField(),
        "provider": _S.ChoiceField(choices=list(PROVIDERS)),
        "state": _S.CharField(),
        "error": _S.CharField(),
        "failing_since": _S.DateTimeField(),
    },
)

PAYLOADS = {
    "lead.created": LEAD,
    "lead.updated": LEAD,
    "call.booked": CALL,
    "call.rescheduled": CALL,
    "call.cancelled": CALL,
    "call.outcome_recorded": OUTCOME,
    "sale.closed": SALE,
    "payment.succeeded": PAYMENT,
    "payment.failed": PAYMENT,
    "payment.refunded": REFUND,
    "eod.submitted": EOD,
    "ad_spend.updated": AD_SPEND,
    "goal.updated": GoalsMonthSerializer(),
    "change.created": CHANGE,
    "member.added": MEMBER,
    "member.removed": MEMBER,
    "plan.applied": PLAN,
    "integration.failing": INTEGRATION,
}
assert set(PAYLOADS) == set(EVENT_TYPES)

_HEADERS = [
    OpenApiParameter(
        "webhook-id",
        str,
        OpenApiParameter.HEADER,
        required=True,
        description="The event's id (`evt_…`), the same on every retry: deduplicate on it.",
    ),
    OpenApiParameter(
        "webhook-timestamp",
        str,
        OpenApiParameter.HEADER,
        required=True,
        description="Seconds since the epoch when this attempt was signed.",
    ),
    OpenApiParameter(
        "webhook-signature",
        str,
        OpenApiParameter.HEADER,
        required=True,
        description="`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}."
        "{body}` keyed with the endpoint's secret (the base64 after `whsec_`).",
    ),
]


def _callback(type: str) -> OpenApiCallback:
    body = inline_serializer(
        "Event_" + type.replace(".", "_"),
        {
            "id": _S.RegexField(r"^evt_[0-9A-HJKMNP-TV-Z]{26}$"),
            "type": _S.RegexField("^" + re.escape(type) + "$", help_text=f"`{type}`"),
            "timestamp": _S.DateTimeField(),
            "workspace_id": _S.UUIDField(),
            "data": PAYLOADS[type],
        },
    )
    return OpenApiCallback(
        type,
        "{$request.body#/url}",
        extend_schema(
            summary=EVENT_TYPES[type],
            description=f"A `{type}` event, signed by the Standard Webhooks scheme (see the "
            "headers). Answer any 2xx within 10 seconds; anything else is retried after about "
            "5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.",
            parameters=_HEADERS,
            request=body,
            responses={200: OpenApiResponse(description="Any 2xx: received.")},
        ),
    )


list_endpoints = extend_schema(
    operation_id="listWebhookEndpoints",
    tags=["webhooks"],
    summary="The workspace's webhook endpoints",
    description="Every endpoint, oldest first, without its secret. Scope `read`.",
    responses={
        200: OpenApiResponse(
            EndpointListSerializer,
            examples=[OpenApiExample("Endpoints", value={"endpoints": [_ENDPOINT]})],
        ),
        **_errors(400, 401, 403),
    },
)

create_endpoint = extend_schema(
    operation_id="createWebhookEndpoint",
    tags=["webhooks"],
    summary="Add a webhook endpoint",
    description="Scope `data:write` (a person's session: owner or admin). The URL is https "
    "and must resolve to a public address (a private, loopback or link-local one answers "
    "400 naming `url`); unknown event types answer 400 naming `events`. At most 20 "
    "endpoints per workspace. The answer holds the signing `secret`, shown only here (and "
    "in this request's idempotent replay). The callbacks below are the events it receives.",
    parameters=[IDEMPOTENCY_KEY],
    request=EndpointCreateSerializer,
    responses={
        201: OpenApiResponse(
            EndpointCreatedSerializer,
            examples=[
                OpenApiExample(
                    "Created",
                    value={**_ENDPOINT, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
                    status_codes=["201"],
                )
            ],
        ),
        **_errors(400, 401, 403, 409, 422),
    },
    callbacks=[_callback(type) for type in EVENT_TYPES],
)

get_endpoint = extend_schema(
    operation_id="getWebhookEndpoint",
    tags=["webhooks"],
    summary="One webhook endpoint",
    parameters=[_ID],
    responses={200: EndpointSerializer, **_errors(401, 403, 404)},
)

update_endpoint = extend_schema(
    operation_id="updateWebhookEndpoint",
    tags=["webhooks"],
    summary="Change a webhook endpoint",
    description="Any of `url`, `events`, `description`, `enabled`; the URL passes the same "
    "checks as when the endpoint was added. Enabling an endpoint again (after three days "
    "of failures disabled it) sends what waited. Scope `data:write`.",
    parameters=[_ID],
    request=EndpointUpdateSerializer,
    responses={200: EndpointSerializer, **_errors(400, 401, 403, 404)},
)

delete_endpoint = extend_schema(
    operation_id="deleteWebhookEndpoint",
    tags=["webhooks"],
    summary="Delete a webhook endpoint",
    description="Its deliveries stop at once. Scope `data:write`.",
    parameters=[_ID],
    responses={204: None, **_errors(401, 403, 404)},
)

list_events = extend_schema(
    operation_id="listEvents",
    tags=["webhooks"],
    summary="The workspace's events of the last 30 days, oldest first",
    description="For integrators who cannot take webhooks, or who catch up after downtime: "
    "page with `after` (the last event id received) while `has_more` is true. Each event is "
    "the object a webhook delivery carries: each type's payload is a callback of "
    "createWebhookEndpoint in the Agent and Agency API's description (`/openapi/agent.json`). "
    "Scope `read`.",
    parameters=[
        OpenApiParameter("after", str, description="List the events after this event id."),
        OpenApiParameter(
            "types",
            str,
            description="Comma-separated event types to list; omitted: every type.",
        ),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": 500, "default": 100},
            description="At most this many events (1 to 500).",
        ),
    ],
    responses={200: EventListSerializer, **_errors(400, 401, 403)},
)
