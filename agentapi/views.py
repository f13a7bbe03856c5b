"""Routes of the agent API. Thin: the base views run the checks of PRODUCT.md §4 up to
the role; each handler looks up what answers 404, then writes through self.idempotent
with a perform() that validates the body (400) and calls one service."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from core.errors import ApiError, Forbidden, InvalidField, InvalidParameter, Unprocessable
from core.views import WorkspaceView
from figures.envelope import envelope_build
from figures.period import WHOLE_NUMBER, period_from_query
from figures.registry import figure_keys
from figures.schema import field_serializer, notes_serializer
from figures.selectors import member_board

from . import answers, selectors, services
from .schema import (
    FROM_TO,
    IDEMPOTENCY_KEY,
    READ_ERRORS,
    WORKSPACE_ID,
    WRITE_ERRORS,
    errors,
    request_example,
    response_example,
)
from .serializers import (
    DRAFT_FIELD_SERIALIZERS,
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
    PastCallAnswerSerializer,
    PastCallFormSerializer,
    PostCallAnswerSerializer,
    PostCallFormSerializer,
    WorkspaceListSerializer,
    cash_figure_path,
    validated,
)

COMPARE_DEFAULT_DAYS = 14
COMPARE_MAX_DAYS = 90


def _body(request) -> dict:
    """The body for look-ups before validation; perform() refuses a non-object body."""
    data = request.data
    return data if isinstance(data, dict) else {}


def _filed_response(filing: services.Filing, workspace) -> Response:
    """The answer of a filing: the first answer again for a repeated submission_id, else
    what it wrote (201; 200 for an EOD report edited), kept for a repeat."""
    earlier = filing.earlier
    if earlier is not None:
        return Response(
            earlier.response,
            status=earlier.status_code,
            headers={"Idempotent-Replayed": "true"},
        )
    body = answers.filing_answer(filing, workspace)
    status_code = 200 if filing.edited else 201
    services.form_answer_keep(
        workspace=workspace, filing=filing, status_code=status_code, body=body
    )
    return Response(body, status=status_code)


def _money_context(workspace) -> dict:
    return {"exponent": workspace.currency_exponent, "currency": workspace.currency}


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


class DisplayView(WorkspaceView):
    required_scope = "read"

    @extend_schema(
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
    def get(self, request):
        return Response(DisplaySerializer(selectors.display_for(workspace=self.workspace)).data)


class WorkspaceDisplayView(WorkspaceView):
    required_scope = "read"
    workspace_url_kwarg = "workspaceId"
    agency_scope = "read"

    @extend_schema(
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
    def get(self, request, workspaceId):  # noqa: N803 (the path parameter's name)
        return Response(DisplaySerializer(selectors.display_for(workspace=self.workspace)).data)


class WorkspaceListView(WorkspaceView):
    required_scope = "read"

    @extend_schema(
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
    def get(self, request):
        workspaces = selectors.workspaces_reached(principal=self.principal)
        return Response(WorkspaceListSerializer({"workspaces": workspaces}).data)


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


class MyBoardView(WorkspaceView):
    required_scope = "read"
    needs_member_session = True
    allow_reporting_members = True

    @extend_schema(
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
    def get(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        data = member_board(workspace=self.workspace, member=self.principal.member, period=period)
        return Response(envelope_build(workspace=self.workspace, period=period, data=data))


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


class ChangeLogBase(WorkspaceView):
    """Reads need `read`; writes `data:write` (an agency token: `config:plan`)."""

    @property
    def required_scope(self):
        return "data:write" if self.request.method == "POST" else "read"

    @property
    def agency_scope(self):
        return "config:plan" if self.request.method == "POST" else "read"

    def list_changes(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        changes = selectors.changes_list(workspace=self.workspace, period=period)
        return Response(
            ChangeListSerializer(
                {
                    "period": {
                        "from": period.first_day,
                        "to": period.last_day,
                        "timezone": self.workspace.timezone,
                    },
                    "changes": changes,
                }
            ).data
        )

    def create_change(self, request):
        def perform():
            data = validated(ChangeCreateSerializer, request.data)
            entry = services.change_create(
                workspace=self.workspace, actor=self.principal.actor, **data
            )
            return Response(ChangeEntrySerializer(entry).data, status=201)

        return self.idempotent(request, perform)


class ChangeLogView(ChangeLogBase):
    @extend_schema(
        operation_id="listChanges",
        summary="Change-log entries of the token's workspace in a period",
        description=_CHANGE_LIST_DOC + "A workspace API token or an owner's, admin's or "
        "manager's session token with `read`.",
        parameters=FROM_TO,
        responses={200: ChangeListSerializer, **errors(*READ_ERRORS)},
        examples=[_CHANGE_LIST_EXAMPLE],
    )
    def get(self, request):
        return self.list_changes(request)

    @extend_schema(
        operation_id="createChange",
        summary="Record a change-log entry against the token's workspace",
        description=_CHANGE_WRITE_DOC + "An agency token uses the workspace-named route.",
        parameters=[IDEMPOTENCY_KEY],
        request=ChangeCreateSerializer,
        responses={201: ChangeEntrySerializer, **errors(*WRITE_ERRORS)},
        examples=[_CHANGE_REQUEST, response_example("Recorded", _CHANGE_ANSWER, 201)],
    )
    def post(self, request):
        return self.create_change(request)


class WorkspaceChangeLogView(ChangeLogBase):
    workspace_url_kwarg = "workspaceId"

    @extend_schema(
        operation_id="listWorkspaceChanges",
        summary="Change-log entries of a named workspace in a period",
        description=_CHANGE_LIST_DOC + "Same as listChanges, naming the workspace: the form an "
        "agency token (scope `read`) uses for its agency's workspaces.",
        parameters=[WORKSPACE_ID, *FROM_TO],
        responses={200: ChangeListSerializer, **errors(*READ_ERRORS, 404)},
        examples=[_CHANGE_LIST_EXAMPLE],
    )
    def get(self, request, workspaceId):  # noqa: N803
        return self.list_changes(request)

    @extend_schema(
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
    def post(self, request, workspaceId):  # noqa: N803
        return self.create_change(request)


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


class CompareAroundChangeView(WorkspaceView):
    required_scope = "read"

    @extend_schema(
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
    def get(self, request, id):  # noqa: A002 (the path parameter's name)
        change = selectors.change_get(workspace=self.workspace, change_id=id)
        days = self._days(request.query_params.get("days"))
        try:
            period, data = selectors.change_compare(
                workspace=self.workspace, change=change, days=days
            )
        except OverflowError:
            raise InvalidParameter(
                "days",
                f"{days} days before or after this entry's effective_at fall outside the dates "
                "this service can read.",
            ) from None
        data = {"change": ChangeEntrySerializer(change).data, **data}
        return Response(envelope_build(workspace=self.workspace, period=period, data=data))

    @staticmethod
    def _days(raw) -> int:
        if raw is None or raw == "":
            return COMPARE_DEFAULT_DAYS
        # ASCII digits only: str.isdigit() and int() also take "²" or "١٤".
        if not WHOLE_NUMBER.fullmatch(raw) or not 1 <= int(raw) <= COMPARE_MAX_DAYS:
            raise InvalidParameter(
                "days", f"days must be a whole number from 1 to {COMPARE_MAX_DAYS}, not {raw!r}."
            )
        return int(raw)


# --- Forms ---------------------------------------------------------------------------------


class FormView(WorkspaceView):
    """A member files a sales form with their own session token."""

    required_scope = "data:write"
    needs_member_session = True
    allow_reporting_members = True

    def draft_for(self, body):
        """The open draft this filing checks (404 unless it is the member's own)."""
        if body.get("draft_id") is None or selectors.parse_uuid(body["draft_id"]) is None:
            return None
        return selectors.draft_get_for_member(
            workspace=self.workspace, member=self.principal.member, draft_id=body["draft_id"]
        )

    def lead_for(self, body):
        """The lead named by id (404 when unknown); None when named by name and email."""
        ref = body.get("lead")
        lead_id = ref.get("id") if isinstance(ref, dict) else ref
        if lead_id is None or selectors.parse_uuid(lead_id) is None:
            return None
        return selectors.lead_get(workspace=self.workspace, lead_id=lead_id)

    def form_data(self, serializer_class, request) -> dict:
        return validated(serializer_class, request.data, context=_money_context(self.workspace))

    def file_lead_form(self, request, serializer_class, file_form):
        """File a form that names its lead (past-call, DM close) under the request's key."""
        body = _body(request)
        lead = self.lead_for(body)
        draft = self.draft_for(body)

        def perform():
            filing = file_form(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                lead=lead,
                data=self.form_data(serializer_class, request),
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


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


class PostCallFormView(FormView):
    @extend_schema(
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
    def post(self, request):
        body = _body(request)
        call = None
        if selectors.parse_uuid(body.get("call_id")) is not None:
            call = selectors.call_get(workspace=self.workspace, call_id=body["call_id"])
            member = self.principal.member
            if member.pk not in (call.closer_id, call.setter_id):
                raise Forbidden(
                    "You hold neither the closer nor the setter slot of this call; only they "
                    "file its post-call form.",
                    reason="refused.member_scope",
                )
        draft = self.draft_for(body)

        def perform():
            data = self.form_data(PostCallFormSerializer, request)
            filing = services.form_post_call_file(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                call=call,
                data=data,
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


class PastCallFormView(FormView):
    @extend_schema(
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
    def post(self, request):
        return self.file_lead_form(request, PastCallFormSerializer, services.form_past_call_file)


class DmCloseFormView(FormView):
    @extend_schema(
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
    def post(self, request):
        return self.file_lead_form(request, DmCloseFormSerializer, services.form_dm_close_file)


class EodFormView(FormView):
    @extend_schema(
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
    def post(self, request):
        body = _body(request)
        draft = self.draft_for(body)

        def perform():
            data = self.form_data(EodFormSerializer, request)
            filing = services.form_eod_file(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                data=data,
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


# --- Drafts --------------------------------------------------------------------------------


class DraftsView(WorkspaceView):
    """API tokens propose drafts; members check and file them through the forms."""

    allow_reporting_members = True

    @property
    def required_scope(self):
        return "data:write" if self.request.method == "POST" else "read"

    def _own_only(self) -> bool:
        principal = self.principal
        return principal.is_session and not principal.member.is_workspace_wide

    @extend_schema(
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
    def get(self, request):
        member = self.principal.member if self._own_only() else None
        drafts = selectors.drafts_open(workspace=self.workspace, member=member)
        return Response(DraftListSerializer({"drafts": drafts}).data)

    @extend_schema(
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
    def post(self, request):
        body = _body(request)
        principal = self.principal
        target = None
        named = body.get("member_id")
        if (
            self._own_only()
            and named is not None
            and selectors.parse_uuid(named) != principal.member.pk
        ):
            raise Forbidden(
                f"A {principal.member.role} proposes drafts only for themselves.",
                reason="refused.member_scope",
            )
        if selectors.parse_uuid(body.get("member_id")) is not None:
            target = selectors.member_get(workspace=self.workspace, member_id=body["member_id"])

        def perform():
            if not isinstance(request.data, dict):
                raise ApiError(
                    "The body must be a JSON object.", reason="invalid_body", field="body"
                )
            cash_path = cash_figure_path(request.data.get("fields"))
            if cash_path is not None:
                raise Unprocessable(
                    f"A draft never carries money: leave out {cash_path}; the member enters "
                    "it when filing.",
                    reason="refused.cash_figures",
                    field=cash_path,
                )
            data = validated(DraftCreateSerializer, request.data)
            member = target or (principal.member if principal.is_session else None)
            if member is None:
                raise InvalidField("member_id", "member_id: name the member who must check it.")
            fields = request.data.get("fields") or {}
            checked = validated(
                DRAFT_FIELD_SERIALIZERS[data["form"]],
                fields,
                context={"draft": True, **_money_context(self.workspace)},
                prefix="fields",
                partial=True,
            )
            draft = services.draft_create(
                workspace=self.workspace,
                actor=principal.actor,
                member=member,
                form=data["form"],
                fields=fields,
                checked=checked,
            )
            return Response(DraftSerializer(draft).data, status=201)

        return self.idempotent(request, perform)
