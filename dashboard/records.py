"""The records behind a figure: what every list page of the app does (dashboard/lists.py
holds the lists themselves and their filters).

Each list holds exactly what its figure counts, read through the figures' own selectors
(figures.selectors.calls_of_figure, leads_of_period, payments_of_figure,
commission_records, eod_reports_of_period, ad_spend_of_period), which build it from the
condition the figure's aggregate counts, for the period of the page that opened it,
newest first, a page at a time. Its main columns (time, amounts, name) sort by their
heading's link (?sort=&dir=, empty values last). Pages follow a cursor (the sort value and
id of the first or last row shown), so a page costs the same however deep it is, and rows
added meanwhile neither repeat nor go missing. The filters a list offers (closer, setter,
outcome or kind, the lead's UTM values) are kept in the address and shown as chips, each
with the address without it. A list is searched by name or email, and `?export=csv`
streams all of its rows (the search and filters applied, in the page's order) as CSV: each
column as the page writes it, and beside a time or an amount the value a program reads
(the instant in ISO 8601 UTC, the minor units and the currency).
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import reduce
from operator import or_
from urllib.parse import urlencode

from django.db.models import CharField, F, Q, Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.shortcuts import render
from django.urls import reverse

from core.display import moment_seconds_text, moment_text, number_text, workspace_day_text
from core.money import money_text
from core.times import instant_parse, utc_iso
from workspaces.models import Member

from .exports import csv_response, text_cell
from .pages import page_membership, page_nav, period_picker

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


def outcome_text(call) -> str:
    if call.outcome:
        return call.outcome.replace("_", " ")
    if call.attendance:
        return call.get_attendance_display().lower()
    return "not recorded"


# --- Sorting: the columns a list orders by -------------------------------------------

SORT_VALUE = "sort_value"  # the annotation a page orders and pages by


@dataclass(frozen=True)
class Sort:
    """A column a list sorts by: the key the address names (?sort=), the heading it sorts,
    the database expression it orders by, the kind of value (how a cursor writes it), the
    order's words (ascending, descending) and whether the value may be empty (NULL, which
    goes last either way)."""

    key: str
    heading: str
    expression: object
    kind: str  # "moment", "day", "number" or "text"
    words: tuple[str, str]
    nullable: bool = False

    @property
    def first_descending(self) -> bool:
        """Times and amounts open largest (newest) first, names from A."""
        return self.kind != "text"


def time_sort(key: str, heading: str, field_name: str, *, day=False, nullable=False) -> Sort:
    kind = "day" if day else "moment"
    return Sort(key, heading, F(field_name), kind, ("oldest first", "newest first"), nullable)


def amount_sort(key: str, heading: str, field_name: str) -> Sort:
    return Sort(key, heading, F(field_name), "number", ("smallest first", "largest first"))


def name_sort(key: str, heading: str, prefix: str) -> Sort:
    """By the name the row shows (its name, else its email), case aside; none last."""
    shown = Coalesce(
        NullIf(F(f"{prefix}name"), Value("")),
        NullIf(F(f"{prefix}email"), Value("")),
        output_field=CharField(),
    )
    return Sort(key, heading, Lower(shown), "text", ("A to Z", "Z to A"), nullable=True)


def text_sort(key: str, heading: str, field_name: str) -> Sort:
    return Sort(
        key,
        heading,
        Lower(NullIf(F(field_name), Value(""))),
        "text",
        ("A to Z", "Z to A"),
        nullable=True,
    )


def sort_pick(sorts, params) -> tuple[Sort, bool]:
    """The sort and direction ?sort=&dir= name; the list's first sort (newest first) for
    a key it has not."""
    by_key = {sort.key: sort for sort in sorts}
    key = params.get("sort", "")
    if key and key not in by_key:
        return sorts[0], sorts[0].first_descending
    sort = by_key.get(key, sorts[0])
    direction = params.get("dir")
    if direction not in ("asc", "desc"):
        return sort, sort.first_descending
    return sort, direction == "desc"


def order_words(sorts, sort: Sort, descending: bool) -> str:
    words = sort.words[descending]
    if sort is sorts[0]:
        return words[0].upper() + words[1:]
    return f"By {sort.heading.lower()}, {words}"


def _order(sort: Sort, descending: bool, *, reverse: bool = False) -> tuple:
    """The ORDER BY of a page: the sort value (NULLs last), then the id the same way; or
    the other way round, to read the page before a cursor."""
    down = descending != reverse
    value = F(SORT_VALUE)
    if sort.nullable:
        nulls = {"nulls_first": True} if reverse else {"nulls_last": True}
        value = value.desc(**nulls) if down else value.asc(**nulls)
    else:
        # No NULLS modifier: the (workspace, time) index is read either way.
        value = value.desc() if down else value.asc()
    return value, "-pk" if down else "pk"


def _beyond(value, pk, descending: bool, nullable: bool) -> Q:
    """The rows after (value, id) in the list's order."""
    op = "lt" if descending else "gt"
    if value is None:
        return Q(**{f"{SORT_VALUE}__isnull": True, f"pk__{op}": pk})
    found = Q(**{f"{SORT_VALUE}__{op}": value}) | Q(**{SORT_VALUE: value, f"pk__{op}": pk})
    return found | Q(**{f"{SORT_VALUE}__isnull": True}) if nullable else found


