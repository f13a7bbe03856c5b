"""The records the agent API writes besides the forms: a campaign's ad spend on a day
(one route with the figures API's read of it) and a month's goals. Each handler sits
under its description (extend_schema), as in agentapi/views.py."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from core.errors import Forbidden, InvalidField
from core.input import validated
from core.openapi import IDEMPOTENCY_KEY
from core.views import WorkspaceView
from figures import schema as figures_schema
from figures.envelope import envelope_build
from figures.period import period_from_query
from figures.schema import AdSpendRecordSerializer, GoalsMonthSerializer
from figures.selectors import ad_spend_list
from figures.views import ad_spend_limit, month_of
from workspaces.models import Member
from workspaces.services import GoalsRefused, RecordInvalid, goals_replace
from workspaces.services.goals import GOAL_ROLES, MONTH_PATTERN
from workspaces.shapes import ad_spend_shape, goals_month_shape

from . import services
from .serializers import (
    WRITE_ERRORS,
    AdSpendWriteSerializer,
    GoalsReplaceSerializer,
    errors,
    money_context,
    request_example,
    response_example,
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


class AdSpendView(WorkspaceView):
    """GET lists the period's spend records (the figures API, scope `read`); POST writes one
    (the agent API, `data:write`; of a person's session, the owner or admin role). One
    route, described in each API by the method it holds (AdSpendReadRoute and
    AdSpendWriteRoute)."""

    @property
    def required_scope(self):
        return "read" if self.request.method in ("GET", "HEAD") else "data:write"

    @property
    def reads_from_replica(self):
        return self.request.method in ("GET", "HEAD")

    def check_access(self, principal, kwargs) -> None:
        super().check_access(principal, kwargs)
        if (
            self.request.method not in ("GET", "HEAD")
            and principal.is_session
            and principal.member.role not in ("owner", "admin")
        ):
            raise Forbidden(
                f"A {principal.member.role} reads the ad spend; owners and admins write it.",
                reason="refused.member_scope",
            )

    def list_records(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        limit = ad_spend_limit(request.query_params)
        figures = ad_spend_list(workspace=self.workspace, period=period, limit=limit)
        return Response(
            envelope_build(
                workspace=self.workspace, period=period, data=figures.data, notes=figures.notes
            )
        )

    def write_record(self, request):
        def perform():
            data = validated(
                AdSpendWriteSerializer, request.data, context=money_context(self.workspace)
            )
            spend, created = services.ad_spend_write(
                workspace=self.workspace, actor=self.principal.actor, data=data
            )
            return Response(ad_spend_shape(spend, self.workspace), status=201 if created else 200)

        return self.idempotent(request, perform)

    @figures_schema.figures_operation(
        "listAdSpend", "ad_spend", extra=[figures_schema.AD_SPEND_LIMIT]
    )
    def get(self, request):
        return self.list_records(request)

    @extend_schema(
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
    def post(self, request):
        return self.write_record(request)


class AdSpendReadRoute(AdSpendView):
    """The route as the figures API describes it: its GET."""

    @extend_schema(exclude=True)
    def post(self, request):
        return self.write_record(request)


class AdSpendWriteRoute(AdSpendView):
    """The route as the agent API describes it: its POST."""

    @extend_schema(exclude=True)
    def get(self, request):
        return self.list_records(request)


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


class GoalsMonthView(WorkspaceView):
    """PUT replaces a month's goals (`data:write`; of a person's session, an owner, admin
    or manager). The goals are read with GET /api/v1/goals of the figures API."""

    required_scope = "data:write"

    def check_access(self, principal, kwargs) -> None:
        super().check_access(principal, kwargs)
        if principal.is_session and principal.member.role not in GOAL_ROLES:
            raise Forbidden(
                GoalsRefused(principal.member.role).message, reason="refused.member_scope"
            )

    @extend_schema(
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
    def put(self, request, month):
        first_day = month_of(month)

        def perform():
            data = validated(
                GoalsReplaceSerializer, request.data, context=money_context(self.workspace)
            )
            items = data["goals"]
            named = {item["member"] for item in items if item.get("member") is not None}
            members = {member.pk: member for member in self.scoped(Member).filter(pk__in=named)}
            goals = []
            for index, item in enumerate(items):
                member = None
                if item.get("member") is not None:
                    member = members.get(item["member"])
                    if member is None:
                        field = f"goals.{index}.member"
                        raise InvalidField(field, f"{field}: no member of this workspace has it.")
                goals.append({"metric": item["metric"], "member": member, "target": item["target"]})
            principal = self.principal
            try:
                held = goals_replace(
                    workspace=self.workspace,
                    month=first_day,
                    goals=goals,
                    actor=principal.actor,
                    by_role=principal.member.role if principal.is_session else None,
                )
            except RecordInvalid as error:
                raise InvalidField(error.field, f"{error.field}: {error.message}") from None
            except GoalsRefused as error:
                raise Forbidden(error.message, reason="refused.member_scope") from None
            return Response(goals_month_shape(self.workspace, first_day, held))

        return self.idempotent(request, perform)
