"""The records behind a figure: the page a headline figure, a table row or a note opens.

Each list holds exactly what its figure counts, read through the figures' own selectors
(figures.selectors.calls_of_figure, leads_of_period, payments_of_figure,
commission_records, eod_reports_of_period, ad_spend_of_period), which build it from the
condition the figure's aggregate counts, for the period of the page that opened it,
oldest first, a page at a time. Pages follow a cursor (the time and id of the first or
last row shown), so a page costs the same however deep it is, and rows added meanwhile
neither repeat nor go missing. A list is searched by name or email, and `?export=csv`
streams all of its rows (the search applied) as CSV: each column as the page writes it,
and beside a time or an amount the value a program reads (the instant in ISO 8601 UTC,
the minor units and the currency).
"""

from __future__ import annotations

import base64
import binascii
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import reduce
from operator import or_
from urllib.parse import urlencode

from django.db.models import Q
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from core.display import moment_seconds_text, moment_text, number_text, workspace_day_text
from core.money import money_text
from core.times import instant_parse, utc_iso
from figures import selectors as figures_selectors
from workspaces.access import page
from workspaces.models import CommissionRule, Member

from .exports import csv_response, text_cell
from .pages import page_membership, page_nav, period_picker
from .periods import period_pick

PAGE_SIZE = 50
EN_DASH = "\u2013"  # between the first and last row shown: 1-50 of 131
SEARCH_MAX = 200

CALL_LISTS = {
    "booked": "Calls booked",
    "taken": "Calls taken",
    "no_show": "No-shows",
    "awaiting_outcome": "Calls awaiting an outcome",
    "upcoming": "Upcoming calls",
    "closed": "Calls closed",
    "cancelled": "Calls cancelled",
    "show_rate": "Calls with attendance recorded",
}
CALL_LIST_NOTES = {
    "taken": "The calls the close rate is taken over: the outcome says which closed.",
    "show_rate": "The calls the show rate is taken over: those who showed up and those "
    "who did not.",
}


# --- Columns: what the page shows, and what a CSV adds beside it ----------------------


@dataclass(frozen=True)
class Column:
    """One column of a list: its heading and text as the page writes them, and the
    columns a CSV adds beside it for a program (heading, value of the record)."""

    heading: str
    text: Callable
    machine: tuple[tuple[str, Callable], ...] = ()
    # The text a CSV writes, when not the page's (a time: to the second).
    csv_text: Callable | None = None


def moment_column(heading: str, read: Callable, empty: str = "") -> Column:
    def text(record) -> str:
        value = read(record)
        return moment_text(value) if value is not None else empty

    def csv_text(record) -> str:
        value = read(record)
        return moment_seconds_text(value) if value is not None else empty

    return Column(
        heading,
        text,
        ((f"{heading} (UTC, ISO 8601)", lambda r: utc_iso(read(r)) or ""),),
        csv_text,
    )


def day_column(heading: str, read: Callable) -> Column:
    return Column(
        heading,
        lambda r: workspace_day_text(read(r)),
        ((f"{heading} (ISO 8601)", lambda r: read(r).isoformat()),),
    )


def money_column(heading: str, read: Callable, workspace) -> Column:
    currency, exponent = workspace.currency, workspace.currency_exponent
    return Column(
        heading,
        lambda r: money_text(read(r), currency, exponent=exponent),
        (
            (f"{heading} (minor units)", read),
            (f"{heading} (currency)", lambda r: currency),
        ),
    )


def text_column(heading: str, read: Callable, empty: str = "—") -> Column:
    return Column(heading, lambda r: read(r) or empty)


def count_column(heading: str, read: Callable) -> Column:
    def text(record) -> str:
        value = read(record)
        return "—" if value is None else number_text(value)

    return Column(heading, text, ((f"{heading} (number)", lambda r: read(r)),))


def person_name(person) -> str:
    if person is None:
        return "—"
    return person.name or person.email or "(no name)"


def lead_name(lead) -> str:
    return lead.name or lead.email or "(no name)"


def _outcome(call) -> str:
    if call.outcome:
        return call.outcome.replace("_", " ")
    if call.attendance:
        return call.get_attendance_display().lower()
    return "not recorded"


# --- A list --------------------------------------------------------------------------


