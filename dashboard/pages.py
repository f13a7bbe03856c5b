"""The figure pages: a workspace's overview, each member's board and a lead's journey.

Signed-in pages. A workspace is shown only to its active members (anyone else gets the
404 page, as for an unknown id); the overview and a lead's page to its owners, admins and
managers, a board to every member. Every number is read through dashboard.selectors,
which calls the figures API's selectors.
"""

from __future__ import annotations

from datetime import date, timedelta
from html import escape
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe

from core import words
from core.display import (
    display_activate_workspace,
    moment_seconds_text,
    moment_text,
    money_text,
    workspace_day_text,
)
from core.replicas import replica_reads_allow
from figures import selectors as figures_selectors
from figures.period import local_today, workspace_zone
from figures.selectors import lead_journey
from workspaces.access import PageForbidden, member_or_404, page
from workspaces.identifiers import IDENTIFIER_NAMES, IDENTIFIERS, masked
from workspaces.models import Lead, Member, Workspace
from workspaces.services.goals import GOAL_ROLES

from . import selectors
from .exports import csv_response, text_cell
from .periods import CHOICES, period_pick
from .templatetags.figure_display import cells_html, figure_text, linked_cells_html

ATTRIBUTION_SORTS = {
    "source": lambda row: (
        row["utm_source"],
        row["utm_medium"],
        row["utm_campaign"],
        row["utm_content"],
    ),
    "leads": lambda row: row["leads"]["value"],
    "closes": lambda row: row["closes"]["value"],
    "cash": lambda row: row["cash_collected"]["value"],
    "rate": lambda row: row["close_rate"]["value"],
}


def page_membership(
    request, workspace_id, *, roles=None, doing: str = "uses this page"
) -> tuple[Workspace, Member]:
    """The member's access (workspaces.access.member_or_404: 404 for anyone who is not a
    member, 403 for a role not in roles), read from the primary; the figures after it may
    come from a replica (core/replicas.py)."""
    workspace, member = member_or_404(request, workspace_id, roles=roles, doing=doing)
    replica_reads_allow()
    return workspace, member


def page_nav(workspace, member, *, has_spend: bool | None = None) -> dict:
    """What the header of a figure page offers the member; has_spend (read when not given)
    adds Acquisition for those who may open it, in a workspace with ad spend."""
    wide = member.role in Member.WORKSPACE_WIDE_ROLES
    if has_spend is None:
        has_spend = wide and selectors.workspace_has_spend(workspace=workspace)
    return {
        "workspace": workspace,
        "member": member,
        "sees_overview": wide,
        "sees_settings": member.role in ("owner", "admin"),
        # Managers place or dismiss held events there; owners and admins also connect.
        "sees_integrations": wide,
        "has_spend": wide and has_spend,
    }


def period_picker(request, picked) -> dict:
    return {
        "picked": picked,
        "choices": CHOICES,
        "path": request.path,
    }


def bucket_text(row: dict) -> str:
    """A chart point's period in words: 26 Oct 2026, or the first and last day of a week
    or month. The point's days are the API's dates of the workspace's calendar, written as
    they are (never as instants moved to a zone); the tooltip and the table under the chart
    both show this text."""
    first, last = date.fromisoformat(row["from"]), date.fromisoformat(row["to"])
    if first == last:
        return workspace_day_text(first)
    return f"{workspace_day_text(first)} to {workspace_day_text(last)}"


def _chart_json(chart: dict, interval: str) -> dict:
    """What the page's script draws, with each value written as the page writes it for
    the tooltip."""
    data = selectors.chart_json(chart)
    data["points"] = [row["label"] for row in chart["rows"]]
    data["interval"] = interval
    for n, series in enumerate(data["series"]):
        series["texts"] = [figure_text(row["cells"][n]["field"]) for row in chart["rows"]]
    return data


def sorted_attribution(rows: list, sort: str, descending: bool) -> list:
    key = ATTRIBUTION_SORTS.get(sort)
    if key is None:
        return rows
    present = [row for row in rows if key(row) is not None]
    missing = [row for row in rows if key(row) is None]
    return sorted(present, key=key, reverse=descending) + missing


