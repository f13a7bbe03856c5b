"""Routes of the agent API. Thin: the base views run the checks of docs/errors.md ("Order of checks") up to
the role; each handler looks up what answers 404, then writes through self.idempotent
with a perform() that validates the body (400) and calls one service.

Here: the display, the workspaces, the member's board and the change log, each handler
under its description (extend_schema), as the agency API's are; the forms and drafts are
in agentapi/form_views.py, ad spend and goals in agentapi/record_views.py, the error
answers and examples the descriptions share in agentapi/serializers.py."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from core.errors import InvalidParameter
from core.input import validated
from core.openapi import IDEMPOTENCY_KEY
from core.views import WorkspaceView
from figures.envelope import envelope_build
from figures.period import period_from_query, shown_value, whole_number
from figures.registry import figure_keys
from figures.schema import field_serializer, notes_serializer
from figures.selectors import member_board

from . import selectors, services
from .serializers import (
    READ_ERRORS,
    WRITE_ERRORS,
    ChangeCreateSerializer,
    ChangeEntrySerializer,
    ChangeListSerializer,
    DisplaySerializer,
    WorkspaceListSerializer,
    errors,
    request_example,
    response_example,
)

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
    def get(self, request, workspaceId):  # the path parameter's name
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
        board = member_board(workspace=self.workspace, member=self.principal.member, period=period)
        return Response(envelope_build(workspace=self.workspace, period=period, data=board.data))


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
    def get(self, request, workspaceId):
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
    def post(self, request, workspaceId):
        return self.create_change(request)


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
    def get(self, request, id):  # the path parameter's name
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
        days = whole_number(raw)
        if days is None or not 1 <= days <= COMPARE_MAX_DAYS:
            raise InvalidParameter(
                "days",
                f"days must be a whole number from 1 to {COMPARE_MAX_DAYS}, not "
                f"{shown_value(raw)}.",
            )
        return days
