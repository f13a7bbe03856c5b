"""/series: one figure of /calls, /outcomes, /payments, leads.created or the acquisition
figures (spend, cost per lead, return on ad spend) per local day, week or month of the
period, from the same aggregate as its endpoint grouped by bucket."""

from __future__ import annotations

from datetime import date, timedelta

from ..period import Period, local_midnight, workspace_zone
from ..registry import METRIC_LIST
from .acquisition import acquisition_series_counts, acquisition_series_data
from .base import Buckets, Counts, Figures
from .calls import CALLS_COUNTS_OF, calls_counts, calls_data
from .leads import leads_counts, leads_data
from .outcomes import OUTCOME_KEYS, outcomes_counts, outcomes_data
from .payments import PAYMENT_PART_KEYS, payments_counts, payments_data

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
_PAYMENT_PARTS = {
    "cash_collected": {"cash"},
    "refunded": {"refunds"},
    "net_cash": {"cash", "refunds"},
}


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


# Each family's figures from its counts: (counts, workspace) → {figure: Field}, built
# only for the figures asked (calls and payments read only the counts those are built from).
_BUILDERS = {
    "calls": lambda counts, ws, figures: calls_data(counts, ws, figures),
    "payments": lambda counts, ws, figures: payments_data(counts, ws, figures),
    "outcomes": lambda counts, ws, figures: outcomes_data(counts, ws, figures),
    "leads": lambda counts, ws, figures: leads_data(counts, ws),
    "acquisition": lambda counts, ws, figures: acquisition_series_data(counts, ws, figures),
}


def _figures_of(metrics, family: str) -> set[str]:
    return {m.split(".", 1)[1] for m in metrics if m.split(".", 1)[0] == family}


def _payment_parts(metrics) -> set[str]:
    return set().union(
        *(_PAYMENT_PARTS.get(figure, {"sales"}) for figure in _figures_of(metrics, "payments"))
    )


def _count_keys(metrics) -> dict[str, tuple[str, ...]]:
    """{family: the keys its aggregate counts} for the families of `metrics`: only what
    those metrics are built from."""
    keys = {
        "calls": lambda: sorted(
            set().union(*(CALLS_COUNTS_OF[f] for f in _figures_of(metrics, "calls")))
        ),
        "outcomes": lambda: OUTCOME_KEYS,
        "payments": lambda: [
            key for part in sorted(_payment_parts(metrics)) for key in PAYMENT_PART_KEYS[part]
        ],
        "leads": lambda: ("created",),
        "acquisition": lambda: ("spend", "leads", "cash"),
    }
    wanted = {metric_id.split(".", 1)[0] for metric_id in metrics}
    return {family: tuple(keys[family]()) for family in keys if family in wanted}


def _counts(*, workspace, period: Period, metrics, buckets, member, now) -> dict:
    """{family: its counts} for the families of `metrics`, each aggregate limited to what
    those metrics are built from (per bucket start with buckets)."""
    wanted = _count_keys(metrics)
    common = {"workspace": workspace, "period": period, "member": member, "buckets": buckets}
    counts = {}
    if "calls" in wanted:
        counts["calls"] = calls_counts(now=now, keys=set(wanted["calls"]), **common)
    if "outcomes" in wanted:
        counts["outcomes"] = outcomes_counts(**common)
    if "payments" in wanted:
        counts["payments"] = payments_counts(parts=_payment_parts(metrics), **common)
    if "leads" in wanted:
        counts["leads"] = leads_counts(**common)
    if "acquisition" in wanted:
        counts["acquisition"] = acquisition_series_counts(
            workspace=workspace, period=period, buckets=buckets
        )
    return counts


def _points(workspace, rows, grouped: dict, metrics) -> dict:
    built = {}
    keys = _count_keys(metrics)
    for family, by_start in grouped.items():
        if family not in keys:
            continue  # counted for the totals only
        # A bucket with no record counts 0 of each key its aggregate counts.
        empty = Counts(dict.fromkeys(keys[family], 0))
        figures = _figures_of(metrics, family)
        built[family] = [
            _BUILDERS[family](by_start.get(start) or empty, workspace, figures)
            for start, _, _ in rows
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
    built = {
        family: _BUILDERS[family](totals, workspace, _figures_of(metrics, family))
        for family, totals in counts.items()
    }
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
    # Each count the totals read, added over the buckets: a bucket's aggregate without it
    # is a defect (MissingCount), not a 0.
    keys = _count_keys(totals)
    summed = {
        family: Counts(
            {key: sum(counts[key] for counts in by_start.values()) for key in keys[family]}
        )
        for family, by_start in grouped.items()
        if family in keys
    }
    return Figures(_points(workspace, rows, grouped, metrics)), _fields(workspace, summed, totals)
