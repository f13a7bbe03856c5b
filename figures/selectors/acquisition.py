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
from . import days as rollups
from .base import (
    BUCKETED_PARAMS,
    Buckets,
    Figures,
    Span,
    added,
    added_per_bucket,
    buckets_params,
    figures_params,
    leads_created_in,
    totals,
    utm_label,
)
from .family import Family

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
# The /acquisition figures a /series answers (from the spend and the cohort's leads and cash).
SERIES_FIGURES = frozenset({"spend", "cost_per_lead", "roas"})
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
    """The spend dated from first_day to last_day grouped by its UTM values (`by` "source"
    or "campaign"), or by its date ("day")."""
    return (
        _spend_dated(workspace=workspace, first_day=first_day, last_day=last_day)
        .order_by()
        .values_list(*(("date",) if by == "day" else _columns(by)))
        .annotate(spend=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
    )


spend_query = CompiledQuery(
    _spend_query,
    params={"workspace": UUIDField(), "first_day": DateField(), "last_day": DateField()},
    model=AdSpend,
)


# The same counts from the cohort's daily roll-up (figures.models.CohortDay).
_ROLLED_AGGREGATES = {
    "leads": Coalesce(Sum("n"), 0),
    "booked": Sum("booked"),
    "shows": Sum("shows"),
    "closes": Sum("closes"),
    "cash": Coalesce(Sum("cash"), 0, **_MINOR_SUM),
}


def _cohort_query(
    *,
    part,
    workspace,
    member,
    start,
    end,
    by=None,
    names=(),
    rolled=False,
    starts=None,
    grouping=None,
):
    """The period's leads grouped by their kept UtmTags ("tagged": each combination's tags
    looked up once per group), or those without it by their own tags ("untagged"), or
    the sums of `names` alone ("totals", per bucket with `grouping`: base.totals);
    `rolled`: from their daily roll-up (whole local days before today).

    Per group: how many, those with a call that counts (Lead.has_booking), those who
    showed (Lead.has_show), those with a sale, and the cash on their sales to date, all
    kept on the lead by the services: PostgreSQL reads them from lead_ws_created alone."""
    if rolled:
        leads = rollups.days_of(rollups.COHORT, workspace=workspace, span=Span(start, end))
        aggregates = _ROLLED_AGGREGATES
    else:
        leads = _cohort(workspace=workspace, period=Span(start, end))
        aggregates = _LEAD_AGGREGATES
    if part == "totals":
        wanted = {name: Coalesce(aggregates[name], 0) for name in names}
        return totals(leads, "created_at", wanted, starts=starts, grouping=grouping)
    columns = _columns(by)
    if part == "untagged":
        return (
            leads.filter(utm_tags_id__isnull=True)
            .order_by()
            .values_list(*columns)
            .annotate(**aggregates)
        )
    tags = UtmTags.objects.filter(pk=OuterRef("utm_tags_id"))
    return (
        leads.order_by()
        .values_list("utm_tags_id")
        .annotate(**aggregates)
        .annotate(
            **{
                f"tag_{name}": Subquery(tags.values(name.removeprefix("utm_"))[:1])
                for name in columns
            }
        )
    )


cohort_query = CompiledQuery(_cohort_query, params=BUCKETED_PARAMS, model=Lead)


def acquisition_counts(*, workspace, period: Period, by: str = BY_DEFAULT) -> dict:
    """{key (labels, `(none)` for a missing value): {spend, leads, booked, shows, closes,
    cash}}: one grouped pass over the period's spend (the index ad_spend_ws_date alone on
    PostgreSQL) and one over the period's leads (lead_ws_created alone, or the cohort's
    daily roll-up for whole local days before today)."""
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
    for rolled, span in rollups.cut(rollups.COHORT, workspace=workspace, period=period):
        times = figures_params(workspace=workspace, period=span)
        grouped = cohort_query(part="tagged", by=by, rolled=rolled, **times)
        untagged = False
        for pk, *values in grouped:
            if pk is None:
                untagged = True
                continue
            add(values[5:], values[:5])
        if untagged:
            # Leads written without their combination kept (not by the services): by their
            # tags.
            for *key, n, booked, shows, closes, cash in cohort_query(
                part="untagged", by=by, rolled=rolled, **times
            ):
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

    @classmethod
    def of(cls, workspace) -> _AcquisitionFields:
        """The workspace object's own, made once (a /series answer builds a point a bucket)."""
        built = getattr(workspace, "_acquisition_fields", None)
        if built is None:
            built = workspace._acquisition_fields = cls(workspace)
        return built

    def build(self, counts: dict, figures=None) -> dict:
        """The Fields of the counts (only `figures` when given), in the answer's order."""
        spend, cash = counts["spend"], counts["cash"]
        money = major_from_minor
        built = {
            "spend": lambda: self.spend.money(spend),
            **{
                key: (lambda key=key: self.counts[key].count(counts[key]))
                for key in ("leads", "booked", "shows", "closes")
            },
            "cash_collected": lambda: self.cash.money(cash),
            "cost_per_lead": lambda: self.costs["lead"].average(spend, counts["leads"]),
            "cost_per_booked_call": lambda: self.costs["booked_call"].average(
                spend, counts["booked"]
            ),
            "cost_per_show": lambda: self.costs["show"].average(spend, counts["shows"]),
            "cost_per_close": lambda: self.costs["close"].average(spend, counts["closes"]),
            "roas": lambda: self.roas.rate(
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
        return {key: field() for key, field in built.items() if figures is None or key in figures}


def _spend_and_cohort(*, workspace, period: Period, names, buckets: Buckets | None = None):
    """The period's spend per day ((date, spend) rows) and its cohort's sums of `names`, a
    part per run of days (the cohort's roll-up or today's leads), per bucket with buckets."""
    spend_by_day = spend_query(
        workspace=workspace.pk, first_day=period.first_day, last_day=period.last_day, by="day"
    )
    parts = [
        cohort_query(
            part="totals",
            names=names,
            **figures_params(workspace=workspace, period=span),
            rolled=rolled,
            **buckets_params(buckets),
        )
        for rolled, span in rollups.cut(rollups.COHORT, workspace=workspace, period=period)
    ]
    return spend_by_day, parts


def _period_totals(*, workspace, period: Period, names) -> dict:
    """{spend, each of `names`} of the period: the spend dated in it and its cohort's sums."""
    spend_by_day, parts = _spend_and_cohort(workspace=workspace, period=period, names=names)
    return {"spend": sum(amount for _, amount in spend_by_day), **added(parts)}


def acquisition_total(*, workspace, period: Period) -> dict:
    """`data.total` of /acquisition for the period without its rows: the spend dated in
    it and its cohort's counts and cash, each summed in the database (the total a page
    compares with, from a few rows instead of every combination's)."""
    counts = _period_totals(workspace=workspace, period=period, names=_COUNTS[1:])
    return _AcquisitionFields.of(workspace).build(counts)


def acquisition_figures(
    *, workspace, period: Period, by: str = BY_DEFAULT, figures=None
) -> Figures:
    """`data.rows` (one per key with spend or leads in the period, by spend, then leads,
    highest first, then the keys), `data.total` for the whole period (blended: every lead,
    close and cash against all the spend) and `data.paid`, the same figures over the rows
    that have spend in the period (what the ads bought); each with only the Fields of
    `figures` when given (what a page shows of them)."""
    counts = acquisition_counts(workspace=workspace, period=period, by=by)
    ordered = sorted(
        counts.items(), key=lambda item: (-item[1]["spend"], -item[1]["leads"], item[0])
    )
    built = _AcquisitionFields(workspace)
    columns = _columns(by)
    rows = [
        {**dict(zip(columns, key, strict=True)), **built.build(values, figures)}
        for key, values in ordered
    ]
    total = {name: sum(values[name] for values in counts.values()) for name in _COUNTS}
    paid = {
        name: sum(values[name] for values in counts.values() if values["spend"] > 0)
        for name in _COUNTS
    }
    return Figures(
        {
            "rows": rows,
            "total": built.build(total, figures),
            "paid": built.build(paid, figures),
        }
    )


# --- /series of acquisition.spend, cost_per_lead and roas ------------------------------


def acquisition_series_counts(*, workspace, period: Period, buckets: Buckets | None) -> dict:
    """{spend, leads, cash} of the period, or per bucket start with buckets: the spend by
    its day (a date: grouped per day in the database, each day placed in its bucket here)
    and the cohort's leads and cash by their creation time (whole local days before today
    from the cohort's daily roll-up)."""
    if buckets is None:
        return _period_totals(workspace=workspace, period=period, names=("leads", "cash"))
    spend_by_day, parts = _spend_and_cohort(
        workspace=workspace, period=period, names=("leads", "cash"), buckets=buckets
    )
    starts = [start for start, _ in buckets.starts]
    grouped: dict = {}
    for day, amount in spend_by_day:
        # The bucket whose start is the last one on or before the day.
        start = starts[max(bisect.bisect_right(starts, day) - 1, 0)]
        slot = grouped.setdefault(start, {"spend": 0, "leads": 0, "cash": 0})
        slot["spend"] += amount
    for start, values in added_per_bucket(parts, buckets).items():
        slot = grouped.setdefault(start, {"spend": 0, "leads": 0, "cash": 0})
        slot["leads"] += values["leads"]
        slot["cash"] += values["cash"]
    return grouped


def acquisition_series_data(counts: dict, workspace, figures=None) -> dict:
    """The Fields /series answers for acquisition.spend, cost_per_lead and roas (only
    `figures` when given)."""
    figures = SERIES_FIGURES if figures is None else SERIES_FIGURES & set(figures)
    zero = {"booked": 0, "shows": 0, "closes": 0}
    return _AcquisitionFields.of(workspace).build({**zero, **counts}, figures)


def _acquisition_counter(*, workspace, period: Period, member, buckets, now, keys):
    # The acquisition figures are the workspace's: no member has spend.
    return acquisition_series_counts(workspace=workspace, period=period, buckets=buckets)


# The acquisition figures /series offers: spend by its day, the cohort's leads and cash by
# their creation, built together (one set of cells).
ACQUISITION = Family(
    name="acquisition",
    count_keys=("spend", "leads", "cash"),
    fields=dict.fromkeys(sorted(SERIES_FIGURES)),
    counter=_acquisition_counter,
    builder=acquisition_series_data,
)


# --- /ad-spend: the records --------------------------------------------------------------


def ad_spend_list(*, workspace, period: Period, limit: int = AD_SPEND_LIMIT_DEFAULT) -> Figures:
    """acquisition.spend of the period and its records, oldest day first (then platform and
    id), at most `limit` of them, with a truncated note when the list is cut."""
    records = _spend_of(workspace=workspace, period=period)
    counted = records.aggregate(n=Count("*"), spend=Coalesce(Sum("amount"), 0, **_MINOR_SUM))
    page = list(records.order_by("date", "platform", "external_id", "pk")[:limit])
    notes = []
    if counted["n"] > len(page):
        notes.append(
            Note(
                "records",
                TRUNCATED,
                f"{len(page)} of {counted['n']} spend records listed (limit {limit}); spend "
                "counts them all.",
            )
        )
    data = {
        "spend": fields.money("acquisition.spend", counted["spend"], workspace=workspace),
        "records": list(ad_spend_shape(spend, workspace) for spend in page),
    }
    return Figures(data, tuple(notes))