def _ahead(value, pk, descending: bool, nullable: bool) -> Q:
    """The rows before (value, id) in the list's order."""
    op = "gt" if descending else "lt"
    if value is None:
        return Q(**{f"{SORT_VALUE}__isnull": False}) | Q(
            **{f"{SORT_VALUE}__isnull": True, f"pk__{op}": pk}
        )
    return Q(**{f"{SORT_VALUE}__{op}": value}) | Q(**{SORT_VALUE: value, f"pk__{op}": pk})


def sorted_records(records, sort: Sort, descending: bool):
    return records.annotate(**{SORT_VALUE: sort.expression}).order_by(*_order(sort, descending))


# --- A list --------------------------------------------------------------------------


@dataclass
class Listing:
    """A list of records: the queryset behind its figure, its columns, the columns it sorts
    by (the first, its time, is the default, newest first), the lead its rows open, the
    fields its search reads, the filters it keeps in the address and their chips."""

    name: str
    title: str
    noun: tuple[str, str]
    records: object
    time_field: str
    columns: list[Column]
    search: tuple[str, ...]
    sorts: tuple[Sort, ...] = ()
    lead_of: Callable | None = None
    keep: dict = field(default_factory=dict)
    note: str = ""
    # (words, the parameters its remove link leaves out), in the order shown.
    chips: list = field(default_factory=list)
    # Filter values refused (an id of no member here...), each said in words.
    refused: list = field(default_factory=list)
    # The filter form's selects: (name, label, [(group, [(value, text)])], chosen).
    selects: list = field(default_factory=list)


def cursor_encode(sort: Sort, descending: bool, value, pk) -> str:
    if isinstance(value, date | datetime):
        value = value.isoformat()
    raw = json.dumps(
        [sort.key, "desc" if descending else "asc", value, str(pk)], separators=(",", ":")
    )
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _cursor_value(sort: Sort, value):
    if value is None:
        if not sort.nullable:
            raise ValueError("no value")
        return None
    if sort.kind == "number":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("not a number")
        return value
    if not isinstance(value, str):
        raise ValueError("not text")
    if sort.kind == "moment":
        return instant_parse(value)
    if sort.kind == "day":
        return date.fromisoformat(value)
    return value


def cursor_decode(cursor: str, sort: Sort, descending: bool) -> tuple | None:
    """The (sort value, id) a cursor names; None for one that cannot be read or was
    written for another order (the first page)."""
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        key, direction, value, pk = json.loads(raw)
        if key != sort.key or direction != ("desc" if descending else "asc"):
            return None
        return _cursor_value(sort, value), uuid.UUID(pk)
    except (binascii.Error, UnicodeDecodeError, ValueError, TypeError, AttributeError):
        # (InstantInvalid is a ValueError: a time without an offset or outside the
        # calendar's bounds cannot be compared with the stored ones.)
        return None


@dataclass
class Page:
    rows: list
    first: int  # the position of the first row, from 1 (0 when the page is empty)
    next_cursor: str | None
    previous_cursor: str | None


def keyset_page(queryset, sort: Sort, descending: bool, cursor: str, *, before: str = "") -> Page:
    """One page in the sort's order: after `cursor`, or the page that ends before
    `before`; with the cursors of the pages after and before it. Each reads at most a page
    and one row more, and counts the rows before its first."""
    records = queryset.annotate(**{SORT_VALUE: sort.expression})
    limit = PAGE_SIZE + 1
    back = cursor_decode(before, sort, descending) if before else None
    if back is not None:
        rows = list(
            records.filter(_ahead(*back, descending, sort.nullable)).order_by(
                *_order(sort, descending, reverse=True)
            )[:limit]
        )
        more_before = len(rows) > PAGE_SIZE
        rows = list(reversed(rows[:PAGE_SIZE]))
        more_after = True
    else:
        ordered = records.order_by(*_order(sort, descending))
        after = cursor_decode(cursor, sort, descending)
        if after is not None:
            ordered = ordered.filter(_beyond(*after, descending, sort.nullable))
        rows = list(ordered[:limit])
        more_after = len(rows) > PAGE_SIZE
        rows = rows[:PAGE_SIZE]
        more_before = None
    if not rows:
        return Page([], 0, None, None)
    head, tail = rows[0], rows[-1]
    earlier = records.filter(
        _ahead(getattr(head, SORT_VALUE), head.pk, descending, sort.nullable)
    ).count()
    if more_before is None:
        more_before = earlier > 0
    return Page(
        rows,
        earlier + 1,
        cursor_encode(sort, descending, getattr(tail, SORT_VALUE), tail.pk) if more_after else None,
        cursor_encode(sort, descending, getattr(head, SORT_VALUE), head.pk)
        if more_before
        else None,
    )


