"""The records behind a figure: the page a headline figure, a table row or a note opens.

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
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from core.display import moment_seconds_text, moment_text, number_text, workspace_day_text
from core.money import money_text
from core.times import instant_parse, utc_iso
from figures import selectors as figures_selectors
from workspaces.access import page
from workspaces.models import CommissionRule, Member, Outcome, Refund

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


# --- Filters kept in the address ------------------------------------------------------

UTM_WORDS = {
    "utm_source": "Source",
    "utm_medium": "Medium",
    "utm_campaign": "Campaign",
    "utm_content": "Content",
}
# The (source, campaign) pairs of the period's rows the filter form offers, at most.
UTM_CHOICES_MAX = 200
SLOT_WORDS = {"closer": "Closer", "setter": "Setter"}


def utm_params(params) -> dict:
    """The lead's UTM values ?utm_source=&utm_medium=&utm_campaign=&utm_content= name, as an
    attribution row answers them (`(none)` for empty); a parameter left empty (the filter
    form's "Any") filters nothing."""
    return {
        name: params[name] for name in figures_selectors.UTM_FIELDS if params.get(name, "") != ""
    }


def utm_filter(records, prefix: str, utm: dict):
    """The records whose lead (at `prefix`) has the UTM values, as leads_of_period reads
    them."""
    none = figures_selectors.NONE_LABEL
    return records.filter(
        **{f"{prefix}{name}": "" if label == none else label for name, label in utm.items()}
    )


@dataclass(frozen=True)
class Offers:
    """The filters a list offers besides its figure's: the paths from its records to the
    closer and setter slots and to the lead (for its UTM values), and a choice field
    (`choice`: the field, its label and its values)."""

    closer: str = ""
    setter: str = ""
    lead: str | None = None
    utm_applied: bool = False  # the selector read the UTM values already (the leads)
    choice: tuple | None = None


def _members_by_role(members, first_role: str) -> list:
    """The members as a select's groups: those of `first_role` first, then the others by
    role."""
    order = [first_role, *(role for role in Member.Role.values if role != first_role)]
    labels = dict(Member.Role.choices)
    groups = []
    for role in order:
        found = [(str(m.pk), person_name(m)) for m in members if m.role == role]
        if found:
            groups.append((f"{labels[role]}s", found))
    return groups


def _present(records, prefix: str, utm: dict) -> dict:
    """The sources and campaigns of the leads of the list's rows, as the rows answer them
    (`(none)` for empty), from one grouped read: the filter form's choices."""
    pairs = (
        records.order_by()
        .values_list(f"{prefix}utm_source", f"{prefix}utm_campaign")
        .distinct()[:UTM_CHOICES_MAX]
    )
    found = {"utm_source": set(), "utm_campaign": set()}
    for source, campaign in pairs:
        found["utm_source"].add(source or figures_selectors.NONE_LABEL)
        found["utm_campaign"].add(campaign or figures_selectors.NONE_LABEL)
    for name, labels in found.items():
        if utm.get(name):
            labels.add(utm[name])
    # A few dozen labels at most: their order is the select's, in words.
    return {name: [("", [(v, v) for v in sorted(labels)])] for name, labels in found.items()}


def _slot_filters(params, workspace, listing: Listing, offers: Offers, records):
    """?closer= and ?setter=: a member of this workspace, by id."""
    members = list(
        Member.objects.filter(workspace=workspace)
        .order_by("name", "pk")
        .only("pk", "name", "email", "role")
    )
    by_id = {m.pk: m for m in members}
    for slot, path in (("closer", offers.closer), ("setter", offers.setter)):
        if not path:
            continue
        given = params.get(slot, "").strip()
        try:
            found = by_id.get(uuid.UUID(given)) if given else None
        except ValueError:
            found = None
        if given and found is None:
            listing.refused.append(
                f"No member of this workspace has the {slot} id “{given[:80]}”: "
                f"the list is not filtered by {slot}."
            )
        if found is not None:
            records = records.filter(**{path: found})
            listing.keep[slot] = str(found.pk)
            listing.chips.append((f"{SLOT_WORDS[slot]}: {person_name(found)}", (slot,)))
        chosen = str(found.pk) if found else ""
        listing.selects.append((slot, SLOT_WORDS[slot], _members_by_role(members, slot), chosen))
    return records


def _choice_filter(params, listing: Listing, choice: tuple, records):
    """?outcome= (a call's) or ?kind= (a refund's): one of the values the list knows."""
    name, label, values = choice
    given = params.get(name, "").strip()
    chosen = given if given in values else ""
    if given and not chosen:
        listing.refused.append(
            f"“{given[:80]}” is not one of the {label.lower()}s the list knows: "
            f"the list is not filtered by {label.lower()}."
        )
    if chosen:
        records = records.filter(**{name: chosen})
        listing.keep[name] = chosen
        listing.chips.append((f"{label}: {values[chosen]}", (name,)))
    listing.selects.append((name, label, [("", list(values.items()))], chosen))
    return records


def filters_apply(
    request, workspace, listing: Listing, offers: Offers, utm: dict, unfiltered=None
) -> Listing:
    """The list with the filters of the address it offers applied (closer, setter, its
    choice field, the lead's UTM values), their chips and the filter form's selects; a
    value that names nothing here is left out, and the page says so."""
    records = listing.records
    # The rows the form's UTM choices are read from: those of the figure, unfiltered.
    base_records = records if unfiltered is None else unfiltered
    if offers.closer or offers.setter:
        records = _slot_filters(request.GET, workspace, listing, offers, records)
    if offers.choice is not None:
        records = _choice_filter(request.GET, listing, offers.choice, records)
    if offers.lead is not None:
        if not offers.utm_applied:
            records = utm_filter(records, offers.lead, utm)
        listing.keep.update(utm)
        listing.chips.extend(
            (f"{UTM_WORDS[name]}: {utm[name]}", (name,))
            for name in figures_selectors.UTM_FIELDS
            if name in utm
        )
        present = _present(base_records, offers.lead, utm)
        for name in ("utm_source", "utm_campaign"):
            listing.selects.append((name, UTM_WORDS[name], present[name], utm.get(name, "")))
    listing.records = records
    return listing


def _lead_columns(workspace, lead_of) -> list[Column]:
    return [
        Column("Lead", lambda r: lead_name(lead_of(r))),
        text_column("Email", lambda r: lead_of(r).email),
    ]


def _holder_chip(holder, slot: str | None = None) -> list:
    if holder is None:
        return []
    removes = ("member", "slot") if slot else ("member",)
    return [(f"{SLOT_WORDS.get(slot, 'Member')}: {person_name(holder)}", removes)]


OUTCOME_CHOICE = (
    "outcome",
    "Outcome",
    {value: label.lower() for value, label in Outcome.Result.choices},
)
KIND_CHOICE = ("kind", "Kind", {value: label.lower() for value, label in Refund.Kind.choices})


@page
def calls_list(request, workspace_id):
    """?figure=taken|awaiting_outcome|show_rate|...&member=<id>: the calls a /calls figure
    counts (or a rate is taken over), of the whole workspace or of one member; and
    ?closer=&setter=&outcome=&utm_...= of the calls'."""
    workspace, member = wide_role(request, workspace_id)
    figure = request.GET.get("figure", "booked")
    if figure not in CALL_LISTS:
        figure = "booked"
    picked = period_pick(workspace=workspace, params=request.GET)
    keep = {"figure": figure}
    chips = [] if figure == "booked" else [(f"Figure: {CALL_LISTS[figure].lower()}", ("figure",))]
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
        sorts=(
            time_sort("scheduled", "Scheduled", "scheduled_for"),
            name_sort("lead", "Lead", "lead__"),
        ),
        lead_of=lambda call: call.lead,
        keep=keep,
        note=CALL_LIST_NOTES.get(figure, ""),
        chips=[*chips, *_holder_chip(holder)],
    )
    offers = Offers(closer="closer", setter="setter", lead="lead__", choice=OUTCOME_CHOICE)
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def leads_list(request, workspace_id):
    """?waiting=1 (never contacted) and ?utm_source=...&utm_medium=... (an attribution
    row): the leads created in the period; and ?setter= of the leads'."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = utm_params(request.GET)
    waiting = request.GET.get("waiting") == "1"
    sold = request.GET.get("sold") == "1"
    keep = {**({"waiting": "1"} if waiting else {}), **({"sold": "1"} if sold else {})}
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
        sorts=(
            time_sort("created", "Created", "created_at"),
            name_sort("lead", "Lead", ""),
            time_sort("first_contact", "First contact", "first_contact_at", nullable=True),
        ),
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
        chips=[
            *([("Not yet contacted", ("waiting",))] if waiting else []),
            *([("With a sale", ("sold",))] if sold else []),
        ],
    )
    offers = Offers(setter="setter", lead="", utm_applied=True)
    unfiltered = figures_selectors.leads_of_period(
        workspace=workspace, period=picked.period, never_contacted=waiting, with_sale=sold
    )
    listing = filters_apply(request, workspace, listing, offers, utm, unfiltered)
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
    commission; the title's suffix, what the page keeps and the filter's chip."""
    holder = _holder(request, workspace)
    slot = _commission_slot(request, workspace, holder)
    if slot is not None:
        records, time_field = figures_selectors.commission_records(
            workspace=workspace, period=picked.period, part=part, member=holder, slot=slot
        )
        keep = {"member": str(holder.pk), "slot": slot}
        suffix = f" with {holder.name} as {slot}"
        return records, time_field, suffix, keep, _holder_chip(holder, slot)
    records, time_field = figures_selectors.payments_of_figure(
        workspace=workspace, period=picked.period, part=part, member=holder
    )
    if holder is None:
        return records, time_field, "", {}, []
    return (
        records,
        time_field,
        f" with {holder.name}",
        {"member": str(holder.pk)},
        (_holder_chip(holder)),
    )


