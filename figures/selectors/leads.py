"""/leads and /attribution: the leads created in the period (counted, and listed up to a
limit), and leads, closes and cash per UTM combination."""

from __future__ import annotations

from django.db.models import BigIntegerField, Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from core.compiled import CompiledQuery
from core.times import utc_iso
from workspaces import contact
from workspaces.kept import UTM_FIELDS
from workspaces.models import Lead, UtmTags

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import COUNT, MONEY, RATE, TRUNCATED
from . import days as rollups
from .base import (
    BUCKETED_PARAMS,
    FIGURES_PARAMS,
    Figures,
    Span,
    UtcText,
    added,
    added_per_bucket,
    buckets_params,
    figures_params,
    leads_created_in,
    member_ref_of,
    totals,
    utc_text_iso,
    utm_label,
)
from .family import Family

LEADS_LIMIT_MAX = 500
LEADS_LIMIT_DEFAULT = 100


# The columns a lead's row is written from (lead_row_of): the lead's, then its setter's.
LEAD_COLUMNS = (
    "pk",
    "created_at",
    "name",
    "email",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "status",
    "first_contact_at",
)
LEAD_ROW_COLUMNS = (*LEAD_COLUMNS, "setter_id", "setter__name", "setter__email")
# The same, each time as UTC text (UtcText): a long list skips a datetime per time.
LEAD_TEXT_COLUMNS = tuple(
    f"{name}_text" if name in ("created_at", "first_contact_at") else name
    for name in LEAD_ROW_COLUMNS
)


def lead_row_of(values, time_text=utc_iso) -> dict:
    """A lead's row from its LEAD_ROW_COLUMNS' values (as values_list gives them), each
    time written by `time_text` (utc_text_iso for LEAD_TEXT_COLUMNS' texts)."""
    (
        pk,
        created_at,
        name,
        email,
        source,
        medium,
        campaign,
        content,
        status,
        first_contact_at,
        setter,
        setter_name,
        setter_email,
    ) = values
    return {
        "id": str(pk),
        "created_at": time_text(created_at),
        "name": name,
        "email": email,
        "source": utm_label(source),
        "utm_source": utm_label(source),
        "utm_medium": utm_label(medium),
        "utm_campaign": utm_label(campaign),
        "utm_content": utm_label(content),
        "status": status,
        "setter": member_ref_of(setter, setter_name, setter_email),
        "first_contact_at": time_text(first_contact_at),
    }


def lead_row(lead) -> dict:
    """A lead's row from the lead (its setter read through the relation)."""
    setter = lead.setter
    values = [getattr(lead, name) for name in LEAD_COLUMNS]
    if setter is None:
        return lead_row_of((*values, None, None, None))
    return lead_row_of((*values, setter.pk, setter.name, setter.email))


def _leads_query(
    *,
    part: str,
    workspace,
    member,
    start,
    end,
    limit=None,
    rolled=False,
    starts=None,
    grouping=None,
):
    """The count of the leads created in [start, end) ("created"; `rolled`: from their
    daily roll-up, whole local days before today, of the whole workspace; per bucket with
    `grouping`: base.totals), or the first `limit` of them, newest first, with their setter
    ("page")."""
    if rolled:
        days = rollups.days_of(rollups.LEADS, workspace=workspace, span=Span(start, end))
        created = {"created": Coalesce(Sum("n"), 0)}
        return totals(days, "created_at", created, starts=starts, grouping=grouping)
    leads = leads_created_in(workspace=workspace, period=Span(start, end), member=member)
    if part == "created":
        created = {"created": Count("*")}
        return totals(leads, "created_at", created, starts=starts, grouping=grouping)
    # The columns of the rows only, not whole leads and setters.
    return (
        leads.order_by("-created_at", "-pk")
        .annotate(
            created_at_text=UtcText("created_at"),
            first_contact_at_text=UtcText("first_contact_at"),
        )
        .values_list(*LEAD_TEXT_COLUMNS)[:limit]
    )


leads_query = CompiledQuery(_leads_query, params=BUCKETED_PARAMS, model=Lead)


def leads_counts(*, workspace, period: Period, member=None, buckets=None):
    """{"created": n} of the period (per bucket start with buckets)."""
    cut = rollups.cut(rollups.LEADS, workspace=workspace, period=period, member=member)
    parts = [
        leads_query(
            part="created",
            **figures_params(workspace=workspace, period=span, member=member),
            rolled=rolled,
            **buckets_params(buckets),
        )
        for rolled, span in cut
    ]
    if buckets is None:
        return added(parts)
    return added_per_bucket(parts, buckets)


def _leads_counter(*, workspace, period: Period, member, buckets, now, keys):
    return leads_counts(workspace=workspace, period=period, member=member, buckets=buckets)


LEADS = Family(
    name="leads",
    count_keys=("created",),
    fields={
        "created": lambda counts, ws: fields.count("leads.created", counts["created"], workspace=ws)
    },
    counter=_leads_counter,
)


def leads_data(counts: dict, workspace) -> dict:
    return LEADS.data(counts, workspace)


def leads_figures(*, workspace, period: Period, member=None) -> Figures:
    """leads.created of /leads, without its list."""
    counts = leads_counts(workspace=workspace, period=period, member=member)
    return Figures(leads_data(counts, workspace))