def searched(listing: Listing, query: str):
    query = query.strip()[:SEARCH_MAX]
    if not query:
        return listing.records
    return listing.records.filter(
        reduce(or_, (Q(**{f"{path}__icontains": query}) for path in listing.search))
    )


def _query(params: dict) -> str:
    return f"?{urlencode(params)}"


def _headings(listing: Listing, base: dict, sort: Sort, descending: bool) -> list[dict]:
    """Each column's heading, and for a column the list sorts by the link that sorts by
    it (the other way round when it is the sort already)."""
    sorts = {each.heading: each for each in listing.sorts}
    headings = []
    for column in listing.columns:
        by = sorts.get(column.heading)
        heading = {"text": column.heading, "key": "", "url": "", "sorted": ""}
        if by is not None:
            chosen = by is sort
            down = (not descending) if chosen else by.first_descending
            heading.update(
                key=by.key,
                url=_query({**base, "sort": by.key, "dir": "desc" if down else "asc"}),
                sorted=("descending" if descending else "ascending") if chosen else "",
                words=by.words[descending] if chosen else "",
            )
        headings.append(heading)
    return headings


def list_page(request, workspace, member, picked, listing: Listing):
    """The list's page, or with ?export=csv its rows as CSV, in the same order."""
    query_text = request.GET.get("q", "").strip()[:SEARCH_MAX]
    records = searched(listing, query_text)
    sort, descending = sort_pick(listing.sorts, request.GET)
    if request.GET.get("export") == "csv":
        return csv_response(
            workspace=workspace,
            name=f"{listing.name}-{picked.period.first_day}-to-{picked.period.last_day}",
            headings=csv_headings(listing.columns),
            rows=(
                csv_row(listing.columns, record)
                for record in sorted_records(records, sort, descending).iterator(chunk_size=500)
            ),
        )
    shown = keyset_page(
        records,
        sort,
        descending,
        request.GET.get("cursor", ""),
        before=request.GET.get("before", ""),
    )
    total = records.count()
    period = {"range": picked.choice, **picked.query()}
    base = {**period, **listing.keep}
    if query_text:
        base["q"] = query_text
    default = sort is listing.sorts[0] and descending == sort.first_descending
    order = {} if default else {"sort": sort.key, "dir": "desc" if descending else "asc"}
    paged = {**base, **order}
    labels = [column.heading for column in listing.columns]
    rows = [
        {
            "pk": record.pk,
            "lead_url": (
                reverse("dashboard-lead", args=[listing.lead_of(record).pk])
                if listing.lead_of is not None
                else ""
            ),
            "cells": list(
                zip(labels, (column.text(record) for column in listing.columns), strict=True)
            ),
        }
        for record in shown.rows
    ]
    last = shown.first + len(rows) - 1 if rows else 0
    singular, plural = listing.noun
    chips = [
        {
            "words": words,
            "id": f"remove-{removes[0].replace('_', '-')}",
            "remove_url": _query({k: v for k, v in paged.items() if k not in removes}),
        }
        for words, removes in listing.chips
    ]
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
        "headings": _headings(listing, base, sort, descending),
        "order_text": order_words(listing.sorts, sort, descending),
        "rows": rows,
        "next_url": _query({**paged, "cursor": shown.next_cursor}) if shown.next_cursor else "",
        "previous_url": _query({**paged, "before": shown.previous_cursor})
        if shown.previous_cursor
        else "",
        "first_url": _query(paged) if shown.previous_cursor else "",
        "export_url": _query({**paged, "export": "csv"}),
        "clear_url": _query({k: v for k, v in paged.items() if k != "q"}),
        "search": query_text,
        # The list's filters and order, which the search and filter forms keep; the period
        # picker keeps the search too (and the order, as `sort` and `descending`).
        "filters": {**listing.keep, **order},
        "keep": {**listing.keep, **({"q": query_text} if query_text else {})},
        "sort": order.get("sort", ""),
        "descending": descending,
        "chips": chips,
        "refused": listing.refused,
        "selects": listing.selects,
        "hidden": {
            **{k: v for k, v in listing.keep.items() if k not in {s[0] for s in listing.selects}},
            **order,
            **({"q": query_text} if query_text else {}),
        },
        "kind": listing.name,
        "section": "records",
    }
    return render(request, "dashboard/records.html", context)


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


def wide_role(request, workspace_id):
    """The lists are the workspace's: a closer, setter or SDR gets the 403 page naming who
    may open them, as on every page (the one page policy, workspaces.access)."""
    return page_membership(
        request, workspace_id, roles=Member.WORKSPACE_WIDE_ROLES, doing="opens its lists"
    )
