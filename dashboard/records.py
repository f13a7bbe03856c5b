"""The records behind a figure: the page a headline figure, a table row or a note opens.

Each list holds exactly what its figure counts, read through the figures' own selectors
(figures.selectors.calls_of_figure, leads_of_period), for the period of the page that
opened it, oldest first, a page at a time. Pages follow a cursor (the time and id of the
last row shown), so a page costs the same however deep it is, and rows added meanwhile
neither repeat nor go missing. Each row links to the lead's journey.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime
from urllib.parse import urlencode

from django.db.models import Q
from django.http import Http404
from django.shortcuts import render

from core.times import instant_parse
from figures import selectors as figures_selectors
from workspaces.access import page
from workspaces.models import Member

from .pages import page_membership, page_nav, period_picker
from .periods import period_pick

PAGE_SIZE = 50

CALL_LISTS = {
    "booked": "Calls booked",
    "taken": "Calls taken",
    "no_show": "No-shows",
    "awaiting_outcome": "Calls awaiting an outcome",
    "upcoming": "Upcoming calls",
    "closed": "Calls closed",
    "cancelled": "Calls cancelled",
}


def cursor_encode(moment: datetime, pk) -> str:
    raw = f"{moment.isoformat()}|{pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def cursor_decode(cursor: str) -> tuple[datetime, uuid.UUID] | None:
    """The (time, id) a cursor names; None for one that cannot be read (the first page)."""
    if not cursor:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        moment, pk = raw.split("|")
        return instant_parse(moment), uuid.UUID(pk)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        # (InstantInvalid is a ValueError: a time without an offset or outside the
        # calendar's bounds cannot be compared with the stored ones.)
        return None


def keyset_page(queryset, time_field: str, cursor: str) -> tuple[list, str | None]:
    """One page, oldest first, after the cursor; and the cursor of the next page."""
    after = cursor_decode(cursor)
    if after is not None:
        moment, pk = after
        queryset = queryset.filter(
            Q(**{f"{time_field}__gt": moment}) | Q(**{time_field: moment, "pk__gt": pk})
        )
    rows = list(queryset.order_by(time_field, "pk")[: PAGE_SIZE + 1])
    if len(rows) <= PAGE_SIZE:
        return rows, None
    rows = rows[:PAGE_SIZE]
    return rows, cursor_encode(getattr(rows[-1], time_field), rows[-1].pk)


def _wide_role(request, workspace_id):
    """The lists are the workspace's: a closer, setter or SDR gets the 403 page naming who
    may open them, as on every page (the one page policy, workspaces.access)."""
    return page_membership(
        request, workspace_id, roles=Member.WORKSPACE_WIDE_ROLES, doing="opens its lists"
    )


def _list_context(request, workspace, member, picked, *, title, total, rows, next_cursor, keep):
    query = {"range": picked.choice, **picked.query(), **keep}
    return {
        **page_nav(workspace, member),
        **period_picker(request, picked),
        "title": title,
        "total": total,
        "rows": rows,
        "next_url": f"?{urlencode({**query, 'cursor': next_cursor})}" if next_cursor else "",
        "first_url": f"?{urlencode(query)}" if request.GET.get("cursor") else "",
        "keep": keep,
        "section": "records",
    }


@page
def calls_list(request, workspace_id):
    """?figure=taken|awaiting_outcome|...&member=<id>: the calls a /calls figure counts,
    of the whole workspace or of one member."""
    workspace, member = _wide_role(request, workspace_id)
    figure = request.GET.get("figure", "booked")
    if figure not in CALL_LISTS:
        figure = "booked"
    picked = period_pick(workspace=workspace, params=request.GET)
    keep = {"figure": figure}
    title = CALL_LISTS[figure]
    holder = None
    if request.GET.get("member"):
        try:
            holder = Member.objects.filter(
                workspace=workspace, pk=uuid.UUID(request.GET["member"])
            ).first()
        except ValueError:
            holder = None
        if holder is None:
            raise Http404("No member of this workspace has that id.")
        keep["member"] = str(holder.pk)
        title = f"{title} with {holder.name}"
    calls = figures_selectors.calls_of_figure(
        workspace=workspace, period=picked.period, figure=figure, member=holder
    )
    rows, next_cursor = keyset_page(calls, "scheduled_for", request.GET.get("cursor", ""))
    context = _list_context(
        request, workspace, member, picked,
        title=title, total=calls.count(), rows=rows, next_cursor=next_cursor, keep=keep,
    )  # fmt: skip
    context.update(kind="calls", figure=figure, holder=holder)
    return render(request, "dashboard/records.html", context)


@page
def leads_list(request, workspace_id):
    """?waiting=1 (never contacted) and ?utm_source=...&utm_medium=... (an attribution
    row): the leads created in the period."""
    workspace, member = _wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = {
        name: request.GET[name]
        for name in figures_selectors.UTM_FIELDS
        if request.GET.get(name) is not None
    }
    waiting = request.GET.get("waiting") == "1"
    keep = {**utm, **({"waiting": "1"} if waiting else {})}
    leads = figures_selectors.leads_of_period(
        workspace=workspace, period=picked.period, utm=utm, never_contacted=waiting
    )
    title = "Leads never contacted" if waiting else "Leads created"
    if utm:
        title += " from " + " / ".join(
            utm[name] for name in figures_selectors.UTM_FIELDS if name in utm
        )
    rows, next_cursor = keyset_page(leads, "created_at", request.GET.get("cursor", ""))
    context = _list_context(
        request, workspace, member, picked,
        title=title, total=leads.count(), rows=rows, next_cursor=next_cursor, keep=keep,
    )  # fmt: skip
    context.update(kind="leads", waiting=waiting)
    return render(request, "dashboard/records.html", context)