def leads_list(
    *, workspace, period: Period, limit: int = LEADS_LIMIT_DEFAULT, member=None
) -> Figures:
    created = leads_counts(workspace=workspace, period=period, member=member)["created"]
    params = figures_params(workspace=workspace, period=period, member=member)
    page = leads_query(part="page", limit=limit, **params)
    notes = []
    if created > len(page):
        notes.append(
            Note(
                "leads",
                TRUNCATED,
                f"{len(page)} of {created} leads listed (limit {limit}); leads.created counts "
                "them all.",
            )
        )
    data = {
        **leads_data({"created": created}, workspace),
        "leads": list(lead_row_of(values, utc_text_iso) for values in page),
    }
    return Figures(data, tuple(notes))


# A lead attribution.closes counts: one with a sale (to date).
WITH_SALE = Q(has_sale=True)


def leads_of_period(
    *,
    workspace,
    period: Period,
    utm: dict | None = None,
    never_contacted: bool = False,
    with_sale: bool = False,
):
    """The leads leads.created counts (or, with `utm`, one attribution row's: the labels
    as the row answers them, `(none)` for empty), optionally only those never contacted,
    or only those with a sale (the row's closes, whose cash to date is its cash
    collected), with their setter."""
    leads = leads_created_in(workspace=workspace, period=period)
    for name, label in (utm or {}).items():
        if name not in UTM_FIELDS:
            raise KeyError(name)
        leads = leads.filter(**{name: "" if label == utm_label("") else label})
    if never_contacted:
        leads = leads.filter(contact.never_contacted())
    if with_sale:
        leads = leads.filter(WITH_SALE)
    return leads.select_related("setter")


# --- /attribution ---------------------------------------------------------------------


def _attribution_query(*, part, workspace, member, start, end, rolled=False):
    """The period's leads grouped by their kept UtmTags ("tagged"), or those without it
    grouped by their four tags ("untagged"); `rolled`: from their daily roll-up (whole
    local days before today, of the whole workspace)."""
    if rolled:
        leads = rollups.days_of(rollups.COHORT, workspace=workspace, span=Span(start, end))
        totals = {"n": Sum("n"), "closes": Sum("closes"), "cash": Sum("cash")}
    else:
        leads = leads_created_in(workspace=workspace, period=Span(start, end), member=member)
        # Only columns of lead_ws_created: PostgreSQL answers from the index alone.
        totals = {
            "n": Count("*"),
            "closes": Count("has_sale", filter=WITH_SALE),
            "cash": Coalesce(Sum("cash_collected"), 0, output_field=BigIntegerField()),
        }
    if part == "untagged":
        leads = leads.filter(utm_tags_id__isnull=True)
    grouped = (
        leads.order_by()
        .values_list(*(("utm_tags_id",) if part == "tagged" else UTM_FIELDS))
        .annotate(**totals)
    )
    if part == "untagged":
        return grouped
    # Then each combination's four tags, looked up once per group found.
    tags = UtmTags.objects.filter(pk=OuterRef("utm_tags_id"))
    return grouped.annotate(
        **{
            f"tag_{name}": Subquery(tags.values(name.removeprefix("utm_"))[:1])
            for name in UTM_FIELDS
        }
    )


attribution_query = CompiledQuery(_attribution_query, params=FIGURES_PARAMS, model=Lead)


def attribution_figures(*, workspace, period: Period, member=None) -> Figures:
    """Leads, closes and cash per UTM combination for the leads created in the period.

    One grouped pass over the period's leads by the combination the writers keep on each
    lead (UtmTags), read from the index lead_ws_created on PostgreSQL, with the tags of
    each combination found looked up in the same statement; whether a lead has a sale and
    the cash collected on its sales are kept on the lead by the services. Whole local days
    before today are read from the cohort's daily roll-up when the workspace has it.
    """
    totals: dict[tuple, list[int]] = {}

    def add(key: tuple, *values: int) -> None:
        total = totals.setdefault(tuple(utm_label(v) for v in key), [0, 0, 0])
        for i, value in enumerate(values):
            total[i] += value

    for rolled, span in rollups.cut(
        rollups.COHORT, workspace=workspace, period=period, member=member
    ):
        common = {
            **figures_params(workspace=workspace, period=span, member=member),
            "rolled": rolled,
        }
        grouped = attribution_query(part="tagged", **common)
        for pk, n, closes, cash, *tags in grouped:
            if pk is not None:
                add(tags, n, closes, cash)
        if any(row[0] is None for row in grouped):
            # Leads written without their combination kept (not by the services): by their
            # tags.
            for *key, n, closes, cash in attribution_query(part="untagged", **common):
                add(key, n, closes, cash)
    leads = fields.FieldsOf("attribution.leads", COUNT, workspace=workspace)
    closes = fields.FieldsOf("attribution.closes", COUNT, workspace=workspace)
    cash = fields.FieldsOf("attribution.cash_collected", MONEY, workspace=workspace)
    close_rate = fields.FieldsOf("attribution.close_rate", RATE, workspace=workspace)
    rows = []
    labelled = sorted(totals.items(), key=lambda item: (-item[1][0], item[0]))
    for key, (n, row_closes, row_cash) in labelled:
        rows.append(
            {
                **dict(zip(UTM_FIELDS, key, strict=True)),
                "leads": leads.count(n),
                "closes": closes.count(row_closes),
                "cash_collected": cash.money(row_cash),
                "close_rate": close_rate.rate(row_closes, n),
            }
        )
    return Figures({"rows": rows})


def leads_created_of_attribution(data: dict, workspace) -> fields.Field:
    """leads.created of attribution_figures' period, from its rows: each lead created in
    the period is counted in exactly one row (its UTM combination), so no query."""
    created = sum(row["leads"].value for row in data["rows"])
    return leads_data({"created": created}, workspace)["created"]