@dataclass
class Listing:
    """A list of records: the queryset behind its figure (time column, oldest first), its
    columns, the lead its rows open, the fields its search reads."""

    name: str
    title: str
    noun: tuple[str, str]
    records: object
    time_field: str
    columns: list[Column]
    search: tuple[str, ...]
    lead_of: Callable | None = None
    keep: dict = field(default_factory=dict)
    note: str = ""


def cursor_encode(moment: datetime | date, pk) -> str:
    raw = f"{moment.isoformat()}|{pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cursor_decode(cursor: str, *, day: bool = False) -> tuple[datetime | date, uuid.UUID] | None:
    """The (time, id) a cursor names (a day for a list ordered by date); None for one that
    cannot be read (the first page)."""
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        moment, pk = raw.split("|")
        return (date.fromisoformat(moment) if day else instant_parse(moment)), uuid.UUID(pk)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        # (InstantInvalid is a ValueError: a time without an offset or outside the
        # calendar's bounds cannot be compared with the stored ones.)
        return None


def _after(time_field: str, moment, pk) -> Q:
    return Q(**{f"{time_field}__gt": moment}) | Q(**{time_field: moment, "pk__gt": pk})


def _before(time_field: str, moment, pk) -> Q:
    return Q(**{f"{time_field}__lt": moment}) | Q(**{time_field: moment, "pk__lt": pk})


@dataclass
class Page:
    rows: list
    first: int  # the position of the first row, from 1 (0 when the page is empty)
    next_cursor: str | None
    previous_cursor: str | None


def keyset_page(
    queryset, time_field: str, cursor: str, *, before: str = "", day: bool = False
) -> Page:
    """One page, oldest first: after `cursor`, or the page that ends before `before`;
    with the cursors of the pages after and before it."""
    ordered = queryset.order_by(time_field, "pk")
    limit = PAGE_SIZE + 1
    back = cursor_decode(before, day=day) if before else None
    if back is not None:
        rows = list(
            queryset.filter(_before(time_field, *back)).order_by(f"-{time_field}", "-pk")[:limit]
        )
        more_before = len(rows) > PAGE_SIZE
        rows = list(reversed(rows[:PAGE_SIZE]))
        more_after = True
    else:
        after = cursor_decode(cursor, day=day)
        if after is not None:
            ordered = ordered.filter(_after(time_field, *after))
        rows = list(ordered[:limit])
        more_after = len(rows) > PAGE_SIZE
        rows = rows[:PAGE_SIZE]
        more_before = None
    if not rows:
        return Page([], 0, None, None)
    head, tail = rows[0], rows[-1]
    earlier = queryset.filter(_before(time_field, getattr(head, time_field), head.pk)).count()
    if more_before is None:
        more_before = earlier > 0
    return Page(
        rows,
        earlier + 1,
        cursor_encode(getattr(tail, time_field), tail.pk) if more_after else None,
        cursor_encode(getattr(head, time_field), head.pk) if more_before else None,
    )


def searched(listing: Listing, query: str):
    query = query.strip()[:SEARCH_MAX]
    if not query:
        return listing.records
    return listing.records.filter(
        reduce(or_, (Q(**{f"{path}__icontains": query}) for path in listing.search))
    )


