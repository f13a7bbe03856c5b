"""/outcomes: each call's current outcome plus the past-call forms dated in the period,
and the no-sale reasons."""

from __future__ import annotations

from django.db.models import Count

from core.compiled import CompiledQuery
from workspaces.models import Call, Outcome

from .. import envelope as fields
from ..period import Period
from .base import (
    FIGURES_PARAMS,
    NONE_LABEL,
    OUTCOME_RESULTS,
    Figures,
    Span,
    figures_params,
    grouped_counts,
    in_period,
    live_calls,
)

OUTCOME_KEYS = (*OUTCOME_RESULTS, "no_show", "cancelled", "awaiting")

# What one grouped pass over each kind of record reads (grouped_counts): the calls and the
# past-call forms, counted per distinct value of these columns, then tallied by _tally.
# One pass per kind answers both the counts and the no-sale reasons, and grouping by a
# few short columns costs PostgreSQL less than a conditional count per key.
CALL_COLUMNS = ("status", "attendance", "outcome", "outcome_reason")
PAST_COLUMNS = ("result", "reason")


def _call_key(status: str, attendance: str, outcome: str) -> str | None:
    """The key of OUTCOME_KEYS a live call counts in: cancelled, or its current outcome
    (kept on the call), or without one no_show or awaiting."""
    if status == Call.Status.CANCELLED:
        return "cancelled"
    if status != Call.Status.SCHEDULED:
        return None
    if outcome == "":
        return "no_show" if attendance == Call.Attendance.NO_SHOW else "awaiting"
    return outcome if outcome in OUTCOME_RESULTS else None


def _tally(call_rows, past_rows) -> tuple[dict, dict]:
    """({key: count} of OUTCOME_KEYS, {no-sale reason: count}) from the grouped rows of
    the calls (CALL_COLUMNS, n) and of the past-call forms (PAST_COLUMNS, n): each call
    counts by its current outcome, each past-call form by its result; the no-sale reasons
    are those of the calls whose current outcome is no_sale (the reason of their latest
    outcome) and of the past-call no-sale forms."""
    counts = dict.fromkeys(OUTCOME_KEYS, 0)
    reasons: dict[str, int] = {}
    for status, attendance, outcome, reason, n in call_rows:
        key = _call_key(status, attendance, outcome)
        if key is not None:
            counts[key] += n
        if key == "no_sale":
            reasons[reason] = reasons.get(reason, 0) + n
    for result, reason, n in past_rows:
        if result in counts:
            counts[result] += n
        if result == "no_sale":
            reasons[reason] = reasons.get(reason, 0) + n
    return counts, reasons


def _outcomes_query(*, part: str, workspace, member, start, end):
    """The calls ("calls") or past-call forms ("past") of the period [start, end), counted
    per distinct value of their columns."""
    period = Span(start, end)
    if part == "calls":
        records = live_calls(workspace=workspace, period=period, member=member)
        columns = CALL_COLUMNS
    else:
        records = _past_forms(workspace=workspace, period=period, member=member)
        columns = PAST_COLUMNS
    return records.order_by().values_list(*columns).annotate(n=Count("pk"))


outcomes_query = CompiledQuery(_outcomes_query, params=FIGURES_PARAMS, model=Call)


def _outcomes_tally(*, workspace, period: Period, member=None) -> tuple[dict, dict]:
    common = figures_params(workspace=workspace, period=period, member=member)
    return _tally(outcomes_query(part="calls", **common), outcomes_query(part="past", **common))


def outcomes_counts(*, workspace, period: Period, member=None, buckets=None):
    """{key: count} of OUTCOME_KEYS (per bucket with buckets): calls by current outcome
    plus past-call forms dated in the period."""
    if buckets is None:
        return _outcomes_tally(workspace=workspace, period=period, member=member)[0]
    calls = live_calls(workspace=workspace, period=period, member=member)
    per_call = grouped_counts(calls, CALL_COLUMNS, "scheduled_for", buckets)
    past = _past_forms(workspace=workspace, period=period, member=member)
    per_past = grouped_counts(past, PAST_COLUMNS, "at", buckets)
    return {
        start: _tally(per_call.get(start, ()), per_past.get(start, ()))[0]
        for start in per_call.keys() | per_past.keys()
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
    counts, reasons = _outcomes_tally(workspace=workspace, period=period, member=member)
    named: dict[str, int] = {}
    for reason, n in reasons.items():
        key = reason or NONE_LABEL
        named[key] = named.get(key, 0) + n
    data = outcomes_data(counts, workspace)
    data["no_sale_reasons"] = [
        {"reason": reason, "count": n}
        for reason, n in sorted(named.items(), key=lambda item: (-item[1], item[0]))
    ]
    return Figures(data)
