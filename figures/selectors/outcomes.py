"""/outcomes: each call's current outcome plus the past-call forms dated in the period,
and the no-sale reasons."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Q, Subquery

from core.compiled import Aggregate, CompiledQuery
from workspaces.models import Call, Outcome

from .. import envelope as fields
from ..period import Period
from .base import (
    FIGURES_PARAMS,
    NONE_LABEL,
    OUTCOME_RESULTS,
    Figures,
    Span,
    aggregate,
    figures_params,
    in_period,
    live_calls,
)

OUTCOME_KEYS = (*OUTCOME_RESULTS, "no_show", "cancelled", "awaiting")


def _per_call_aggregates() -> dict:
    scheduled = Q(status=Call.Status.SCHEDULED)
    no_outcome = scheduled & Q(outcome="")
    return {
        "cancelled": Count("pk", filter=Q(status=Call.Status.CANCELLED)),
        "no_show": Count("pk", filter=no_outcome & Q(attendance=Call.Attendance.NO_SHOW)),
        "awaiting": Count("pk", filter=no_outcome & ~Q(attendance=Call.Attendance.NO_SHOW)),
        **{r: Count("pk", filter=scheduled & Q(outcome=r)) for r in OUTCOME_RESULTS},
    }


def _past_aggregates() -> dict:
    return {key: Count("pk", filter=Q(result=key)) for key in OUTCOME_KEYS}


def _outcomes_query(*, part: str, workspace, member, start, end):
    """One of the /outcomes queries over the period [start, end): the counts of the calls
    ("calls") and of the past-call forms ("past"), and the no-sale reasons of each
    ("call_reasons", "past_reasons")."""
    period = Span(start, end)
    if part == "calls":
        calls = live_calls(workspace=workspace, period=period, member=member)
        return Aggregate(calls, **_per_call_aggregates())
    past = _past_forms(workspace=workspace, period=period, member=member)
    if part == "past":
        return Aggregate(past, **_past_aggregates())
    if part == "call_reasons":
        # The reason of each call's latest outcome.
        latest_reason = Subquery(
            Outcome.objects.filter(call=OuterRef("pk")).order_by("-at").values("reason")[:1]
        )
        return (
            live_calls(workspace=workspace, period=period, member=member)
            .filter(status=Call.Status.SCHEDULED, outcome="no_sale")
            .annotate(latest_reason=latest_reason)
            .order_by()
            .values_list("latest_reason")
            .annotate(n=Count("pk"))
        )
    return past.filter(result="no_sale").order_by().values_list("reason").annotate(n=Count("pk"))


outcomes_query = CompiledQuery(_outcomes_query, params=FIGURES_PARAMS, model=Call)


def outcomes_counts(*, workspace, period: Period, member=None, buckets=None):
    """{key: count} of OUTCOME_KEYS (per bucket with buckets): calls by current outcome
    plus past-call forms dated in the period."""
    if buckets is None:
        common = figures_params(workspace=workspace, period=period, member=member)
        per_call = outcomes_query(part="calls", **common)
        past_counts = outcomes_query(part="past", **common)
    else:
        calls = live_calls(workspace=workspace, period=period, member=member)
        per_call = aggregate(calls, "scheduled_for", _per_call_aggregates(), buckets)
        past = _past_forms(workspace=workspace, period=period, member=member)
        past_counts = aggregate(past, "at", _past_aggregates(), buckets)
    zero = dict.fromkeys(OUTCOME_KEYS, 0)

    def add(one: dict, other: dict) -> dict:
        return {key: one[key] + other[key] for key in OUTCOME_KEYS}

    if buckets is None:
        return add(per_call, past_counts)
    return {
        start: add(per_call.get(start, zero), past_counts.get(start, zero))
        for start in per_call.keys() | past_counts.keys()
    }


def _past_forms(*, workspace, period: Period | Span, member=None):
    past = Outcome.objects.filter(workspace=workspace, call__isnull=True).filter(
        in_period(period, "at")
    )
    if member is not None:
        past = past.filter(member=member)
    return past


def outcomes_data(counts: dict, workspace) -> dict:
    data = {}
    for key in OUTCOME_KEYS:
        data[key] = fields.count(f"outcomes.{key}", counts[key], workspace=workspace)
    data["total"] = fields.count(
        "outcomes.total", sum(counts[key] for key in OUTCOME_KEYS), workspace=workspace
    )
    return data


def outcomes_figures(*, workspace, period: Period, member=None) -> Figures:
    counts = outcomes_counts(workspace=workspace, period=period, member=member)
    common = figures_params(workspace=workspace, period=period, member=member)
    # No-sale reasons: the reason of each call's latest outcome, and of past-call forms.
    call_reasons = outcomes_query(part="call_reasons", **common)
    past_reasons = outcomes_query(part="past_reasons", **common)
    reasons: dict[str, int] = {}
    for reason, n in [*call_reasons, *past_reasons]:
        key = reason or NONE_LABEL
        reasons[key] = reasons.get(key, 0) + n

    data = outcomes_data(counts, workspace)
    data["no_sale_reasons"] = [
        {"reason": reason, "count": n}
        for reason, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    ]
    return Figures(data)