def list_page(request, workspace, member, picked, listing: Listing):
    """The list's page, or with ?export=csv its rows as CSV."""
    query_text = request.GET.get("q", "").strip()[:SEARCH_MAX]
    records = searched(listing, query_text)
    if request.GET.get("export") == "csv":
        return csv_response(
            workspace=workspace,
            name=f"{listing.name}-{picked.period.first_day}-to-{picked.period.last_day}",
            headings=csv_headings(listing.columns),
            rows=(csv_row(listing.columns, record) for record in _all(records, listing)),
        )
    day = listing.time_field == "date"
    shown = keyset_page(
        records,
        listing.time_field,
        request.GET.get("cursor", ""),
        before=request.GET.get("before", ""),
        day=day,
    )
    total = records.count()
    base = {"range": picked.choice, **picked.query(), **listing.keep}
    if query_text:
        base["q"] = query_text
    rows = [
        {
            "pk": record.pk,
            "lead_url": (
                reverse("dashboard-lead", args=[listing.lead_of(record).pk])
                if listing.lead_of is not None
                else ""
            ),
            "cells": [column.text(record) for column in listing.columns],
        }
        for record in shown.rows
    ]
    last = shown.first + len(rows) - 1 if rows else 0
    singular, plural = listing.noun
    context = {
        **page_nav(workspace, member),
        **period_picker(request, picked),
        "title": listing.title,
        "note": listing.note,
        "total": total,
        "total_text": f"{number_text(total)} {singular if total == 1 else plural}",
        "shown_text": (
            f"{number_text(shown.first)}{EN_DASH}{number_text(last)} of {number_text(total)}"
            if rows
            else ""
        ),
        "headings": [column.heading for column in listing.columns],
        "rows": rows,
        "next_url": f"?{urlencode({**base, 'cursor': shown.next_cursor})}"
        if shown.next_cursor
        else "",
        "previous_url": f"?{urlencode({**base, 'before': shown.previous_cursor})}"
        if shown.previous_cursor
        else "",
        "first_url": f"?{urlencode(base)}" if shown.previous_cursor else "",
        "export_url": f"?{urlencode({**base, 'export': 'csv'})}",
        "search": query_text,
        # The list's filter, which the search form keeps; the period picker keeps the
        # search too.
        "filters": listing.keep,
        "keep": {**listing.keep, **({"q": query_text} if query_text else {})},
        "kind": listing.name,
        "section": "records",
    }
    return render(request, "dashboard/records.html", context)


def _all(records, listing: Listing):
    return records.order_by(listing.time_field, "pk").iterator(chunk_size=500)


def csv_headings(columns) -> list[str]:
    headings = []
    for column in columns:
        headings.append(column.heading)
        headings.extend(heading for heading, _ in column.machine)
    return headings


def csv_row(columns, record) -> list:
    row = []
    for column in columns:
        text = (column.csv_text or column.text)(record)
        # A column without a program's value beside it is text people or providers wrote.
        row.append(text if column.machine else text_cell(text))
        row.extend(read(record) for _, read in column.machine)
    return row


# --- The lists -------------------------------------------------------------------------


def wide_role(request, workspace_id):
    """The lists are the workspace's: a closer, setter or SDR gets the 403 page naming who
    may open them, as on every page (the one page policy, workspaces.access)."""
    return page_membership(
        request, workspace_id, roles=Member.WORKSPACE_WIDE_ROLES, doing="opens its lists"
    )


def _holder(request, workspace) -> Member | None:
    """The member ?member= names, or None; the 404 page for an id of no member here."""
    if not request.GET.get("member"):
        return None
    try:
        holder = Member.objects.filter(
            workspace=workspace, pk=uuid.UUID(request.GET["member"])
        ).first()
    except ValueError:
        holder = None
    if holder is None:
        raise Http404("No member of this workspace has that id.")
    return holder


def _lead_columns(workspace, lead_of) -> list[Column]:
    return [
        Column("Lead", lambda r: lead_name(lead_of(r))),
        text_column("Email", lambda r: lead_of(r).email),
    ]


@page
def calls_list(request, workspace_id):
    """?figure=taken|awaiting_outcome|show_rate|...&member=<id>: the calls a /calls figure
    counts (or a rate is taken over), of the whole workspace or of one member."""
    workspace, member = wide_role(request, workspace_id)
    figure = request.GET.get("figure", "booked")
    if figure not in CALL_LISTS:
        figure = "booked"
    picked = period_pick(workspace=workspace, params=request.GET)
    keep = {"figure": figure}
    title = CALL_LISTS[figure]
    holder = _holder(request, workspace)
    if holder is not None:
        keep["member"] = str(holder.pk)
        title = f"{title} with {holder.name}"
    calls = figures_selectors.calls_of_figure(
        workspace=workspace, period=picked.period, figure=figure, member=holder
    )
    listing = Listing(
        name="calls",
        title=title,
        noun=("call", "calls"),
        records=calls,
        time_field="scheduled_for",
        columns=[
            *_lead_columns(workspace, lambda call: call.lead),
            moment_column("Scheduled", lambda call: call.scheduled_for),
            Column("Closer", lambda call: person_name(call.closer)),
            Column("Setter", lambda call: person_name(call.setter)),
            Column("Outcome", _outcome),
        ],
        search=("lead__name", "lead__email"),
        lead_of=lambda call: call.lead,
        keep=keep,
        note=CALL_LIST_NOTES.get(figure, ""),
    )
    return list_page(request, workspace, member, picked, listing)


