"""Routes of the Read-Only Figures API: parse the query, call one selector, render.

Every route stands on core.views.WorkspaceView with its defaults: agency tokens answer
401, closers', setters' and SDRs' sessions 403 refused.member_scope, tokens without
`read` 403 insufficient_scope, before any handler here runs.
"""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from core.errors import InvalidParameter
from core.ids import parse_uuid
from core.views import WorkspaceView
from workspaces.models import Member
from workspaces.services.goals import GOAL_METRICS, month_parse

from . import schema, selectors
from .envelope import envelope_build
from .period import period_from_query, shown_value, whole_number
from .schema import ERROR_RESPONSES


class WhoamiView(WorkspaceView):
    # Anyone with a token of the workspace may ask who they are.
    allow_reporting_members = True

    @extend_schema(
        operation_id="whoami",
        summary="The workspace and token this request is authenticated as",
        description="The first call an integration should make. Not an envelope.",
        responses={
            200: inline_serializer(
                "Whoami",
                {
                    "workspace": inline_serializer(
                        "WhoamiWorkspace", {"id": serializers.CharField()}
                    ),
                    "token": inline_serializer("WhoamiToken", {"name": serializers.CharField()}),
                    "access": serializers.ChoiceField(choices=["read-only"]),
                },
            ),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request):
        principal = self.principal
        if principal.api_token is not None:
            token_name = principal.api_token.name
        else:
            token_name = principal.access_token.application.name
        return Response(
            {
                "workspace": {"id": str(self.workspace.pk)},
                "token": {"name": token_name},
                # No token of this API ever writes sales records through it.
                "access": "read-only",
            }
        )


def _int_param(params, name: str, *, default: int, low: int, high: int | None, cap: bool):
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    # ASCII digits only: int() also takes "١٢", "１２", " 12", "+12" and "1_2".  # noqa: RUF003
    value = whole_number(raw)
    if value is None:
        raise InvalidParameter(name, f"{name} must be a whole number, not {shown_value(raw)}.")
    if value < low or (high is not None and value > high and not cap):
        raise InvalidParameter(
            name, f"{name} must be between {low} and {high}; {shown_value(raw)} cannot be used."
        )
    return min(value, high) if high is not None else value


class FiguresView(WorkspaceView):
    """A figures route: answers the Envelope for the request's workspace. It only reads,
    so once the token's access is checked its reads may come from a replica."""

    reads_from_replica = True

    def period(self, request):
        return period_from_query(workspace=self.workspace, params=request.query_params)

    def envelope(self, *, period, figures: selectors.Figures):
        return Response(
            envelope_build(
                workspace=self.workspace, period=period, data=figures.data, notes=figures.notes
            )
        )


class CallsView(FiguresView):
    @schema.figures_operation("listCallFigures", "calls")
    def get(self, request):
        period = self.period(request)
        figures = selectors.calls_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class OutcomesView(FiguresView):
    @schema.figures_operation("listOutcomes", "outcomes")
    def get(self, request):
        period = self.period(request)
        figures = selectors.outcomes_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class PaymentsView(FiguresView):
    @schema.figures_operation("listPaymentFigures", "payments")
    def get(self, request):
        period = self.period(request)
        figures = selectors.payments_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class LeadsView(FiguresView):
    @schema.figures_operation("listLeads", "leads", extra=[schema.LIMIT])
    def get(self, request):
        period = self.period(request)
        limit = _int_param(
            request.query_params,
            "limit",
            default=selectors.LEADS_LIMIT_DEFAULT,
            low=1,
            high=selectors.LEADS_LIMIT_MAX,
            cap=True,
        )
        figures = selectors.leads_list(workspace=self.workspace, period=period, limit=limit)
        return self.envelope(period=period, figures=figures)


class LeadJourneyView(FiguresView):
    @schema.figures_operation("getLeadJourney", "journey", dated=False, extra=[schema.LEAD_ID])
    def get(self, request, id):  # the path parameter is named id in the contract
        figures = selectors.lead_journey(workspace=self.workspace, lead_id=id)
        return self.envelope(period=None, figures=figures)


class SpeedToLeadView(FiguresView):
    @schema.figures_operation(
        "listSpeedToLead", "speed_to_lead", dated=False, extra=[schema.WITHIN_MINUTES]
    )
    def get(self, request):
        within = _int_param(
            request.query_params,
            "withinMinutes",
            default=selectors.WITHIN_MINUTES_DEFAULT,
            low=1,
            high=selectors.WITHIN_MINUTES_MAX,
            cap=False,
        )
        figures = selectors.speed_to_lead(workspace=self.workspace, within_minutes=within)
        return self.envelope(period=None, figures=figures)


class EodView(FiguresView):
    @schema.figures_operation("listEodFigures", "eod")
    def get(self, request):
        period = self.period(request)
        figures = selectors.eod_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class AttributionView(FiguresView):
    @schema.figures_operation("listAttribution", "attribution")
    def get(self, request):
        period = self.period(request)
        figures = selectors.attribution_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class AcquisitionView(FiguresView):
    @schema.figures_operation("listAcquisition", "acquisition", extra=[schema.BY_PARAMETER])
    def get(self, request):
        by = request.query_params.get("by") or selectors.BY_DEFAULT
        if by not in selectors.BY:
            raise InvalidParameter("by", f"by must be campaign or source, not {shown_value(by)}.")
        period = self.period(request)
        figures = selectors.acquisition_figures(workspace=self.workspace, period=period, by=by)
        return self.envelope(period=period, figures=figures)


def ad_spend_limit(params) -> int:
    """The `limit` of GET /api/v1/ad-spend: 1 to 500, default 100, a larger one capped."""
    return _int_param(
        params,
        "limit",
        default=selectors.AD_SPEND_LIMIT_DEFAULT,
        low=1,
        high=selectors.AD_SPEND_LIMIT_MAX,
        cap=True,
    )


class CommissionView(FiguresView):
    @schema.figures_operation("listCommission", "commission")
    def get(self, request):
        period = self.period(request)
        figures = selectors.commission_figures(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


class FunnelView(FiguresView):
    @schema.figures_operation("getFunnel", "funnel", extra=[schema.FUNNEL])
    def get(self, request):
        period = self.period(request)
        figures = selectors.funnel_figures(
            workspace=self.workspace,
            period=period,
            funnel_key=request.query_params.get("funnel") or None,
        )
        return self.envelope(period=period, figures=figures)


class WebinarView(FiguresView):
    @schema.figures_operation("getWebinar", "webinar", extra=[schema.EVENT_ID])
    def get(self, request):
        period = self.period(request)
        event_id = request.query_params.get("eventId") or None
        figures = selectors.webinar_figures(
            workspace=self.workspace, period=period, event_id=event_id
        )
        # One named event is its own cohort: the period does not apply to it.
        return self.envelope(period=None if event_id else period, figures=figures)


def month_of(raw: str):
    """The first day of the month a `month` parameter names (the figures' query, the agent
    API's path); 400 naming month."""
    first_day = month_parse(raw)
    if first_day is None:
        raise InvalidParameter(
            "month",
            f"month must be a month written YYYY-MM (of the years 0002 to 9998), not "
            f"{shown_value(raw)}.",
        )
    return first_day


def goal_month(workspace, params):
    """The month `month` names, default this month in the workspace's zone."""
    raw = params.get("month")
    if raw is None or raw == "":
        return selectors.this_month(workspace)
    return month_of(raw)


class GoalsView(FiguresView):
    @schema.figures_operation("listGoals", "goals", dated=False, extra=[schema.MONTH])
    def get(self, request):
        first_day = goal_month(self.workspace, request.query_params)
        period = selectors.goal_month_period(workspace=self.workspace, first_day=first_day)
        figures = selectors.goals_figures(workspace=self.workspace, first_day=first_day)
        return self.envelope(period=period, figures=figures)


class LeaderboardView(FiguresView):
    @schema.figures_operation("getLeaderboard", "leaderboard", extra=[schema.ROLE])
    def get(self, request):
        role = request.query_params.get("role") or selectors.ROLE_DEFAULT
        if role not in selectors.ROLES:
            raise InvalidParameter(
                "role", f"role must be closer or setter, not {shown_value(role)}."
            )
        period = self.period(request)
        figures = selectors.leaderboard(workspace=self.workspace, period=period, role=role)
        return self.envelope(period=period, figures=figures)


class AuditEventsView(FiguresView):
    @schema.figures_operation("listAuditEvents", "audit_events")
    def get(self, request):
        period = self.period(request)
        figures = selectors.audit_events_list(workspace=self.workspace, period=period)
        return self.envelope(period=period, figures=figures)


def _interval(params) -> str:
    """The `interval` parameter (default day); 400 naming interval for another."""
    interval = params.get("interval") or "day"
    if interval not in selectors.INTERVALS:
        raise InvalidParameter(
            "interval", f"interval must be day, week or month, not {interval!r}."
        )
    return interval


class SeriesView(FiguresView):
    @schema.series_operation()
    def get(self, request):
        params = request.query_params
        metric = params.get("metric") or ""
        if metric in selectors.GOAL_SERIES_METRICS:
            return self._goal_series(request, metric)
        if metric not in selectors.SERIES_METRICS:
            raise InvalidParameter(
                "metric",
                f"metric must name a figure with a series, not {metric!r}."
                if metric
                else "metric is required: name a figure with a series.",
                metrics=list(selectors.SERIES_METRICS_ALL),
            )
        interval = _interval(params)
        period = self.period(request)
        count = selectors.series_bucket_count(period, interval)
        if count > selectors.SERIES_POINTS_MAX:
            raise InvalidParameter(
                "interval",
                f"{period.first_day.isoformat()} to {period.last_day.isoformat()} by {interval} "
                f"makes {count} points; at most {selectors.SERIES_POINTS_MAX} are answered: "
                "use a longer interval or a shorter period.",
            )
        series = selectors.series_figures(
            workspace=self.workspace, period=period, metrics=[metric], interval=interval
        )
        data = {"metric": metric, "interval": interval, "points": series.data[metric]}
        return self.envelope(period=period, figures=selectors.Figures(data))

    def _goal_series(self, request, metric: str):
        """A month's goal by day or week: its actual through each, or what was expected by
        then (goal_metric, member, month name the goal)."""
        params = request.query_params
        for name in ("from", "to"):
            if params.get(name):
                raise InvalidParameter(
                    name, "A goal's series covers its month: give month=YYYY-MM, not from and to."
                )
        goal_metric = params.get("goal_metric") or ""
        if goal_metric not in GOAL_METRICS:
            raise InvalidParameter(
                "goal_metric",
                f"goal_metric must name the metric the goal is set on, one of "
                f"{', '.join(GOAL_METRICS)}, not {shown_value(goal_metric)}."
                if goal_metric
                else f"goal_metric is required: one of {', '.join(GOAL_METRICS)}.",
            )
        member = None
        if params.get("member"):
            member_id = parse_uuid(params["member"])
            member = (
                self.scoped(Member).filter(pk=member_id).first() if member_id is not None else None
            )
            if member is None:
                raise InvalidParameter(
                    "member",
                    f"No member of this workspace has the id {shown_value(params['member'])}.",
                )
        interval = _interval(params)
        first_day = goal_month(self.workspace, params)
        period = selectors.goal_month_period(workspace=self.workspace, first_day=first_day)
        buckets = [(first, last) for _, first, last in selectors.series_buckets(period, interval)]
        try:
            points = selectors.goal_series(
                workspace=self.workspace,
                first_day=first_day,
                series=metric,
                metric=goal_metric,
                member=member,
                buckets=buckets,
            )
        except LookupError:
            whose = f" of {member.name}" if member is not None else " of the workspace"
            raise InvalidParameter(
                "goal_metric",
                f"No goal{whose} on {goal_metric} is set for {first_day:%Y-%m}.",
            ) from None
        data = {
            "metric": metric,
            "interval": interval,
            "goal_metric": goal_metric,
            "member": None if member is None else {"id": str(member.pk), "name": member.name},
            "points": points,
        }
        return self.envelope(period=period, figures=selectors.Figures(data))