@page
def payments_list(request, workspace_id):
    """The succeeded payments cash collected adds up (?member=&slot=: those of a member's
    commission; ?closer=&setter=&utm_...=: of the payments' closer, setter and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "cash")
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
        sorts=(
            time_sort("paid", "Paid", time_field),
            amount_sort("amount", "Amount", "amount"),
            name_sort("lead", "Lead", "sale__lead__"),
        ),
        lead_of=lambda payment: payment.sale.lead,
        keep=keep,
        note="The succeeded payments made in the period: cash collected is their sum.",
        chips=chips,
    )
    offers = Offers(closer="closer", setter="setter", lead="sale__lead__")
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def refunds_list(request, workspace_id):
    """The refunds and chargebacks refunded adds up (?kind=, and the sale's closer, setter
    and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "refunds")
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
        sorts=(
            time_sort("refunded", "Refunded", time_field),
            amount_sort("amount", "Amount", "amount"),
            name_sort("lead", "Lead", "sale__lead__"),
        ),
        lead_of=lambda refund: refund.sale.lead,
        keep=keep,
        note="The refunds and chargebacks dated in the period: refunded is their sum, and "
        "net cash is cash collected minus it.",
        chips=chips,
    )
    offers = Offers(
        closer="sale__closer", setter="sale__setter", lead="sale__lead__", choice=KIND_CHOICE
    )
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def sales_list(request, workspace_id):
    """The sales closed in the period, whose contract values revenue booked adds up
    (?closer=&setter=&utm_...=: of the sale's closer, setter and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "sales")
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
        sorts=(
            time_sort("closed", "Closed", time_field),
            amount_sort("contract_value", "Contract value", "contract_value"),
            amount_sort("cash_collected", "Cash collected to date", "cash_collected"),
            name_sort("lead", "Lead", "lead__"),
        ),
        lead_of=lambda sale: sale.lead,
        keep=keep,
        note="The sales closed in the period: revenue booked is their contract values' sum.",
        chips=chips,
    )
    offers = Offers(closer="closer", setter="setter", lead="lead__")
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
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
        sorts=(
            time_sort("day", "Day", "date", day=True),
            name_sort("member", "Member", "member__"),
            time_sort("filed", "Filed", "submitted_at"),
        ),
        keep={"member": str(holder.pk)} if holder else {},
        note="The reports filed for the period's days; EOD compliance counts those of the "
        "working days each member was due to report.",
        chips=_holder_chip(holder),
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
        sorts=(
            time_sort("day", "Day", "date", day=True),
            amount_sort("spend", "Spend", "amount"),
            text_sort("campaign_name", "Campaign name", "campaign_name"),
        ),
        keep=utm,
        note="The spend dated on the period's days: acquisition spend is their sum.",
        chips=[
            (f"{UTM_WORDS[name]}: {value or figures_selectors.NONE_LABEL}", (name,))
            for name, value in utm.items()
        ],
    )
    return list_page(request, workspace, member, picked, listing)