@page
def leads_list(request, workspace_id):
    """?waiting=1 (never contacted) and ?utm_source=...&utm_medium=... (an attribution
    row): the leads created in the period."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = {
        name: request.GET[name]
        for name in figures_selectors.UTM_FIELDS
        if request.GET.get(name) is not None
    }
    waiting = request.GET.get("waiting") == "1"
    sold = request.GET.get("sold") == "1"
    keep = {**utm, **({"waiting": "1"} if waiting else {}), **({"sold": "1"} if sold else {})}
    leads = figures_selectors.leads_of_period(
        workspace=workspace,
        period=picked.period,
        utm=utm,
        never_contacted=waiting,
        with_sale=sold,
    )
    title = "Leads never contacted" if waiting else "Leads created"
    if sold:
        title = "Leads created with a sale"
    if utm:
        title += " from " + " / ".join(
            utm[name] for name in figures_selectors.UTM_FIELDS if name in utm
        )
    listing = Listing(
        name="leads",
        title=title,
        noun=("lead", "leads"),
        records=leads,
        time_field="created_at",
        columns=[
            *_lead_columns(workspace, lambda lead: lead),
            moment_column("Created", lambda lead: lead.created_at),
            text_column("Source", lambda lead: lead.utm_source, "(none)"),
            Column("Setter", lambda lead: person_name(lead.setter)),
            moment_column("First contact", lambda lead: lead.first_contact_at, "not yet"),
            *(
                [
                    money_column(
                        "Cash collected to date", lambda lead: lead.cash_collected, workspace
                    )
                ]
                if sold
                else []
            ),
        ],
        search=("name", "email"),
        lead_of=lambda lead: lead,
        keep=keep,
        note=(
            "Created in the period and never contacted."
            if waiting
            else "Created in the period, with a sale to date: the closes of attribution, "
            "whose cash collected is the sum of their cash to date."
            if sold
            else ""
        ),
    )
    return list_page(request, workspace, member, picked, listing)


def _commission_slot(request, workspace, holder) -> str | None:
    """?slot=closer|setter with a member: the records of their commission (the rule's
    slot), as /commission adds them up."""
    slot = request.GET.get("slot")
    if holder is None or slot not in CommissionRule.Slot.values:
        return None
    return slot


def _money_records(request, workspace, picked, part: str):
    """The part's records of /payments, or with ?member=&slot= those of the member's
    commission; the title's suffix and what the page keeps."""
    holder = _holder(request, workspace)
    slot = _commission_slot(request, workspace, holder)
    if slot is not None:
        records, time_field = figures_selectors.commission_records(
            workspace=workspace, period=picked.period, part=part, member=holder, slot=slot
        )
        keep = {"member": str(holder.pk), "slot": slot}
        return records, time_field, f" with {holder.name} as {slot}", keep
    records, time_field = figures_selectors.payments_of_figure(
        workspace=workspace, period=picked.period, part=part, member=holder
    )
    if holder is None:
        return records, time_field, "", {}
    return records, time_field, f" with {holder.name}", {"member": str(holder.pk)}


