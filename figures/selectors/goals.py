"""/goals and /leaderboard: a month's goals against the figures they are set on, and the
team ranked by what they closed or set.

A member's figure is read in their slot (workspaces.services.goals.GOAL_SLOTS): each
metric is one aggregate over the records /leads, /calls or /payments counts, grouped by
the slot's column, so the workspace's figure and every member's come from the same rows
(the workspace's is the sum of every group, records with nobody in the slot included).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import BigIntegerField, Count, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from core.times import local_today, workspace_zone
from workspaces.models import Goal, Member
from workspaces.services.goals import GOAL_SLOTS, MONEY_METRICS
from workspaces.shapes import goal_order_key

from .. import envelope as fields
from ..period import Period, local_midnight
from ..registry import COUNT, EMPTY_DENOMINATOR, MONEY, NOT_COMPUTED
from .base import Figures, Span, leads_created_in, live_calls
from .calls import calls_conditions
from .payments import payments_paid_in, sales_closed_in

_MINOR_SUM = {"output_field": BigIntegerField()}


def _metric_rows(*, workspace, span: Span, metric: str, now) -> tuple:
    """The records of [start, end) a goal metric counts, and what it adds up of them."""
    if metric == "leads.created":
        return leads_created_in(workspace=workspace, period=span), Count("pk")
    if metric.startswith("calls."):
        condition = calls_conditions(now)[metric.removeprefix("calls.")]
        return live_calls(workspace=workspace, period=span).filter(condition), Count("pk")
    if metric == "payments.cash_collected":
        rows = payments_paid_in(workspace=workspace, period=span)
        return rows, Coalesce(Sum("amount"), 0, **_MINOR_SUM)
    rows = sales_closed_in(workspace=workspace, period=span)
    return rows, Coalesce(Sum("contract_value"), 0, **_MINOR_SUM)


def _slot_totals(*, workspace, span: Span, metric: str, slot: str, now) -> dict:
    """{member id or None: the metric's figure} of the records of [start, end), grouped by
    the slot's column (None: the records nobody holds it on)."""
    rows, value = _metric_rows(workspace=workspace, span=span, metric=metric, now=now)
    grouped = rows.order_by().values_list(slot).annotate(value=value)
    return dict(grouped.values_list(slot, "value"))


# --- /goals ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GoalMonth:
    """A month of the workspace's calendar, as far as it has run at `now`."""

    first_day: date
    days: int
    elapsed: int  # its days through today: all of them once past, 0 before it starts
    period: Period  # the whole month, the Envelope's period
    so_far: Span  # [its start, the end of today), or the whole month once past

    @classmethod
    def of(cls, *, workspace, first_day: date, now: datetime) -> GoalMonth:
        days = calendar.monthrange(first_day.year, first_day.month)[1]
        last_day = first_day + timedelta(days=days - 1)
        period = Period.of_days(workspace=workspace, first_day=first_day, last_day=last_day)
        today = local_today(workspace, now)
        if today > last_day:
            elapsed = days
        elif today < first_day:
            elapsed = 0
        else:
            elapsed = today.day
        end_of_so_far = local_midnight(
            first_day + timedelta(days=elapsed), workspace_zone(workspace)
        )
        return cls(
            first_day=first_day,
            days=days,
            elapsed=elapsed,
            period=period,
            so_far=Span(period.start, max(period.start, end_of_so_far)),
        )


def this_month(workspace, now: datetime | None = None) -> date:
    """The first day of the month it is in the workspace's zone."""
    return local_today(workspace, now).replace(day=1)


def month_goals(*, workspace, first_day: date) -> list[Goal]:
    """The month's goals, workspace goals first, then members by name, each in metric order:
    the columns an answer reads, each goal's member its id and name."""
    goals = (
        Goal.objects.filter(workspace=workspace, month=first_day)
        .select_related("member")
        .only("id", "month", "metric", "target", "member", "member__id", "member__name")
    )
    return sorted(goals, key=goal_order_key)


class _Builders(dict):
    """One FieldsOf per metric and unit of an answer (its registry entry and the
    workspace's label looked up once, not once per goal)."""

    def __init__(self, workspace):
        super().__init__()
        self.workspace = workspace

    def __missing__(self, key):
        metric_id, unit = key
        built = self[key] = fields.FieldsOf(metric_id, unit, workspace=self.workspace)
        return built


def _goal_fields(goal: Goal, actual: int, month: GoalMonth, workspace, of: _Builders) -> dict:
    """The Fields of one goal: its actual, target, expected, attainment, pace, projected."""
    unit = MONEY if goal.metric in MONEY_METRICS else COUNT

    def figure(metric_id: str, value):
        builder = of[metric_id, unit]
        return builder.money(value) if unit == MONEY else builder.count(value)

    def major(value):
        return fields.major_units(int(value), workspace) if unit == MONEY else value

    target = goal.target
    expected = of["goal.expected", unit].pro_rated(
        unit, Decimal(target) * month.elapsed / month.days
    )
    if month.elapsed:
        projected = of["goal.projected", unit].pro_rated(
            unit, Decimal(actual) * month.days / month.elapsed
        )
    else:
        projected = of["goal.projected", unit].pro_rated(
            unit,
            None,
            unavailable=NOT_COMPUTED,
            reason="The month has not started: nothing to project from.",
        )
    # The pace is taken against expected as answered (to the cent, or 2 decimals), so its
    # sides are the figures shown.
    expected_shown = expected.raw
    attainment = of["goal.attainment", "rate"].rate(
        actual,
        target,
        empty=EMPTY_DENOMINATOR,
        reason="The target is 0." if target == 0 else None,
        side_values=(major(actual), major(target)),
    )
    pace = of["goal.pace", "rate"].rate(
        actual,
        expected_shown,
        reason=(
            "The month has not started: nothing is expected yet."
            if month.elapsed == 0
            else "The target is 0."
        )
        if expected_shown == 0
        else None,
        side_values=(major(actual), expected.value),
    )
    return {
        "actual": figure("goal.actual", actual),
        "target": figure("goal.target", target),
        "expected": expected,
        "attainment": attainment,
        "pace": pace,
        "projected": projected,
    }


def goals_figures(*, workspace, first_day: date, now: datetime | None = None) -> Figures:
    """The month's goals, each with its metric, member and Fields (see the registry's
    goal.* metrics); one grouped aggregate per metric that has a goal."""
    now = now or timezone.now()
    month = GoalMonth.of(workspace=workspace, first_day=first_day, now=now)
    goals = month_goals(workspace=workspace, first_day=first_day)
    totals = {}
    for metric in sorted({goal.metric for goal in goals}):
        totals[metric] = _slot_totals(
            workspace=workspace, span=month.so_far, metric=metric, slot=GOAL_SLOTS[metric], now=now
        )
    rows = []
    of = _Builders(workspace)
    for goal in goals:
        by_member = totals[goal.metric]
        if goal.member is None:
            actual = sum(by_member.values())
            member = None
        else:
            actual = by_member.get(goal.member_id, 0)
            member = {"id": str(goal.member.pk), "name": goal.member.name}
        rows.append(
            {
                "metric": goal.metric,
                "member": member,
                **_goal_fields(goal, actual, month, workspace, of),
            }
        )
    return Figures({"goals": rows})


def goal_month_period(*, workspace, first_day: date, now: datetime | None = None) -> Period:
    return GoalMonth.of(workspace=workspace, first_day=first_day, now=now or timezone.now()).period


# --- a goal's series ------------------------------------------------------------------

GOAL_SERIES_METRICS = ("goal.actual", "goal.expected")
# The time column of each goal metric's records (the one _slot_totals reads them by).
_GOAL_TIME = {
    "leads.created": "created_at",
    "calls.booked": "scheduled_for",
    "calls.taken": "scheduled_for",
    "calls.closed": "scheduled_for",
    "payments.cash_collected": "paid_at",
    "payments.revenue_booked": "closed_at",
}


def _days_totals(*, workspace, span: Span, metric: str, slot: str, member, now) -> dict:
    """{local day: the metric's figure} of the records of [start, end) in the member's slot
    (the whole workspace's with no member), grouped by the day of their time in the
    workspace's zone: the records _slot_totals counts, per day."""
    rows, value = _metric_rows(workspace=workspace, span=span, metric=metric, now=now)
    if member is not None:
        rows = rows.filter(**{slot: member})
    day = TruncDate(_GOAL_TIME[metric], tzinfo=workspace_zone(workspace))
    grouped = rows.order_by().annotate(day=day).values_list("day").annotate(value=value)
    return dict(grouped.values_list("day", "value"))


def goal_series(
    *, workspace, first_day: date, series: str, metric: str, member=None, buckets, now=None
) -> list:
    """The points of a month's goal on `metric` (the member's, or the workspace's with no
    member), one per bucket (first day, last day) of the month: `series` goal.actual, its
    actual over the month through the bucket's last day (a day to come has none: null,
    not-computed), or goal.expected, what was expected by then (target x days through it /
    the month's days). LookupError when no such goal is set."""
    now = now or timezone.now()
    goal = Goal.objects.filter(
        workspace=workspace, month=first_day, metric=metric, member=member
    ).first()
    if goal is None:
        raise LookupError(metric)
    month = GoalMonth.of(workspace=workspace, first_day=first_day, now=now)
    unit = MONEY if metric in MONEY_METRICS else COUNT
    builder = fields.FieldsOf(series, unit, workspace=workspace)
    through = [(first, last, (last - first_day).days + 1) for first, last in buckets]
    if series == "goal.expected":
        return [
            {
                "from": first.isoformat(),
                "to": last.isoformat(),
                "field": builder.pro_rated(unit, Decimal(goal.target) * days / month.days),
            }
            for first, last, days in through
        ]
    per_day = _days_totals(
        workspace=workspace,
        span=month.so_far,
        metric=metric,
        slot=GOAL_SLOTS[metric],
        member=member,
        now=now,
    )
    points = []
    for first, last, days in through:
        if days > month.elapsed:
            field = builder.pro_rated(
                unit,
                None,
                unavailable=NOT_COMPUTED,
                reason="This day has not come yet: nothing is counted for it.",
            )
        else:
            total = sum(value for day, value in per_day.items() if day <= last)
            field = builder.money(total) if unit == MONEY else builder.count(total)
        points.append({"from": first.isoformat(), "to": last.isoformat(), "field": field})
    return points


# --- /leaderboard ---------------------------------------------------------------------

ROLES = ("closer", "setter")
ROLE_DEFAULT = "closer"


# What each role's leaderboard counts: calls (calls_conditions' keys) and, for closers,
# the cash paid on the sales they closed.
_ROLE_COUNTS = {"closer": ("taken", "closed", "cash"), "setter": ("booked", "taken", "no_show")}


def _role_counts(*, workspace, period: Period, role: str, now) -> dict:
    """{member id: {count key: value}} of the period, grouped by the role's slot; a member
    with no record of the period is absent."""
    conditions = calls_conditions(now)
    keys = tuple(key for key in _ROLE_COUNTS[role] if key != "cash")
    calls = (
        live_calls(workspace=workspace, period=period)
        .exclude(**{f"{role}__isnull": True})
        .order_by()
        .values(role)
        .annotate(**{key: Count("pk", filter=conditions[key]) for key in keys})
    )
    found = {row.pop(role): row for row in calls}
    if role == "closer":
        cash = (
            payments_paid_in(workspace=workspace, period=period)
            .exclude(closer__isnull=True)
            .order_by()
            .values_list("closer")
            .annotate(cash=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
        )
        for member_id, total in cash:
            found.setdefault(member_id, {})["cash"] = total
    zero = dict.fromkeys(_ROLE_COUNTS[role], 0)
    return {member_id: {**zero, **counts} for member_id, counts in found.items()}


def _board_fields(role: str, counts: dict, workspace) -> dict:
    if role == "closer":
        return {
            "taken": fields.count("calls.taken", counts["taken"], workspace=workspace),
            "closed": fields.count("calls.closed", counts["closed"], workspace=workspace),
            "close_rate": fields.rate(
                "calls.close_rate", counts["closed"], counts["taken"], workspace=workspace
            ),
            "cash_collected": fields.money(
                "payments.cash_collected", counts["cash"], workspace=workspace
            ),
        }
    return {
        "booked": fields.count("calls.booked", counts["booked"], workspace=workspace),
        "taken": fields.count("calls.taken", counts["taken"], workspace=workspace),
        "show_rate": fields.rate(
            "calls.show_rate",
            counts["taken"],
            counts["taken"] + counts["no_show"],
            workspace=workspace,
        ),
    }


def _rank_key(role: str, counts: dict) -> tuple:
    if role == "closer":
        return (counts["cash"], counts["closed"])
    return (counts["taken"], counts["booked"])


def leaderboard(*, workspace, period: Period, role: str, now: datetime | None = None) -> Figures:
    """The members of the role, ranked: closers by cash collected, then closes; setters by
    calls taken of the calls they set, then booked. Equal members share a rank (1, 1, 3)
    and are listed by name. Every active member of the role is listed, and any other
    member of it with figures in the period."""
    now = now or timezone.now()
    counts = _role_counts(workspace=workspace, period=period, role=role, now=now)
    members = Member.objects.filter(workspace=workspace, role=role).order_by("name", "pk")
    listed = [
        member for member in members if member.is_active or any(counts.get(member.pk, {}).values())
    ]
    zero = dict.fromkeys(_ROLE_COUNTS[role], 0)
    scored = [(member, counts.get(member.pk, zero)) for member in listed]
    keys = [_rank_key(role, member_counts) for _, member_counts in scored]
    rows = []
    ordered = sorted(
        zip(scored, keys, strict=True),
        key=lambda item: (tuple(-value for value in item[1]), item[0][0].name.casefold()),
    )
    for (member, member_counts), key in ordered:
        rank = 1 + sum(1 for other in keys if other > key)
        rows.append(
            {
                "rank": rank,
                "member": {"id": str(member.pk), "name": member.name},
                **_board_fields(role, member_counts, workspace),
            }
        )
    return Figures({"members": rows})
