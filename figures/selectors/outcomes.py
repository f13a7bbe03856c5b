"""/outcomes: each call's current outcome plus the past-call forms dated in the period,
and the no-sale reasons."""

from __future__ import annotations

from django.db.models import Count, Sum

from core.compiled import CompiledQuery
from workspaces.models import Call

from .. import envelope as fields
from ..period import Period
from . import days as rollups
from .base import (
    BUCKETED_PARAMS,
    NONE_LABEL,
    OUTCOME_RESULTS,
    Figures,
    Span,
    bucket_start,
    bucketed,
    buckets_params,
    figures_params,
)
from .family import Family

OUTCOME_KEYS = (*OUTCOME_RESULTS, "no_show", "cancelled", "awaiting")

# What one grouped pass over each kind of record reads (outcomes_query): the calls and the
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


def _outcomes_query(
    *, part: str, workspace, member, start, end, rolled=False, starts=None, grouping=None
):
    """The calls ("calls") or past-call forms ("past") of the period [start, end), counted
    per distinct value of their columns; `rolled`: the rows of their daily roll-up, summed
    alike (whole local days before today, of the whole workspace). With `grouping`, per
    bucket too: each row begins with its `_bucket` (base.bucketed)."""
    kind, columns = _PARTS[part]
    rows = rollups.rows_of(kind, rolled, workspace=workspace, span=Span(start, end), member=member)
    if grouping is not None:
        rows = bucketed(rows, kind.time_field, starts=starts, grouping=grouping)
        columns = ("_bucket", *columns)
    return rows.order_by().values_list(*columns).annotate(n=Sum("n") if rolled else Count("pk"))


outcomes_query = CompiledQuery(_outcomes_query, params=BUCKETED_PARAMS, model=Call)

# Each part: its roll-up, and the columns it is counted by.
_PARTS = {
    "calls": (rollups.CALLS, CALL_COLUMNS),
    "past": (rollups.PAST_OUTCOMES, PAST_COLUMNS),
}


def _rows(part: str, *, workspace, period: Period, member) -> list:
    rows = []
    kind = _PARTS[part][0]
    for rolled, span in rollups.cut(kind, workspace=workspace, period=period, member=member):
        rows.extend(
            outcomes_query(
                part=part,
                **figures_params(workspace=workspace, period=span, member=member),
                rolled=rolled,
            )
        )
    return rows


def _outcomes_tally(*, workspace, period: Period, member=None) -> tuple[dict, dict]:
    common = {"workspace": workspace, "period": period, "member": member}
    return _tally(_rows("calls", **common), _rows("past", **common))


def _grouped(part: str, *, workspace, period: Period, member, buckets) -> dict:
    """{bucket start: [(values of the part's columns..., number)]} over the period."""
    grouped: dict = {}
    kind = _PARTS[part][0]
    for rolled, span in rollups.cut(kind, workspace=workspace, period=period, member=member):
        for bucket, *values in outcomes_query(
            part=part,
            **figures_params(workspace=workspace, period=span, member=member),
            rolled=rolled,
            **buckets_params(buckets),
        ):
            grouped.setdefault(bucket_start(buckets, bucket), []).append(tuple(values))
    return grouped


def outcomes_counts(*, workspace, period: Period, member=None, buckets=None):
    """{key: count} of OUTCOME_KEYS (per bucket with buckets): calls by current outcome
    plus past-call forms dated in the period."""
    if buckets is None:
        return _outcomes_tally(workspace=workspace, period=period, member=member)[0]
    common = {"workspace": workspace, "period": period, "member": member, "buckets": buckets}
    per_call = _grouped("calls", **common)
    per_past = _grouped("past", **common)
    return {
        start: _tally(per_call.get(start, ()), per_past.get(start, ()))[0]
        for start in per_call.keys() | per_past.keys()
    }


def _outcome_count(key: str):
    return lambda counts, ws: fields.count(f"outcomes.{key}", counts[key], workspace=ws)


def _outcomes_counter(*, workspace, period: Period, member, buckets, now, keys):
    return outcomes_counts(workspace=workspace, period=period, member=member, buckets=buckets)


# Each result's calls (and past calls' forms), then all of them.
OUTCOMES = Family(
    name="outcomes",
    count_keys=OUTCOME_KEYS,
    fields={
        **{key: _outcome_count(key) for key in OUTCOME_KEYS},
        "total": lambda counts, ws: fields.count(
            "outcomes.total", sum(counts[key] for key in OUTCOME_KEYS), workspace=ws
        ),
    },
    counter=_outcomes_counter,
)


def outcomes_data(counts: dict, workspace, figures=None) -> dict:
    """The /outcomes figures (only `figures` when given) from outcomes_counts' counts."""
    return OUTCOMES.data(counts, workspace, figures)


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