@page
def payments_list(request, workspace_id):
    """The succeeded payments cash collected adds up (?member=&slot=: those of a member's
    commission)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep = _money_records(request, workspace, picked, "cash")
    listing = Listing(
        name="payments",
        title="Payments" + suffix,
        noun=("payment", "payments"),
        records=records.select_related("sale__lead", "closer", "setter"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda payment: payment.sale.lead),
            moment_column("Paid", lambda payment: payment.paid_at),
            money_column("Amount", lambda payment: payment.amount, workspace),
            Column("Closer", lambda payment: person_name(payment.closer)),
            Column("Setter", lambda payment: person_name(payment.setter)),
        ],
        search=("sale__lead__name", "sale__lead__email"),
        lead_of=lambda payment: payment.sale.lead,
        keep=keep,
        note="The succeeded payments made in the period: cash collected is their sum.",
    )
    return list_page(request, workspace, member, picked, listing)


@page
def refunds_list(request, workspace_id):
    """The refunds and chargebacks refunded adds up."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep = _money_records(request, workspace, picked, "refunds")
    listing = Listing(
        name="refunds",
        title="Refunds" + suffix,
        noun=("refund", "refunds"),
        records=records.select_related("sale__lead"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda refund: refund.sale.lead),
            moment_column("Refunded", lambda refund: refund.at),
            money_column("Amount", lambda refund: refund.amount, workspace),
            Column("Kind", lambda refund: refund.get_kind_display().lower()),
        ],
        search=("sale__lead__name", "sale__lead__email"),
        lead_of=lambda refund: refund.sale.lead,
        keep=keep,
        note="The refunds and chargebacks dated in the period: refunded is their sum, and "
        "net cash is cash collected minus it.",
    )
    return list_page(request, workspace, member, picked, listing)


@page
def sales_list(request, workspace_id):
    """The sales closed in the period, whose contract values revenue booked adds up."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep = _money_records(request, workspace, picked, "sales")
    listing = Listing(
        name="sales",
        title="Sales" + suffix,
        noun=("sale", "sales"),
        records=records.select_related("lead", "closer", "setter"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda sale: sale.lead),
            moment_column("Closed", lambda sale: sale.closed_at),
            money_column("Contract value", lambda sale: sale.contract_value, workspace),
            money_column("Cash collected to date", lambda sale: sale.cash_collected, workspace),
            Column("Closer", lambda sale: person_name(sale.closer)),
            Column("Setter", lambda sale: person_name(sale.setter)),
        ],
        search=("lead__name", "lead__email"),
        lead_of=lambda sale: sale.lead,
        keep=keep,
        note="The sales closed in the period: revenue booked is their contract values' sum.",
    )
    return list_page(request, workspace, member, picked, listing)


@page
def eod_list(request, workspace_id):
    """The EOD reports of the period's days (?member=: one member's)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    holder = _holder(request, workspace)
    reports = figures_selectors.eod_reports_of_period(
        workspace=workspace, period=picked.period, member=holder
    )
    listing = Listing(
        name="eod-reports",
        title="EOD reports" + (f" of {holder.name}" if holder else ""),
        noun=("EOD report", "EOD reports"),
        records=reports,
        time_field="date",
        columns=[
            Column("Member", lambda report: person_name(report.member)),
            text_column("Email", lambda report: report.member.email),
            day_column("Day", lambda report: report.date),
            moment_column("Filed", lambda report: report.submitted_at),
        ],
        search=("member__name", "member__email"),
        keep={"member": str(holder.pk)} if holder else {},
        note="The reports filed for the period's days; EOD compliance counts those of the "
        "working days each member was due to report.",
    )
    return list_page(request, workspace, member, picked, listing)


@page
def spend_list(request, workspace_id):
    """The ad spend records of the period's days (?utm_source=&utm_campaign=: one
    /acquisition row's)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = {
        name: request.GET[name]
        for name in ("utm_source", "utm_campaign")
        if request.GET.get(name) is not None
    }
    records = figures_selectors.ad_spend_of_period(
        workspace=workspace, period=picked.period, utm=utm
    )
    title = "Ad spend"
    if utm:
        title += " of " + " / ".join(utm.values())
    listing = Listing(
        name="spend",
        title=title,
        noun=("spend record", "spend records"),
        records=records,
        time_field="date",
        columns=[
            day_column("Day", lambda spend: spend.date),
            text_column("Platform", lambda spend: spend.platform),
            text_column("Source", lambda spend: spend.utm_source, "(none)"),
            text_column("Campaign", lambda spend: spend.utm_campaign, "(none)"),
            text_column("Campaign name", lambda spend: spend.campaign_name),
            money_column("Spend", lambda spend: spend.amount, workspace),
            count_column("Impressions", lambda spend: spend.impressions),
            count_column("Clicks", lambda spend: spend.clicks),
        ],
        search=("campaign_name", "utm_campaign", "utm_source", "platform"),
        keep=utm,
        note="The spend dated on the period's days: acquisition spend is their sum.",
    )
    return list_page(request, workspace, member, picked, listing)
