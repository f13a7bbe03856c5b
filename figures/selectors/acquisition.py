"""/acquisition and /ad-spend: what the leads cost. The period's ad spend beside the leads
created in the period (the cohort of /attribution), grouped by utm_source and
utm_campaign (or utm_source alone), and the spend records themselves."""

from __future__ import annotations

import bisect

from django.db.models import (
    BigIntegerField,
    Count,
    DateField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    UUIDField,
)
from django.db.models.functions import Coalesce

from core.compiled import CompiledQuery
from core.money import major_from_minor
from workspaces.models import AdSpend, Lead, UtmTags
from workspaces.shapes import ad_spend_shape

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import COUNT, MONEY, RATE, TRUNCATED
from .base import (
    FIGURES_PARAMS,
    Buckets,
    Figures,
    Span,
    aggregate,
    figures_params,
    leads_created_in,
    utm_label,
)

BY = ("campaign", "source")
BY_DEFAULT = "campaign"
# The members of a row (and of data.total), in the order an answer writes them.
ACQUISITION_KEYS = (
    "spend",
    "leads",
    "booked",
    "shows",
    "closes",
    "cash_collected",
    "cost_per_lead",
    "cost_per_booked_call",
    "cost_per_show",
    "cost_per_close",
    "roas",
)
_COUNTS = ("spend", "leads", "booked", "shows", "closes", "cash")
AD_SPEND_LIMIT_DEFAULT = 100
AD_SPEND_LIMIT_MAX = 500

_MINOR_SUM = {"output_field": BigIntegerField()}


def _columns(by: str) -> tuple[str, ...]:
    return ("utm_source",) if by == "source" else ("utm_source", "utm_campaign")


def _spend_dated(*, workspace, first_day, last_day):
    """The spend dated from first_day to last_day, both included (a record's date is a
    workspace day): what acquisition.spend sums and /ad-spend lists, defined once."""
    return AdSpend.objects.filter(workspace=workspace, date__gte=first_day, date__lte=last_day)


def _spend_of(*, workspace, period: Period):
    """The spend dated in the period's local days."""
    return _spend_dated(workspace=workspace, first_day=period.first_day, last_day=period.last_day)


def ad_spend_of_period(*, workspace, period: Period, utm: dict | None = None):
    """The spend records acquisition.spend adds up, or with `utm` those of one /acquisition
    row (its utm_source and utm_campaign as the row answers them, `(none)` for empty)."""
    records = _spend_of(workspace=workspace, period=period)
    for name, label in (utm or {}).items():
        if name not in ("utm_source", "utm_campaign"):
            raise KeyError(name)
        records = records.filter(**{name: "" if label == utm_label("") else label})
    return records


def _cohort(*, workspace, period: Period | Span):
    """The acquisition cohort: the leads created in the period (the whole workspace's)."""
    return leads_created_in(workspace=workspace, period=period)


_LEAD_AGGREGATES = {
    "leads": Count("*"),
    "booked": Count("has_booking", filter=Q(has_booking=True)),
    "shows": Count("has_show", filter=Q(has_show=True)),
    "closes": Count("has_sale", filter=Q(has_sale=True)),
    "cash": Coalesce(Sum("cash_collected"), 0, **_MINOR_SUM),
}


