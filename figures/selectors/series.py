"""/series: one figure of /calls, /outcomes, /payments, leads.created or the acquisition
figures (spend, cost per lead, return on ad spend) per local day, week or month of the
period, from the same aggregate as its endpoint grouped by bucket."""

from __future__ import annotations

from datetime import date, timedelta

from ..period import Period, local_midnight, workspace_zone
from ..registry import METRIC_LIST
from .acquisition import ACQUISITION
from .base import Buckets, Counts, Figures
from .calls import CALLS
from .leads import LEADS
from .outcomes import OUTCOMES
from .payments import PAYMENTS

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


# The families /series and the metric figures read, by the prefix of their metric ids.
FAMILIES = {family.name: family for family in (CALLS, OUTCOMES, PAYMENTS, LEADS, ACQUISITION)}


def _families(metrics) -> dict:
    """{family: the figures of it among metrics}, in FAMILIES' order."""
    wanted = {metric_id.split(".", 1)[0] for metric_id in metrics}
    return {
        family: family.figures_of(metrics) for name, family in FAMILIES.items() if name in wanted
    }


def _counts(*, workspace, period: Period, metrics, buckets, member, now) -> dict:
    """{family: its counts} for the families of `metrics`, each aggregate limited to what
    those metrics are built from (per bucket start with buckets)."""
    return {
        family: family.counts(
            workspace=workspace,
            period=period,
            member=member,
            buckets=buckets,
            now=now,
            figures=figures,
        )
        for family, figures in _families(metrics).items()
    }


def _points(workspace, rows, grouped: dict, metrics) -> dict:
    built = {}
    for family, figures in _families(metrics).items():
        by_start = grouped[family]
        # A bucket with no record counts 0 of each key its aggregate counts.
        empty = family.empty(figures)
        built[family.name] = [
            family.data(by_start.get(start) or empty, workspace, figures) for start, _, _ in rows
        ]
    return {
        metric_id: [
            {"from": first.isoformat(), "to": last.isoformat(), "field": data[key]}
            for (_, first, last), data in zip(rows, built[name], strict=True)
        ]
        for metric_id in metrics
        for name, key in [metric_id.split(".", 1)]
    }


def _fields(workspace, counts: dict, metrics) -> dict:
    built = {
        family.name: family.data(totals, workspace, family.figures_of(metrics))
        for family, totals in counts.items()
    }
    return {
        metric_id: built[name][key]
        for metric_id in metrics
        for name, key in [metric_id.split(".", 1)]
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
    summed = {
        family: Counts(
            {
                key: sum(counts[key] for counts in grouped[family].values())
                for key in family.keys_for(figures)
            }
        )
        for family, figures in _families(totals).items()
    }
    return Figures(_points(workspace, rows, grouped, metrics)), _fields(workspace, summed, totals)
