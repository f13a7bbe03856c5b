"""The served description of the agent API: each route's extend_schema decoration (applied
in agentapi/views.py as @schema.<operation>), the error answers, the Idempotency-Key header
and the examples the routes show."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers

from core.openapi import IDEMPOTENCY_KEY, ErrorSerializer, error_example, error_responses
from figures.registry import figure_keys
from figures.schema import (
    AdSpendRecordSerializer,
    GoalsMonthSerializer,
    field_serializer,
    notes_serializer,
)
from workspaces.services.goals import MONTH_PATTERN

from .serializers import (
    AdSpendWriteSerializer,
    ChangeCreateSerializer,
    ChangeEntrySerializer,
    ChangeListSerializer,
    DisplaySerializer,
    DmCloseAnswerSerializer,
    DmCloseFormSerializer,
    DraftCreateSerializer,
    DraftListSerializer,
    DraftSerializer,
    EodAnswerSerializer,
    EodFormSerializer,
    GoalsReplaceSerializer,
    PastCallAnswerSerializer,
    PastCallFormSerializer,
    PostCallAnswerSerializer,
    PostCallFormSerializer,
    WorkspaceListSerializer,
)

AgentErrorSerializer = ErrorSerializer

FROM_TO = [
    OpenApiParameter(
        "from",
        OpenApiTypes.DATE,
        OpenApiParameter.QUERY,
        description="First day, YYYY-MM-DD in the workspace timezone (default: to - 29 days).",
    ),
    OpenApiParameter(
        "to",
        OpenApiTypes.DATE,
        OpenApiParameter.QUERY,
        description="Last day, included, YYYY-MM-DD in the workspace timezone (default: today "
        "there).",
    ),
]

WORKSPACE_ID = OpenApiParameter(
    "workspaceId",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="The workspace. A workspace token may name only its own (else 403 "
    "refused.cross_workspace); an agency token names one of its agency's workspaces.",
)

_STATUS_TEXT = {
    400: "A parameter or body member cannot be used; `field` names it.",
    401: "No token, a token not of this service, revoked or expired; or an agency token on "
    "a route it does not reach.",
    403: "Refused: see error.reason.",
    404: "No such id in this workspace (another workspace's ids are not found either).",
    409: "A write with this Idempotency-Key is still running.",
    422: "The Idempotency-Key was used for a different request.",
}

_EXAMPLES = {
    400: [
        error_example(
            "invalid_field",
            "invalid_field",
            "instalments.0.amount: Give an amount in major units of USD with at most 2 "
            "decimals, as a string or a number, e.g. '1234.55'.",
            field="instalments.0.amount",
        ),
        error_example(
            "refused.idempotency_key_required",
            "refused.idempotency_key_required",
            "Every write needs an Idempotency-Key header (8 to 200 characters, unique to the "
            "write).",
            field="Idempotency-Key",
        ),
    ],
    401: [
        error_example(
            "unauthenticated",
            "unauthenticated",
            "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
        )
    ],
    403: [
        error_example(
            "refused.drafts_only",
            "refused.drafts_only",
            "API tokens never file sales records: a member files this with their own session "
            "token. An API token may propose a draft instead (POST /api/v1/forms/drafts).",
        ),
        error_example(
            "refused.member_scope",
            "refused.member_scope",
            "A closer reads only their own board and drafts, nothing workspace-wide.",
        ),
        error_example(
            "insufficient_scope",
            "insufficient_scope",
            "This token lacks the data:write scope.",
            requiredScope="data:write",
        ),
    ],
    404: [error_example("not_found", "not_found", "Nothing with that id exists here.")],
    409: [
        error_example(
            "refused.idempotency_in_progress",
            "refused.idempotency_in_progress",
            "A write with this Idempotency-Key is still running; retry in a moment.",
        )
    ],
    422: [
        error_example(
            "refused.idempotency_key_reused",
            "refused.idempotency_key_reused",
            "This Idempotency-Key was used for a different request; use a new key.",
        )
    ],
}


_BODY_EXAMPLES = [
    error_example(
        "invalid_body",
        "invalid_body",
        "The body is larger than the limit of 1 MiB (1048576 bytes); send less at once.",
        field="body",
    ),
    error_example(
        "invalid_field (NUL)",
        "invalid_field",
        "fields.notes holds a NUL character (\\u0000); remove it.",
        field="fields.notes",
    ),
]


_CATALOGUE = {status: (text, _EXAMPLES.get(status, [])) for status, text in _STATUS_TEXT.items()}


def errors(*statuses, extra: dict | None = None) -> dict:
    """The error answers of a route, with examples; extra adds or replaces examples."""
    # Every write, and only a write, may answer 422 for a reused Idempotency-Key.
    body_examples = _BODY_EXAMPLES if 422 in statuses else None
    return error_responses(
        AgentErrorSerializer, _CATALOGUE, statuses, body_examples=body_examples, extra=extra
    )


READ_ERRORS = (400, 401, 403)
WRITE_ERRORS = (400, 401, 403, 409, 422)


def request_example(name: str, value: dict, summary: str = "") -> OpenApiExample:
    return OpenApiExample(name, value=value, summary=summary or name, request_only=True)


def response_example(name: str, value: dict, status: int = 200) -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[str(status)])


# --- Display and workspaces ----------------------------------------------------------------

_DISPLAY_EXAMPLE = {
    "workspace_id": "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10",
    "name": "Northwind Coaching",
    "logo": "https://cdn.example.com/northwind.png",
    "colours": {"primary": "#1d4ed8", "accent": "#f59e0b"},
    "labels": {"calls.close_rate": "Close %"},
    "modules": ["calls", "payments", "eod"],
    "programmes": [{"name": "Mastermind", "price": 5000}],
    "currency": "USD",
    "timezone": "America/New_York",
}


get_display = extend_schema(
    operation_id="getDisplay",
    summary="Display config of the token's workspace",
    description="Name, logo, colours, labels, modules, programmes and currency code, for "
    "an embedded app to render itself. Workspace API token or the session token of an "
    "owner, admin or manager (a closer, setter or SDR reads only their board and drafts: "
    "403 refused.member_scope). An agency token uses "
    "/api/v1/workspaces/{workspaceId}/display.",
    responses={
        200: DisplaySerializer,
        **errors(*READ_ERRORS),
    },
    examples=[response_example("Display config", _DISPLAY_EXAMPLE)],
)


get_workspace_display = extend_schema(
    operation_id="getWorkspaceDisplay",
    summary="Display config of a named workspace",
    description="Same as getDisplay, naming the workspace: the form an agency token "
    "(scope `read`) uses for its agency's workspaces. A workspace token naming another "
    "workspace gets 403 refused.cross_workspace; an agency token naming a workspace "
    "not of its agency, or an archived one, gets 404.",
    parameters=[WORKSPACE_ID],
    responses={200: DisplaySerializer, **errors(*READ_ERRORS, 404)},
    examples=[response_example("Display config", _DISPLAY_EXAMPLE)],
)


list_workspaces = extend_schema(
    operation_id="listWorkspaces",
    summary="Workspaces this token reaches",
    description="A workspace API token or a member's session token reaches exactly its "
    "own workspace. Agency tokens list their workspaces with GET /api/v1/agency/workspaces.",
    responses={200: WorkspaceListSerializer, **errors(*READ_ERRORS)},
    examples=[
        response_example(
            "One workspace",
            {
                "workspaces": [
                    {
                        "id": "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10",
                        "name": "Northwind Coaching",
                        "slug": "northwind",
                        "currency": "USD",
                        "timezone": "America/New_York",
                    }
                ]
            },
        )
    ],
)


# --- The board -----------------------------------------------------------------------------

_BOARD_DATA = inline_serializer(
    "BoardData",
    {
        "member": inline_serializer(
            "BoardMember",
            {
                "id": serializers.CharField(),
                "name": serializers.CharField(),
                "email": serializers.CharField(),
                "role": serializers.CharField(),
            },
        ),
        "calls": inline_serializer(
            "BoardCalls",
            {key: field_serializer() for key in figure_keys("calls")},
        ),
        "payments": inline_serializer(
            "BoardPayments",
            {
                key: field_serializer()
                for key in ("sales", "revenue_booked", "cash_collected", "refunded", "net_cash")
            },
        ),
        "commission": inline_serializer("BoardCommission", {"owed": field_serializer()}),
        "eod": inline_serializer(
            "BoardEod",
            {key: field_serializer() for key in ("expected", "submitted", "compliance_rate")},
        ),
    },
)


_ENVELOPE_WORKSPACE = inline_serializer(
    "AgentEnvelopeWorkspace", {"id": serializers.CharField(), "currency": serializers.CharField()}
)


def _envelope_serializer(name: str, data, period):
    return inline_serializer(
        name,
        {
            "workspace": _ENVELOPE_WORKSPACE,
            "period": period,
            "data": data,
            "notes": notes_serializer(),
        },
    )


_DAY_PERIOD = inline_serializer(
    "BoardPeriod", {"from": serializers.DateField(), "to": serializers.DateField()}
)


def _field_example(metric, label, unit, value, **extra):
    return {
        "metric": metric,
        "label": label,
        "unit": unit,
        "value": value,
        **extra,
        "unavailable": None,
    }


_BOARD_EXAMPLE = {
    "workspace": {"id": "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10", "currency": "USD"},
    "period": {"from": "2026-03-01", "to": "2026-03-30"},
    "data": {
        "member": {
            "id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
            "name": "Casey Closer",
            "email": "casey@example.com",
            "role": "closer",
        },
        "calls": {
            "booked": _field_example("calls.booked", "Calls booked", "count", 24),
            "taken": _field_example("calls.taken", "Calls taken", "count", 18),
            "closed": _field_example("calls.closed", "Calls closed", "count", 6),
            "close_rate": _field_example(
                "calls.close_rate",
                "Close rate",
                "rate",
                0.3333,
                numerator={"label": "Calls closed", "value": 6},
                denominator={"label": "Calls taken", "value": 18},
            ),
        },
        "payments": {
            "cash_collected": _field_example(
                "payments.cash_collected", "Cash collected", "money", 14250.5, currency="USD"
            )
        },
        "commission": {
            "owed": _field_example(
                "commission.owed", "Commission owed", "money", 1425.05, currency="USD"
            )
        },
        "eod": {
            "compliance_rate": _field_example(
                "eod.compliance_rate",
                "EOD compliance",
                "rate",
                0.9,
                numerator={"label": "Due days with a report", "value": 18},
                denominator={"label": "Due days", "value": 20},
            )
        },
    },
    "notes": [],
}


get_my_board = extend_schema(
    operation_id="getMyBoard",
    summary="The signed-in member's own figures",
    description="The member's calls as closer or setter, closes, cash, commission owed and "
    "EOD compliance for the period, in the Envelope of the figures API. Needs a member's "
    "session token (any role); an API token gets 403 refused.drafts_only.",
    parameters=FROM_TO,
    responses={
        200: _envelope_serializer("BoardEnvelope", _BOARD_DATA, _DAY_PERIOD),
        **errors(*READ_ERRORS),
    },
    examples=[response_example("A month of a closer (abridged)", _BOARD_EXAMPLE)],
)


# --- Change log ----------------------------------------------------------------------------

_CHANGE_REQUEST = request_example(
    "A price change",
    {
        "effective_at": "2026-03-01T00:00:00-05:00",
        "kind": "price",
        "title": "Mastermind price up to $6,000",
        "what": "Mastermind moved from $5,000 to $6,000, paid in full or in 3 instalments.",
        "why": "Waitlist over 40 people for two months.",
    },
)


_CHANGE_ANSWER = {
    "id": "0f8b6a53-4f55-4c1f-9d8e-2b3f1d6c7a90",
    "workspace_id": "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10",
    "effective_at": "2026-03-01T05:00:00Z",
    "kind": "price",
    "title": "Mastermind price up to $6,000",
    "what": "Mastermind moved from $5,000 to $6,000, paid in full or in 3 instalments.",
    "why": "Waitlist over 40 people for two months.",
    "created_at": "2026-02-27T16:12:09Z",
    "created_by": {"kind": "workspace_token", "id": "9d1c…", "label": "Ops agent"},
}


_CHANGE_LIST_EXAMPLE = response_example(
    "One entry",
    {
        "period": {"from": "2026-02-01", "to": "2026-03-02", "timezone": "America/New_York"},
        "changes": [_CHANGE_ANSWER],
    },
)


_CHANGE_WRITE_DOC = (
    "Records a dated change-log entry (effective_at, kind price|offer|script|rule|other, "
    "title, what, why). A workspace API token or an owner's, admin's or manager's session "
    "token needs `data:write`. "
)


_CHANGE_LIST_DOC = (
    "Entries whose effective_at falls in the period, newest first. from/to are days in the "
    "workspace timezone, both included; to defaults to today there and from to to - 29 days; "
    "a bad date or from after to answers 400 naming it. "
)


list_changes = extend_schema(
    operation_id="listChanges",
    summary="Change-log entries of the token's workspace in a period",
    description=_CHANGE_LIST_DOC + "A workspace API token or an owner's, admin's or "
    "manager's session token with `read`.",
    parameters=FROM_TO,
    responses={200: ChangeListSerializer, **errors(*READ_ERRORS)},
    examples=[_CHANGE_LIST_EXAMPLE],
)


create_change = extend_schema(
    operation_id="createChange",
    summary="Record a change-log entry against the token's workspace",
    description=_CHANGE_WRITE_DOC + "An agency token uses the workspace-named route.",
    parameters=[IDEMPOTENCY_KEY],
    request=ChangeCreateSerializer,
    responses={201: ChangeEntrySerializer, **errors(*WRITE_ERRORS)},
    examples=[_CHANGE_REQUEST, response_example("Recorded", _CHANGE_ANSWER, 201)],
)


list_workspace_changes = extend_schema(
    operation_id="listWorkspaceChanges",
    summary="Change-log entries of a named workspace in a period",
    description=_CHANGE_LIST_DOC + "Same as listChanges, naming the workspace: the form an "
    "agency token (scope `read`) uses for its agency's workspaces.",
    parameters=[WORKSPACE_ID, *FROM_TO],
    responses={200: ChangeListSerializer, **errors(*READ_ERRORS, 404)},
    examples=[_CHANGE_LIST_EXAMPLE],
)


create_workspace_change = extend_schema(
    operation_id="createWorkspaceChange",
    summary="Record a change-log entry against a named workspace",
    description=_CHANGE_WRITE_DOC + "The form an agency token uses: it needs the "
    "`config:plan` scope (a change-log entry describes how the workspace is set up, like "
    "a plan), else 403 scope.missing with requiredScope config:plan.",
    parameters=[WORKSPACE_ID, IDEMPOTENCY_KEY],
    request=ChangeCreateSerializer,
    responses={201: ChangeEntrySerializer, **errors(*WRITE_ERRORS, 404)},
    examples=[_CHANGE_REQUEST, response_example("Recorded", _CHANGE_ANSWER, 201)],
)


# The days parameter of compareAroundChange: described here, checked by the view.
COMPARE_DEFAULT_DAYS = 14
COMPARE_MAX_DAYS = 90

_COMPARE_SIDE = inline_serializer(
    "CompareSide",
    {
        "from": serializers.DateTimeField(help_text="A UTC time, included."),
        "to": serializers.DateTimeField(help_text="A UTC time, excluded."),
    },
)


_COMPARE_ROW = inline_serializer(
    "CompareFigure",
    {
        "before": field_serializer(),
        "after": field_serializer(),
        "difference": serializers.FloatField(
            allow_null=True,
            help_text="after - before, in the figure's unit (money in major units, a rate "
            "as a fraction rounded to 4 decimals); null when either side is null.",
        ),
    },
)


_COMPARE_DATA = inline_serializer(
    "CompareData",
    {
        "change": ChangeEntrySerializer(),
        "days": serializers.IntegerField(),
        "before": _COMPARE_SIDE,
        "after": _COMPARE_SIDE,
        "figures": serializers.DictField(
            child=_COMPARE_ROW, help_text="By metric id: calls.booked, calls.show_rate, ..."
        ),
    },
)


_COMPARE_PERIOD = inline_serializer(
    "ComparePeriod",
    {
        "from": serializers.DateField(
            help_text="The local day (workspace timezone) the before window starts on."
        ),
        "to": serializers.DateField(
            help_text="The last local day the after window touches, included."
        ),
    },
)


_COMPARE_EXAMPLE = {
    "workspace": {"id": "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10", "currency": "USD"},
    "period": {"from": "2026-02-15", "to": "2026-03-15"},
    "data": {
        "change": _CHANGE_ANSWER,
        "days": 14,
        "before": {"from": "2026-02-15T05:00:00Z", "to": "2026-03-01T05:00:00Z"},
        "after": {"from": "2026-03-01T05:00:00Z", "to": "2026-03-15T05:00:00Z"},
        "figures": {
            "calls.booked": {
                "before": _field_example("calls.booked", "Calls booked", "count", 40),
                "after": _field_example("calls.booked", "Calls booked", "count", 46),
                "difference": 6,
            },
            "payments.cash_collected": {
                "before": _field_example(
                    "payments.cash_collected", "Cash collected", "money", 52000, currency="USD"
                ),
                "after": _field_example(
                    "payments.cash_collected", "Cash collected", "money", 61500.5, currency="USD"
                ),
                "difference": 9500.5,
            },
        },
    },
    "notes": [],
}


compare_around_change = extend_schema(
    operation_id="compareAroundChange",
    summary="Key figures before and after a change",
    description="The key figures of the N days before the entry's effective_at and of the "
    "N days from it ([effective_at - N days, effective_at) and [effective_at, effective_at "
    "+ N days)), side by side, each a Field, with the difference after - before. "
    "`data.before` and `data.after` give each window's from and to as UTC times; the "
    "envelope's `period` is in dates, as everywhere: the local days (workspace timezone) "
    "the two windows touch, both included. days is 1 to 90, default 14; anything else "
    "answers 400 naming days, as do windows that would reach past the calendar (an entry "
    "dated near year 1 or 9999).",
    parameters=[
        OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH),
        OpenApiParameter(
            "days",
            {
                "type": "integer",
                "minimum": 1,
                "maximum": COMPARE_MAX_DAYS,
                "default": COMPARE_DEFAULT_DAYS,
            },
            OpenApiParameter.QUERY,
            description=f"1 to {COMPARE_MAX_DAYS}, default {COMPARE_DEFAULT_DAYS}.",
        ),
    ],
    responses={
        200: _envelope_serializer("CompareEnvelope", _COMPARE_DATA, _COMPARE_PERIOD),
        **errors(*READ_ERRORS, 404),
    },
    examples=[response_example("Before and after (abridged)", _COMPARE_EXAMPLE)],
)


# --- Forms ---------------------------------------------------------------------------------

_FORM_DOC = (
    "Needs a member's session token with `data:write` (any role); an API token gets 403 "
    "refused.drafts_only and may propose a draft instead. Money is a decimal string or "
    "number in major units of the workspace currency with no more decimals than it has; "
    "unknown members answer 400 naming them. Filing with draft_id closes that draft (it "
    "must be the member's own and still open: another's is 404, a filed one 409 "
    "refused.draft_closed). submission_id identifies the filing: a second filing with it "
    "answers the first answer (with Idempotent-Replayed: true), whatever its body; one "
    "used for another member or form answers 422 refused.submission_id_reused."
)


_SUBMISSION = "5c2d1f3e-8a7b-4c6d-9e0f-1a2b3c4d5e6f"


_POST_CALL_REQUEST = {
    "submission_id": _SUBMISSION,
    "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    "attendance": "showed",
    "outcome": "closed",
    "offer_made": True,
    "notes": "Paid the deposit on the call.",
    "contract_value": "6000.00",
    "cash_collected": "2000.00",
    "payment_plan": "split",
    "instalments": [
        {"due_date": "2026-04-01", "amount": "2000.00"},
        {"due_date": "2026-05-01", "amount": "2000.00"},
    ],
}


_SALE_ANSWER = {
    "id": "2e4f6a8b-0c1d-4e2f-9a3b-5c7d9e1f3a5b",
    "origin": "call",
    "lead_id": "3b5d7f9a-1c3e-4a5b-8c7d-9e0f1a2b3c4d",
    "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    "closer_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
    "setter_id": None,
    "closed_at": "2026-03-02T15:04:05Z",
    "currency": "USD",
    "contract_value": 6000,
    "cash_collected": 2000,
    "payment_id": "8c0e2a4b-6d8f-4a1c-9e3b-5d7f9a1c3e5b",
    "payment_plan": "split",
    "instalments": [
        {"due_date": "2026-04-01", "amount": 2000},
        {"due_date": "2026-05-01", "amount": 2000},
    ],
}


_FORM_ERRORS = (*WRITE_ERRORS, 404)


_DRAFT_CLOSED = response_example(
    "refused.draft_closed",
    {
        "error": {
            "reason": "refused.draft_closed",
            "message": "This draft was filed already; file without draft_id or check another.",
        },
        "field": "draft_id",
    },
    409,
)


file_post_call_form = extend_schema(
    operation_id="filePostCallForm",
    summary="File a post-call form",
    description="What happened on a booked call: attendance (showed|no_show), the "
    "outcome (required when showed; none for a no-show), offer_made, reason, notes, and "
    "for closed or deposit the sale (contract_value required, cash_collected, "
    "payment_plan, instalments). Sets the call's attendance and offer, records an "
    "outcome (the call's outcome becomes its latest), and for a sale records it with its "
    "instalments and a succeeded payment for cash_collected. The member must hold the "
    "call's closer or setter slot, else 403 refused.member_scope; an unknown call_id "
    "answers 404; a cancelled or rescheduled call 400. " + _FORM_DOC,
    parameters=[IDEMPOTENCY_KEY],
    request=PostCallFormSerializer,
    responses={201: PostCallAnswerSerializer, **errors(*_FORM_ERRORS)},
    examples=[
        request_example("Closed with a split plan", _POST_CALL_REQUEST),
        response_example(
            "Filed",
            {
                "form": "post-call",
                "submission_id": _SUBMISSION,
                "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                "filed_at": "2026-03-02T15:04:05Z",
                "draft_id": None,
                "call": {
                    "id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
                    "attendance": "showed",
                    "offer_made": True,
                    "outcome": "closed",
                },
                "outcome": {
                    "id": "1a3c5e7f-9b0d-4f2a-8c4e-6a8c0e2a4c6e",
                    "result": "closed",
                    "offer_made": True,
                    "reason": "",
                    "at": "2026-03-02T15:04:05Z",
                },
                "sale": _SALE_ANSWER,
            },
            201,
        ),
        _DRAFT_CLOSED,
    ],
)


file_past_call_form = extend_schema(
    operation_id="filePastCallForm",
    summary="File a past-call form",
    description="A call that happened with no booking: lead (its id, or {name, email}: "
    "the lead with that email, else a new one), occurred_at (with an offset, not in the "
    "future), outcome, offer_made, reason, notes, and for closed or deposit the sale "
    "fields. Records an outcome on the lead by the member, and a sale (the member as "
    "closer). An unknown lead id answers 404. " + _FORM_DOC,
    parameters=[IDEMPOTENCY_KEY],
    request=PastCallFormSerializer,
    responses={201: PastCallAnswerSerializer, **errors(*_FORM_ERRORS)},
    examples=[
        request_example(
            "Follow-up with a new lead",
            {
                "submission_id": _SUBMISSION,
                "lead": {"name": "Dana Reyes", "email": "dana@example.com"},
                "occurred_at": "2026-03-02T10:00:00-05:00",
                "outcome": "follow_up",
                "offer_made": True,
                "reason": "Wants to talk to her partner",
            },
        )
    ],
)


file_dm_close_form = extend_schema(
    operation_id="fileDmCloseForm",
    summary="File a DM-close form",
    description="A sale agreed over messages, with no call: lead (id, or {name, email}), "
    "platform, closed_at (with an offset, not in the future) and the sale fields "
    "(contract_value required). Records a sale of origin dm with the member in the "
    "setter slot, and a succeeded payment for cash_collected. " + _FORM_DOC,
    parameters=[IDEMPOTENCY_KEY],
    request=DmCloseFormSerializer,
    responses={201: DmCloseAnswerSerializer, **errors(*_FORM_ERRORS)},
    examples=[
        request_example(
            "Paid in full on Instagram",
            {
                "submission_id": _SUBMISSION,
                "lead": "3b5d7f9a-1c3e-4a5b-8c7d-9e0f1a2b3c4d",
                "platform": "instagram",
                "closed_at": "2026-03-02T18:30:00+00:00",
                "contract_value": 1500,
                "cash_collected": 1500,
                "payment_plan": "paid_in_full",
            },
        )
    ],
)


file_eod_form = extend_schema(
    operation_id="fileEodForm",
    summary="File the member's end-of-day report",
    description="date (the local day in the workspace timezone; default today there, never "
    "after it) and fields: counts (whole numbers from 0) and text by snake_case name. "
    "One report per member per day: the first filing answers 201, a later one for the same "
    "day replaces its fields and answers 200 with edited: true. submission_id is optional "
    "here. " + _FORM_DOC,
    parameters=[IDEMPOTENCY_KEY],
    request=EodFormSerializer,
    responses={
        201: EodAnswerSerializer,
        200: EodAnswerSerializer,
        **errors(*_FORM_ERRORS),
    },
    examples=[
        request_example(
            "A setter's day",
            {
                "date": "2026-03-02",
                "fields": {
                    "dials": 84,
                    "conversations": 19,
                    "calls_booked": 4,
                    "notes": "Two no-shows rebooked for Thursday.",
                },
            },
        )
    ],
)


# --- Drafts --------------------------------------------------------------------------------

list_drafts = extend_schema(
    operation_id="listDrafts",
    summary="Open drafts",
    description="Drafts not yet filed, oldest first. A closer's, setter's or SDR's session "
    "token sees only drafts for them; a workspace API token and an owner's, admin's or "
    "manager's session token see all.",
    responses={200: DraftListSerializer, **errors(*READ_ERRORS)},
    examples=[
        response_example(
            "One open draft",
            {
                "drafts": [
                    {
                        "id": "9e7c5a3b-1d2f-4e6a-8b0c-2d4f6a8c0e1b",
                        "form": "eod",
                        "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                        "fields": {"fields": {"dials": 80, "conversations": 14}},
                        "status": "open",
                        "created_at": "2026-03-02T21:00:00Z",
                        "created_by": {
                            "kind": "workspace_token",
                            "id": "1c3e5a7b-9d0f-4b2a-8c4e-6a8b0c2d4e6f",
                            "label": "Dialer sync",
                        },
                    }
                ]
            },
        )
    ],
)


create_draft = extend_schema(
    operation_id="createDraft",
    summary="Propose a draft of a form for a member to check",
    description="form (post-call, past-call, dm-close or eod), member_id (who must check "
    "it; with a session token it defaults to the signed-in member, and a closer, setter or "
    "SDR may propose only for themselves: else 403 refused.member_scope) and fields (the "
    "form's own members, any may be left out). A draft never carries money: any member "
    "anywhere in fields named cash_collected, contract_value, payment_plan or instalments, "
    "or whose name contains cash, revenue, payment or instalment, answers 422 "
    "refused.cash_figures naming it, before any other check of fields. An unknown "
    "member_id answers 404. Idempotent on the Idempotency-Key header.",
    parameters=[IDEMPOTENCY_KEY],
    request=DraftCreateSerializer,
    responses={
        201: DraftSerializer,
        **errors(
            *WRITE_ERRORS,
            404,
            extra={
                422: (
                    "refused.cash_figures: the draft carries money; or "
                    "refused.idempotency_key_reused.",
                    [
                        response_example(
                            "refused.cash_figures",
                            {
                                "error": {
                                    "reason": "refused.cash_figures",
                                    "message": "A draft never carries money: leave out "
                                    "fields.payment; the member enters it when filing.",
                                },
                                "field": "fields.payment",
                            },
                            422,
                        )
                    ],
                )
            },
        ),
    },
    examples=[
        request_example(
            "A post-call draft",
            {
                "form": "post-call",
                "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                "fields": {
                    "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
                    "attendance": "showed",
                    "outcome": "follow_up",
                    "notes": "From the call transcript: asked for a case study.",
                },
            },
        )
    ],
)


# --- Ad spend ------------------------------------------------------------------------------

_AD_SPEND_REQUEST = {
    "id": "23851234567890-2026-03-04",
    "date": "2026-03-04",
    "platform": "meta",
    "utm_source": "facebook",
    "utm_medium": "paid_social",
    "utm_campaign": "spring-webinar",
    "campaign_id": "23851234567890",
    "campaign_name": "spring-webinar",
    "impressions": 18250,
    "clicks": 412,
    "amount": "412.37",
}
_AD_SPEND_ANSWER = {
    **_AD_SPEND_REQUEST,
    "utm_content": None,
    "currency": "USD",
    "amount": 412.37,
}

create_ad_spend = extend_schema(
    operation_id="createAdSpend",
    tags=["ad spend"],
    summary="Record what a campaign's ads cost on a day",
    description="One ad spend record of the token's workspace: `id` is the record's own id "
    "(the platform's), `date` the day the money was spent in the workspace's timezone, "
    "`platform` a key (meta, google, tiktok...), the UTM values the ads carry (absent or null: "
    "none), the optional campaign, impressions and clicks, and `amount` in major units of the "
    "workspace currency (zero or more; a `currency` other than the workspace's is refused). "
    "Writing the same `id` again replaces the record (platforms revise recent days): 201 "
    "when it is made, 200 when it replaced one. A bad or unknown member answers 400 naming "
    "it. Each write is audited and sends `ad_spend.updated` when the record changed. Scope "
    "`data:write` (a person's session: owner or admin). The records are read with GET "
    "/api/v1/ad-spend and the acquisition figures (/api/v1/acquisition) of the figures API.",
    parameters=[IDEMPOTENCY_KEY],
    request=AdSpendWriteSerializer,
    responses={
        201: AdSpendRecordSerializer,
        200: AdSpendRecordSerializer,
        **errors(*WRITE_ERRORS),
    },
    examples=[
        request_example("A day of a Meta campaign", _AD_SPEND_REQUEST),
        response_example("Made", _AD_SPEND_ANSWER, 201),
        response_example("Replaced", _AD_SPEND_ANSWER, 200),
    ],
)


# --- Goals ---------------------------------------------------------------------------------

GOAL_MONTH = OpenApiParameter(
    "month",
    {"type": "string", "pattern": MONTH_PATTERN},
    OpenApiParameter.PATH,
    description="A month of the workspace's calendar, YYYY-MM (years 0002 to 9998). Another text answers 400 "
    "naming month.",
)
_GOALS_REQUEST = {
    "goals": [
        {"metric": "payments.cash_collected", "target": 150000},
        {"metric": "calls.taken", "member": "5b1d2a64-8f3e-4c1b-9a57-2e6f0c9d4a10", "target": 20},
    ]
}
_GOALS_ANSWER = {
    "month": "2026-06",
    "goals": [
        {
            "metric": "payments.cash_collected",
            "member": None,
            "unit": "money",
            "target": 150000,
            "currency": "USD",
        },
        {
            "metric": "calls.taken",
            "member": {"id": "5b1d2a64-8f3e-4c1b-9a57-2e6f0c9d4a10", "name": "Jordan Closer"},
            "unit": "count",
            "target": 20,
        },
    ],
}

replace_goals = extend_schema(
    operation_id="replaceGoals",
    tags=["goals"],
    summary="Set a month's goals, replacing the ones it had",
    description="The month's goals become those of the body: a goal of the month that is not "
    "named again is removed. Each goal is set on a `metric` (leads.created, calls.booked, "
    "calls.taken, calls.closed, payments.cash_collected, payments.revenue_booked) for a "
    "`member` (absent or null: the whole workspace), with a `target`: a count is a whole "
    "number of zero or more, money is in major units of the workspace currency. A member's "
    "figure is read in their slot: leads and bookings as the setter, the rest as the closer. "
    "An unknown metric, a member not of the workspace, a negative or fractional count, a "
    "metric set twice for the same member (or twice for the workspace) or a bad month "
    "answers 400 naming the field and the item's index (`goals.1.target`), and nothing is "
    "written. The answer is the month's goals, workspace goals first, then by member name. "
    "Each write is audited (`goals.replaced`) and sends `goal.updated`. Scope `data:write` "
    "(a person's session: owner, admin or manager). Read the goals against the figures with "
    "GET /api/v1/goals of the figures API.",
    parameters=[GOAL_MONTH, IDEMPOTENCY_KEY],
    request=GoalsReplaceSerializer,
    responses={200: GoalsMonthSerializer, **errors(*WRITE_ERRORS)},
    examples=[
        request_example("A workspace goal and a closer's", _GOALS_REQUEST),
        response_example("The month's goals", _GOALS_ANSWER, 200),
    ],
)
