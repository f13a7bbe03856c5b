"""/series: one figure of /calls, /outcomes, /payments, leads.created or the acquisition
figures (spend, cost per lead, return on ad spend) per local day, week or month of the
period, from the same aggregate as its endpoint grouped by bucket."""

from __future__ import annotations

from datetime import date, timedelta

from ..period import Period, local_midnight, workspace_zone
from ..registry import METRIC_LIST
from .acquisition import acquisition_series_counts, acquisition_series_data
from .base import Buckets, Figures
from .calls import CALLS_COUNT_KEYS, CALLS_COUNTS_OF, calls_counts, calls_data
from .leads import leads_counts, leads_data
from .outcomes import OUTCOME_KEYS, outcomes_counts, outcomes_data
from .payments import payments_counts, payments_data

INTERVALS = ("day", "week", "month")
SERIES_POINTS_MAX = 1000
SERIES_ENDPOINTS = ("/api/v1/calls", "/api/v1/outcomes", "/api/v1/payments")
SERIES_METRICS = (
    *(metric.id for metric in METRIC_LIST if metric.endpoint in SERIES_ENDPOINTS),
    "leads.created",
    "acquisition.spend",
    "acquisition.cost_per_lead",
    "acquisition.roas",
)
# Which of the payments' three aggregates a metric reads.
_PAYMENT_PARTS = {"cash_collected": {"cash"}, "refunded": {"refunds"},
                  "net_cash": {"cash", "refunds"}}  # fmt: skip