def _spend_query(*, workspace, first_day, last_day, by: str):
    """The spend dated from first_day to last_day grouped by its UTM values."""
    return (
        _spend_dated(workspace=workspace, first_day=first_day, last_day=last_day)
        .order_by()
        .values_list(*_columns(by))
        .annotate(spend=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
    )


spend_query = CompiledQuery(
    _spend_query,
    params={"workspace": UUIDField(), "first_day": DateField(), "last_day": DateField()},
    model=AdSpend,
)


def _cohort_query(*, part, workspace, member, start, end, by: str):
    """The period's leads grouped by their kept UtmTags ("tagged": each combination's tags
    looked up once per group), or those without it by their own tags ("untagged").

    Per group: how many, those with a call that counts (Lead.has_booking), those who
    showed (Lead.has_show), those with a sale, and the cash on their sales to date, all
    kept on the lead by the services: PostgreSQL reads them from lead_ws_created alone."""
    columns = _columns(by)
    leads = _cohort(workspace=workspace, period=Span(start, end))
    if part == "untagged":
        return (
            leads.filter(utm_tags__isnull=True)
            .order_by()
            .values_list(*columns)
            .annotate(**_LEAD_AGGREGATES)
        )
    tags = UtmTags.objects.filter(pk=OuterRef("utm_tags"))
    return (
        leads.order_by()
        .values_list("utm_tags")
        .annotate(**_LEAD_AGGREGATES)
        .annotate(
            **{
                f"tag_{name}": Subquery(tags.values(name.removeprefix("utm_"))[:1])
                for name in columns
            }
        )
    )


cohort_query = CompiledQuery(_cohort_query, params=FIGURES_PARAMS, model=Lead)


def acquisition_counts(*, workspace, period: Period, by: str = BY_DEFAULT) -> dict:
    """{key (labels, `(none)` for a missing value): {spend, leads, booked, shows, closes,
    cash}}: one grouped pass over the period's spend (the index ad_spend_ws_date alone on
    PostgreSQL) and one over the period's leads (lead_ws_created alone)."""
    rows: dict[tuple, dict] = {}

    def row(key) -> dict:
        labelled = tuple(utm_label(value) for value in key)
        return rows.setdefault(labelled, dict.fromkeys(_COUNTS, 0))

    def add(key, values) -> None:
        counts = row(key)
        for name, value in zip(_COUNTS[1:], values, strict=True):
            counts[name] += value

    days = {"first_day": period.first_day, "last_day": period.last_day}
    for *key, amount in spend_query(workspace=workspace.pk, by=by, **days):
        row(key)["spend"] += amount
    times = figures_params(workspace=workspace, period=period)
    grouped = cohort_query(part="tagged", by=by, **times)
    untagged = False
    for pk, *values in grouped:
        if pk is None:
            untagged = True
            continue
        add(values[5:], values[:5])
    if untagged:
        # Leads written without their combination kept (not by the services): by their tags.
        for *key, n, booked, shows, closes, cash in cohort_query(part="untagged", by=by, **times):
            add(key, (n, booked, shows, closes, cash))
    return rows


class _AcquisitionFields:
    """The Fields of /acquisition for one workspace, each metric looked up once."""

    def __init__(self, workspace):
        def of(key, unit):
            return fields.FieldsOf(f"acquisition.{key}", unit, workspace=workspace)

        self.exponent = workspace.currency_exponent
        self.spend = of("spend", MONEY)
        self.counts = {key: of(key, COUNT) for key in ("leads", "booked", "shows", "closes")}
        self.cash = of("cash_collected", MONEY)
        self.costs = {
            key: of(f"cost_per_{key}", MONEY) for key in ("lead", "booked_call", "show", "close")
        }
        self.roas = of("roas", RATE)

    def build(self, counts: dict) -> dict:
        spend, cash = counts["spend"], counts["cash"]
        n = {key: counts[key] for key in ("leads", "booked", "shows", "closes")}
        money = major_from_minor
        return {
            "spend": self.spend.money(spend),
            **{key: self.counts[key].count(n[key]) for key in n},
            "cash_collected": self.cash.money(cash),
            "cost_per_lead": self.costs["lead"].average(spend, n["leads"]),
            "cost_per_booked_call": self.costs["booked_call"].average(spend, n["booked"]),
            "cost_per_show": self.costs["show"].average(spend, n["shows"]),
            "cost_per_close": self.costs["close"].average(spend, n["closes"]),
            "roas": self.roas.rate(
                cash,
                spend,
                bounded=False,
                reason="No ad spend in the period." if spend == 0 else None,
                side_values=(
                    money(cash, exponent=self.exponent),
                    money(spend, exponent=self.exponent),
                ),
            ),
        }


def acquisition_figures(*, workspace, period: Period, by: str = BY_DEFAULT) -> Figures:
    """`data.rows` (one per key with spend or leads in the period, by spend, then leads,
    highest first, then the keys) and `data.total` for the whole period."""
    counts = acquisition_counts(workspace=workspace, period=period, by=by)
    ordered = sorted(
        counts.items(), key=lambda item: (-item[1]["spend"], -item[1]["leads"], item[0])
    )
    built = _AcquisitionFields(workspace)
    columns = _columns(by)
    rows = [
        {**dict(zip(columns, key, strict=True)), **built.build(values)} for key, values in ordered
    ]
    total = {name: sum(values[name] for values in counts.values()) for name in _COUNTS}
    return Figures({"rows": rows, "total": built.build(total)})


# --- /series of acquisition.spend, cost_per_lead and roas ------------------------------


def acquisition_series_counts(*, workspace, period: Period, buckets: Buckets | None) -> dict:
    """{spend, leads, cash} of the period, or per bucket start with buckets: the spend by
    its day (a date: grouped per day in the database, each day placed in its bucket here)
    and the cohort's leads and cash by their creation time."""
    spend_by_day = (
        _spend_of(workspace=workspace, period=period)
        .order_by()
        .values_list("date")
        .annotate(spend=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
    )
    leads = aggregate(
        _cohort(workspace=workspace, period=period),
        "created_at",
        {"leads": Count("*"), "cash": Coalesce(Sum("cash_collected"), 0, **_MINOR_SUM)},
        buckets,
    )
    if buckets is None:
        return {"spend": sum(amount for _, amount in spend_by_day), **leads}
    starts = [start for start, _ in buckets.starts]
    grouped: dict = {}
    for day, amount in spend_by_day:
        # The bucket whose start is the last one on or before the day.
        start = starts[max(bisect.bisect_right(starts, day) - 1, 0)]
        slot = grouped.setdefault(start, {"spend": 0, "leads": 0, "cash": 0})
        slot["spend"] += amount
    for start, values in leads.items():
        slot = grouped.setdefault(start, {"spend": 0, "leads": 0, "cash": 0})
        slot["leads"] += values["leads"]
        slot["cash"] += values["cash"]
    return grouped


def acquisition_series_data(counts: dict, workspace) -> dict:
    """The Fields /series answers for acquisition.spend, cost_per_lead and roas."""
    built = _AcquisitionFields(workspace).build({"booked": 0, "shows": 0, "closes": 0, **counts})
    return {key: built[key] for key in ("spend", "cost_per_lead", "roas")}


# --- /ad-spend: the records --------------------------------------------------------------


def ad_spend_list(*, workspace, period: Period, limit: int = AD_SPEND_LIMIT_DEFAULT) -> Figures:
    """acquisition.spend of the period and its records, oldest day first (then platform and
    id), at most `limit` of them, with a truncated note when the list is cut."""
    records = _spend_of(workspace=workspace, period=period)
    totals = records.aggregate(n=Count("*"), spend=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
    page = list(records.order_by("date", "platform", "external_id", "pk")[:limit])
    notes = []
    if totals["n"] > len(page):
        notes.append(
            Note(
                "records",
                TRUNCATED,
                f"{len(page)} of {totals['n']} spend records listed (limit {limit}); spend "
                "counts them all.",
            )
        )
    data = {
        "spend": fields.money("acquisition.spend", totals["spend"], workspace=workspace),
        "records": list(ad_spend_shape(spend, workspace) for spend in page),
    }
    return Figures(data, tuple(notes))