class _ListLinks:
    """Links to a workspace's lists of records for the page's period: each list's path is
    reversed once per page (a table links a list per row)."""

    def __init__(self, workspace, picked):
        self.workspace_pk = workspace.pk
        self.period_query = {"range": picked.choice, **picked.query()}
        self.paths: dict[str, str] = {}

    def __call__(self, name: str, **query) -> str:
        path = self.paths.get(name)
        if path is None:
            path = self.paths[name] = reverse(name, args=[self.workspace_pk])
        return f"{path}?{urlencode({**self.period_query, **query})}"


def _record_links(workspace, picked, figures: dict, attribution_rows: list) -> dict:
    """The lists of records behind the overview's figures, for the people who may open a
    lead's journey: put on the headline tiles and the tables' rows, and answered by name
    for the notes and the waiting section. Each list is built from the condition its
    figure counts (dashboard/lists.py)."""
    url = _ListLinks(workspace, picked)
    lists = {
        "payments.cash_collected": url("dashboard-payments"),
        "payments.revenue_booked": url("dashboard-sales"),
        "payments.refunded": url("dashboard-refunds"),
        "payments.net_cash": url("dashboard-payments"),
        "calls.taken": url("dashboard-calls", figure="taken"),
        "calls.show_rate": url("dashboard-calls", figure="show_rate"),
        "calls.close_rate": url("dashboard-calls", figure="taken"),
        "leads.created": url("dashboard-leads"),
        "awaiting": url("dashboard-calls", figure="awaiting_outcome"),
        # Those waiting longest first, as the overview offers them.
        "never_contacted": url("dashboard-leads", waiting="1", sort="created", dir="asc"),
        "eod": url("dashboard-eod"),
        "spend": url("dashboard-spend"),
    }
    # Net cash is cash collected minus refunded: it opens both lists.
    also = {"payments.net_cash": ("The refunds taken off", lists["payments.refunded"])}
    for row in figures["headline"]:
        row["list_url"] = lists.get(row["field"]["metric"], "")
        row["also"] = also.get(row["field"]["metric"])
    for row in (figures["spend"] or {}).get("tiles", ()):
        row["list_url"] = lists["spend"]
    for row in attribution_rows:
        utm = {key: row[key] for key in figures_selectors.UTM_FIELDS}
        row["list_url"] = url("dashboard-leads", **utm)
        row["sold_url"] = url("dashboard-leads", **utm, sold="1")
    for row in figures["eod"]["data"]["members"]:
        row["list_url"] = url("dashboard-eod", member=row["id"])
    basis_list = {"cash_collected": "dashboard-payments", "revenue_booked": "dashboard-sales"}
    for row in figures["commission"]["data"]["members"]:
        rule = row["rule"]
        row["list_url"] = (
            url(basis_list[rule["basis"]], member=row["id"], slot=rule["slot"]) if rule else ""
        )
        row["refunds_url"] = (
            url("dashboard-refunds", member=row["id"], slot=rule["slot"]) if rule else ""
        )
    return lists


def _attribution_head(row: dict) -> str:
    """An attribution row's combination (source / medium / campaign / content), linked to
    its leads when the row has their list: built in Python, as its cells are."""
    label = " / ".join(escape(row[key]) for key in figures_selectors.UTM_FIELDS)
    if not row.get("list_url"):
        return mark_safe(label)  # every part is escaped above
    return mark_safe(  # every part is escaped above or here
        f'<a href="{escape(row["list_url"])}" class="source-leads">{label}</a>'
    )


def _attribution_spend(rows: list, spend: dict | None) -> None:
    """Each attribution row's spend and cost per lead, from /acquisition's row of its
    source and campaign (selectors.attribution_spend): when several rows share the pair,
    each says so instead of a figure (its spend cannot be split)."""
    if spend is None:
        return
    api = spend["acquisition"]["api"]
    for row, found in zip(rows, selectors.attribution_spend(rows, spend), strict=True):
        if found == selectors.SPEND_NONE:
            row["spend_cells"] = mark_safe('<td class="muted">none</td><td class="muted">—</td>')
        elif found == selectors.SPEND_SHARED:
            row["spend_cells"] = mark_safe(
                f'<td class="muted" colspan="2">{selectors.SPEND_SHARED}</td>'
            )
        else:
            index, acquisition_row = found
            row["spend_cells"] = cells_html(
                (acquisition_row[name], api, f"data.rows.{index}.{name}")
                for name in selectors.ATTRIBUTION_SPEND
            )