def _next_start(start: date, interval: str) -> date | None:
    """The next bucket's first day; None past the last day a date can hold."""
    try:
        if interval == "day":
            return start + timedelta(days=1)
        if interval == "week":
            return start + timedelta(days=7)
        return date(start.year + start.month // 12, start.month % 12 + 1, 1)
    except (OverflowError, ValueError):
        return None


def _first_start(first_day: date, interval: str) -> date:
    if interval == "day":
        return first_day
    if interval == "week":
        # 0001-01-01 is a Monday: a week's start never falls before the first date.
        return first_day - timedelta(days=first_day.weekday())
    return first_day.replace(day=1)


def series_bucket_count(period: Period, interval: str) -> int:
    """How many buckets series_buckets makes, counted without making them."""
    first, last = period.first_day, period.last_day
    if interval == "day":
        return (last - first).days + 1
    if interval == "week":
        return (last - _first_start(first, "week")).days // 7 + 1
    return (last.year * 12 + last.month) - (first.year * 12 + first.month) + 1


def series_buckets(period: Period, interval: str) -> list[tuple[date, date, date]]:
    """(bucket start, first day, last day) of every day, week (from Monday) or month the
    period touches; the first and last are clipped to the period. Count them first
    (series_bucket_count): a long period by day makes millions."""
    start = _first_start(period.first_day, interval)
    buckets = []
    while start is not None and start <= period.last_day:
        following = _next_start(start, interval)
        first = max(start, period.first_day)
        last = (
            period.last_day
            if following is None
            else min(following - timedelta(days=1), period.last_day)
        )
        buckets.append((start, first, last))
        start = following
    return buckets


def _series_rows(workspace, period: Period, interval: str) -> tuple[list, Buckets]:
    zone = workspace_zone(workspace)
    rows = series_buckets(period, interval)
    starts = tuple((start, local_midnight(first, zone)) for start, first, _ in rows)
    return rows, Buckets(interval, zone, starts)


_BUILDERS = {"calls": calls_data, "outcomes": outcomes_data, "payments": payments_data,
             "leads": leads_data, "acquisition": acquisition_series_data}  # fmt: skip


def _counts(*, workspace, period: Period, metrics, buckets, member, now) -> dict:
    """{family: its counts} for the families of `metrics`, each aggregate limited to what
    those metrics are built from (per bucket start with buckets)."""
    wanted = {metric_id.split(".", 1)[0] for metric_id in metrics}
    common = {"workspace": workspace, "period": period, "member": member, "buckets": buckets}
    counts = {}
    if "calls" in wanted:
        keys = set().union(
            *(CALLS_COUNTS_OF[m.split(".", 1)[1]] for m in metrics if m.startswith("calls."))
        )
        counts["calls"] = calls_counts(now=now, keys=keys, **common)
    if "outcomes" in wanted:
        counts["outcomes"] = outcomes_counts(**common)
    if "payments" in wanted:
        parts = set().union(
            *(
                _PAYMENT_PARTS.get(m.split(".", 1)[1], {"sales"})
                for m in metrics
                if m.startswith("payments.")
            )
        )
        counts["payments"] = payments_counts(parts=parts, **common)
    if "leads" in wanted:
        counts["leads"] = leads_counts(**common)
    if "acquisition" in wanted:
        counts["acquisition"] = acquisition_series_counts(
            workspace=workspace, period=period, buckets=buckets
        )
    return counts


def _points(workspace, rows, grouped: dict, metrics) -> dict:
    built = {}
    for family, by_start in grouped.items():
        empty = _empty_counts(family)
        built[family] = [
            _BUILDERS[family](by_start.get(start) or empty, workspace) for start, _, _ in rows
        ]
    return {
        metric_id: [
            {"from": first.isoformat(), "to": last.isoformat(), "field": data[key]}
            for (_, first, last), data in zip(rows, built[family], strict=True)
        ]
        for metric_id in metrics
        for family, key in [metric_id.split(".", 1)]
    }


def _fields(workspace, counts: dict, metrics) -> dict:
    built = {family: _BUILDERS[family](totals, workspace) for family, totals in counts.items()}
    return {
        metric_id: built[family][key]
        for metric_id in metrics
        for family, key in [metric_id.split(".", 1)]
    }


def series_figures(
    *, workspace, period: Period, metrics, interval: str, member=None, now=None
) -> Figures:
    """Data {metric id: [{"from", "to", "field"}]} for each metric, one point per local day, week
    or month of the period; empty buckets included (0, or a null rate with its reason).

    Each metric is the figure its endpoint answers for the bucket: the same aggregate
    (calls_counts, outcomes_counts, payments_counts, leads_counts) grouped by bucket
    instead of taken over the whole period, turned into Fields by the same code.
    """
    rows, buckets = _series_rows(workspace, period, interval)
    grouped = _counts(
        workspace=workspace, period=period, metrics=metrics, buckets=buckets, member=member, now=now
    )
    return Figures(_points(workspace, rows, grouped, metrics))


def metric_figures(*, workspace, period: Period, metrics, member=None, now=None) -> dict:
    """{metric id: Field} of the period for metrics of /calls, /outcomes, /payments and
    leads.created, as their endpoints answer them, from aggregates that count only what
    those metrics are built from. The endpoints' own notes that are not carried by a
    Field (held events on /payments) are not included."""
    counts = _counts(
        workspace=workspace, period=period, metrics=metrics, buckets=None, member=member, now=now
    )
    return _fields(workspace, counts, metrics)


def series_with_totals(
    *, workspace, period: Period, metrics, totals, interval: str, member=None, now=None
) -> tuple[Figures, dict]:
    """series_figures of `metrics` and metric_figures of `totals`, from one aggregate per
    family grouped by bucket: the buckets cover the period, and every count and sum adds
    up, so a figure of the period is built from its buckets' counts added together."""
    rows, buckets = _series_rows(workspace, period, interval)
    grouped = _counts(
        workspace=workspace,
        period=period,
        metrics=[*metrics, *totals],
        buckets=buckets,
        member=member,
        now=now,
    )
    summed = {
        family: {
            key: sum(counts.get(key, 0) for counts in by_start.values())
            for key in _empty_counts(family)
        }
        for family, by_start in grouped.items()
    }
    return Figures(_points(workspace, rows, grouped, metrics)), _fields(workspace, summed, totals)


def _empty_counts(family: str) -> dict:
    """The aggregate of no record: every count and sum 0."""
    keys = {
        "calls": CALLS_COUNT_KEYS,
        "outcomes": OUTCOME_KEYS,
        "payments": ("cash", "refunded", "sales", "revenue", "collected", "over_collected"),
        "leads": ("created",),
        "acquisition": ("spend", "leads", "cash"),
    }[family]
    return dict.fromkeys(keys, 0)