@page
def overview(request, workspace_id):
    workspace, member = page_membership(request, workspace_id)
    if member.role not in Member.WORKSPACE_WIDE_ROLES:
        raise PageForbidden(
            f"The overview of {workspace.name} is for its owners, admins and managers; your "
            f"role is {member.role}. Your own figures are on your board: "
            f"{reverse('dashboard-board', args=[workspace.pk])}"
        )
    return overview_page(request, workspace, member)


def overview_page(request, workspace, member, *, agency=None):
    """The overview of a workspace for a member allowed to see it, or for a user of its
    agency reading it as a manager (agency: no member's links then). bench/overview.py
    times this: every figure, series and table of the page, rendered."""
    display_activate_workspace(workspace)
    picked = period_pick(workspace=workspace, params=request.GET)
    figures = selectors.overview(workspace=workspace, picked=picked)
    sort = request.GET.get("sort", "leads")
    descending = request.GET.get("dir", "desc") != "asc"
    rows = [{**row, "index": n} for n, row in enumerate(figures["attribution"]["data"]["rows"])]
    rows = sorted_attribution(rows, sort, descending)
    eod_api = figures["eod"]["api"]
    for index, row in enumerate(figures["eod"]["data"]["members"]):
        row["cells"] = cells_html(
            (row[key], eod_api, f"data.members.{index}.{key}")
            for key in ("expected", "submitted", "compliance_rate")
        )
    for chart in (figures["cash_chart"], figures["calls_chart"]):
        for row in chart["rows"]:
            row["label"] = bucket_text(row)
            row["html"] = cells_html(
                (cell["field"], cell["api"], cell["path"]) for cell in row["cells"]
            )
    base = {"range": picked.choice, **picked.query()}
    sort_links = {
        # The anchor keeps the reader at the table the page reloads with.
        name: "?"
        + urlencode({**base, "sort": name, "dir": "asc" if sort == name and descending else "desc"})
        + "#attribution"
        for name in ATTRIBUTION_SORTS
    }
    stages = figures["funnel"]["data"]["stages"]
    lists = {} if agency is not None else _record_links(workspace, picked, figures, rows)
    attribution_api = figures["attribution"]["api"]
    for row in rows:
        row["head"] = _attribution_head(row)
        # The leads open the row's leads; the closes and the cash, those with a sale.
        links = {
            "leads": row.get("list_url", ""),
            "closes": row.get("sold_url", ""),
            "cash_collected": row.get("sold_url", ""),
            "close_rate": "",
        }
        row["cells"] = linked_cells_html(
            (row[key], attribution_api, f"data.rows.{row['index']}.{key}", href)
            for key, href in links.items()
        )
    _attribution_spend(rows, figures["spend"])
    period_query = urlencode({"range": picked.choice, **picked.query()})
    never_contacted = (
        figures_selectors.leads_of_period(
            workspace=workspace, period=picked.period, never_contacted=True
        ).count()
        if agency is None
        else None
    )
    nav = page_nav(workspace, member, has_spend=figures["spend"] is not None)
    if agency is not None:
        nav.update(sees_integrations=False, sees_settings=False, agency=agency)
    context = {
        **nav,
        **period_picker(request, picked),
        **figures,
        "attribution_rows": rows,
        "waiting_shown": figures["waiting"]["data"]["leads"][: selectors.WAITING_SHOWN],
        "waiting_more": max(0, len(figures["waiting"]["data"]["leads"]) - selectors.WAITING_SHOWN),
        "sort": sort,
        "descending": descending,
        "sort_links": sort_links,
        "cash_json": _chart_json(figures["cash_chart"], picked.interval),
        "calls_json": _chart_json(figures["calls_chart"], picked.interval),
        "funnel_json": {
            "labels": [stage["name"] for stage in stages],
            "points": [stage["name"] for stage in stages],
            "series": [
                {
                    "label": "Leads",
                    "values": [stage["count"]["value"] for stage in stages],
                    "texts": [figure_text(stage["count"]) for stage in stages],
                }
            ],
        },
        "section": "overview",
        "lists": lists,
        "period_query": period_query,
        "exports": agency is None,
        "never_contacted": never_contacted,
        "first_run": selectors.first_run(workspace=workspace),
        "goals": selectors.goals_month(workspace=workspace),
        "may_set_goals": agency is None and member.role in GOAL_ROLES,
        "closer_board": selectors.leaderboard(
            workspace=workspace, period=picked.period, role="closer"
        ),
        "setter_board": selectors.leaderboard(
            workspace=workspace, period=picked.period, role="setter"
        ),
    }
    return render(request, "dashboard/overview.html", context)


def _eod_due(workspace, member, period) -> dict:
    """The board's to-do of end-of-day reports: today's, while it is a working day not
    filed yet, and the working days of the period before today that have none."""
    today = local_today(workspace)
    reports = member.role in Member.REPORTING_ROLES
    today_due = (
        reports
        and today.weekday() in {int(day) for day in workspace.working_days or []}
        and not figures_selectors.eod_filed_on(workspace=workspace, member=member, day=today)
    )
    missed = figures_selectors.eod_days_missed(
        workspace=workspace,
        member=member,
        first_day=period.first_day,
        last_day=min(period.last_day, today - timedelta(days=1)),
    )
    return {
        "eod_today_due": today_due,
        "eod_today": today,
        "eod_missed": missed,
        "eod_reports": reports,
    }


@page
def board(request, workspace_id):
    workspace, member = page_membership(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    data = selectors.board(workspace=workspace, member=member, period=picked.period)
    data["shown_notes"] = selectors.shown_notes(data["notes"])
    # Notes about a figure are shown beside it; the period's and any other at the top.
    shown_metrics = {
        field["metric"]
        for group in ("calls", "payments", "commission", "eod")
        for field in data["data"][group].values()
    }
    period_notes = [note for note in data["notes"] if note["subject"] == "period"] + [
        note for note in data["shown_notes"] if note["subject"] not in shown_metrics
    ]
    context = {
        **page_nav(workspace, member),
        **period_picker(request, picked),
        "board": data,
        "period_notes": period_notes,
        "section": "board",
        # The calls behind "awaiting an outcome", each to file from here.
        "awaiting_calls": figures_selectors.calls_awaiting_outcome(
            workspace=workspace, period=picked.period, member=member
        ),
        **_eod_due(workspace, member, picked.period),
        "zone": workspace_zone(workspace),
        **_board_goals(workspace, member, picked.period),
    }
    return render(request, "dashboard/board.html", context)


def _board_goals(workspace, member, period) -> dict:
    """The board's goals of this month and the member's rank among their role for the
    period: the whole leaderboard when the workspace shows it to closers and setters (and
    always to whoever sees the overview), else only their own row."""
    found = {
        "goals": selectors.goals_month(workspace=workspace, member=member),
        "may_set_goals": member.role in GOAL_ROLES,
    }
    if member.role in figures_selectors.ROLES:
        board = selectors.leaderboard(workspace=workspace, period=period, role=member.role)
        mine = next(
            (row for row in board["data"]["members"] if row["member"]["id"] == str(member.pk)),
            None,
        )
        found["my_rank"] = mine["rank"] if mine else None
        found["rank_of"] = len(board["data"]["members"])
        found["leaderboard_shown"] = workspace.leaderboard_visible
        if not workspace.leaderboard_visible:
            board["data"]["members"] = [mine] if mine else []
        found["leaderboard"] = board
    if member.role in Member.REPORTING_ROLES:
        # Their session reads neither /goals nor /leaderboard: the figures name no address.
        found["goals"]["api"] = ""
        if "leaderboard" in found:
            found["leaderboard"]["api"] = ""
    return found


EVENT_TEXT = {
    "lead.created": "Lead created",
    "touch": "Contacted",
    "webinar.registered": "Registered for a webinar",
    "webinar.joined": "Joined the webinar",
    "webinar.left": "Left the webinar",
    "call.booked": "Call booked",
    "call.rescheduled": "Call rescheduled",
    "call.cancelled": "Call cancelled",
    "call.showed": "Showed up to the call",
    "call.no_show": "Did not show up to the call",
    "outcome": "Outcome recorded",
    "sale": "Sale closed",
    "payment": "Payment",
    "refund": "Refund",
    "chargeback": "Chargeback",
    "funnel.stage": "Funnel stage reached",
}


def _touch_detail(event: dict) -> list[str]:
    """How and by whom; for a touch that is not a first contact, why not."""
    parts = [f"by {event['channel']}"]
    if event.get("member"):
        parts.append(f"({event['member']['name']})")
    if not event["counts_as_first_contact"]:
        parts[-1] += "."
        parts.append(f"Not a first contact: {event['not_first_contact_reason']}.")
    return parts


def _webinar_detail(event: dict) -> list[str]:
    return [event["event"]["name"]]


def _call_detail(event: dict) -> list[str]:
    call = event["call"]
    parts = []
    if event["type"] in ("call.booked", "call.rescheduled"):
        parts.append(f"for {moment_text(call['scheduled_for'])}")
    if call.get("closer"):
        parts.append(f"with {call['closer']['name']}")
    return parts


def _outcome_detail(event: dict) -> list[str]:
    parts = [words.word("outcome", event["result"])]
    if event.get("reason"):
        parts.append(f"({event['reason']})")
    if event.get("member"):
        parts.append(f"by {event['member']['name']}")
    return parts


def _sale_detail(event: dict) -> list[str]:
    parts = [money_text(event["contract_value"], event["currency"])]
    if event.get("closer"):
        parts.append(f"closed by {event['closer']['name']}")
    return parts


def _money_detail(event: dict) -> list[str]:
    """A payment, refund or chargeback: the amount, and a payment's status unless it succeeded."""
    parts = [money_text(event["amount"], event["currency"])]
    if event["type"] == "payment" and event["status"] != "succeeded":
        parts.append(f"({words.word('payment_status', event['status']).lower()})")
    return parts


def _funnel_detail(event: dict) -> list[str]:
    return [f"{event['funnel']}: {words.word('stage', event['stage'])}"]


# By the family of an event's type, the part before any dot; a lead's creation has none.
EVENT_DETAILS = {
    "touch": _touch_detail,
    "webinar": _webinar_detail,
    "call": _call_detail,
    "outcome": _outcome_detail,
    "sale": _sale_detail,
    "payment": _money_detail,
    "refund": _money_detail,
    "chargeback": _money_detail,
    "funnel": _funnel_detail,
}


def _detail(event: dict) -> str:
    """The particulars of one journey event, in words."""
    details = EVENT_DETAILS.get(event["type"].split(".")[0])
    return " ".join(details(event)) if details else ""


@page
def lead(request, lead_id):
    """One lead's journey; the speed-to-lead answer links here (open_url)."""
    # Its workspace, and its identifiers to show masked (the journey names them only).
    held = Lead.objects.filter(pk=lead_id).values("workspace", *IDENTIFIERS).first()
    if held is None:
        raise Http404("No lead has that id.")
    workspace, member = page_membership(request, held["workspace"])
    if member.role not in Member.WORKSPACE_WIDE_ROLES:
        raise Http404("No lead has that id.")
    journey = lead_journey(workspace=workspace, lead_id=lead_id).data
    # The earliest touch that counts is the lead's first contact (its "First contact").
    first_contact = next(
        (event for event in journey["events"] if event.get("counts_as_first_contact")), None
    )
    events = [
        {
            **event,
            "local": moment_text(event["at"]),
            "text": "First contact"
            if event is first_contact
            else EVENT_TEXT.get(event["type"], event["type"]),
            "detail": _detail(event),
        }
        for event in journey["events"]
    ]
    if request.GET.get("export") == "csv":
        return csv_response(
            workspace=workspace,
            name=f"journey-{lead_id}",
            headings=["When", "When (UTC, ISO 8601)", "Event", "Event type", "Detail"],
            rows=(
                [
                    moment_seconds_text(event["at"]),
                    event["at"],
                    event["text"],
                    event["type"],
                    text_cell(event["detail"]),
                ]
                for event in events
            ),
        )
    context = {
        **page_nav(workspace, member),
        "lead": journey["lead"],
        # Masked, as everywhere: the last four characters.
        "phone": masked(held["phone"]),
        "click_ids": [
            f"{IDENTIFIER_NAMES[name]} {masked(held[name])}"
            for name in journey["identifiers"]
            if name != "phone"
        ],
        "events": events,
        "api": selectors.api_url(f"leads/{lead_id}/journey"),
        "section": "lead",
    }
    return render(request, "dashboard/lead.html", context)


@page
def acquisition(request, workspace_id):
    """What the leads cost: /acquisition's rows and total for the period, the daily spend
    against cash collected, each figure opening its spend records. Without any spend the
    page says so and shows no figure."""
    workspace, member = page_membership(
        request, workspace_id, roles=Member.WORKSPACE_WIDE_ROLES, doing="reads its acquisition"
    )
    display_activate_workspace(workspace)
    picked = period_pick(workspace=workspace, params=request.GET)
    context = {
        **page_nav(workspace, member),
        **period_picker(request, picked),
        "section": "acquisition",
        "period_query": urlencode({"range": picked.choice, **picked.query()}),
    }
    if not context["has_spend"]:
        return render(request, "dashboard/acquisition.html", context)
    data = selectors.acquisition(workspace=workspace, picked=picked)
    api = data["acquisition"]["api"]
    url = _ListLinks(workspace, picked)
    for index, row in enumerate(data["acquisition"]["data"]["rows"]):
        row["cells"] = _acquisition_cells(row, api, f"data.rows.{index}")
        row["list_url"] = url(
            "dashboard-spend", utm_source=row["utm_source"], utm_campaign=row["utm_campaign"]
        )
    total = data["acquisition"]["data"]["total"]
    data["total_cells"] = cells_html(
        (total[key], api, f"data.total.{key}") for key in ACQUISITION_COLUMNS
    )
    paid = data["acquisition"]["data"]["paid"]
    data["paid_cells"] = cells_html(
        (paid[key], api, f"data.paid.{key}") for key in ACQUISITION_COLUMNS
    )
    for tile in data["tiles"]:
        tile["list_url"] = url("dashboard-spend")
    chart = data["spend_chart"]
    for row in chart["rows"]:
        row["label"] = bucket_text(row)
        row["html"] = cells_html(
            (cell["field"], cell["api"], cell["path"]) for cell in row["cells"]
        )
    context.update(
        data,
        spend_json=_chart_json(chart, picked.interval),
        columns=ACQUISITION_HEADINGS,
        spend_url=url("dashboard-spend"),
    )
    return render(request, "dashboard/acquisition.html", context)


def _acquisition_cells(row: dict, api: str, path: str) -> str:
    """A row's cells; a row without spend in the period (leads that came on their own)
    says "no spend" where a cost or a return would be, rather than 0.00 or a division by
    nothing."""
    if row["spend"]["value"]:
        return cells_html((row[key], api, f"{path}.{key}") for key in ACQUISITION_COLUMNS)
    return mark_safe(  # cells_html escapes every figure; the rest is literal
        "".join(
            '<td class="muted no-spend">no spend</td>'
            if key in SPEND_COSTS
            else cells_html([(row[key], api, f"{path}.{key}")])
            for key in ACQUISITION_COLUMNS
        )
    )


# The columns of the acquisition table, as /acquisition names its Fields.
ACQUISITION_COLUMNS = (
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
# Of them, what a row costs or returns: nothing to say of a row without spend.
SPEND_COSTS = frozenset(
    ("cost_per_lead", "cost_per_booked_call", "cost_per_show", "cost_per_close", "roas")
)
ACQUISITION_HEADINGS = (
    "Spend",
    "Leads",
    "Booked",
    "Showed",
    "Closes",
    "Cash collected",
    "Cost per lead",
    "Cost per booked call",
    "Cost per show",
    "Cost per close",
    "ROAS",
)
