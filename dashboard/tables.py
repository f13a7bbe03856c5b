"""The tables of the overview and of the acquisition page as CSV: each read through the
selectors the page reads (dashboard.selectors), in the page's order, every figure as the
page writes it with its value for a program beside it (dashboard/exports.py)."""

from __future__ import annotations

from django.http import Http404

from core.display import moment_seconds_text
from figures import selectors as figures_selectors
from figures.registry import METRICS
from workspaces.access import page

from . import selectors
from .exports import csv_response, table_headings, table_row
from .pages import (
    ACQUISITION_COLUMNS,
    ACQUISITION_HEADINGS,
    ATTRIBUTION_SORTS,
    bucket_text,
    sorted_attribution,
)
from .periods import period_pick
from .records import wide_role
from .templatetags.figure_display import words

UTM_HEADINGS = {
    "utm_source": "Source",
    "utm_medium": "Medium",
    "utm_campaign": "Campaign",
    "utm_content": "Content",
}


def _chart_table(chart: dict) -> tuple[list, list]:
    columns = [("Period", None), ("From (ISO 8601)", None), ("To (ISO 8601)", None)]
    for metric in chart["metrics"]:
        columns.append((metric["label"], METRICS[metric["id"]].unit))
    rows = (
        [bucket_text(row), row["from"], row["to"], *(cell["field"] for cell in row["cells"])]
        for row in chart["rows"]
    )
    return columns, rows


def _attribution(data: dict, params) -> tuple[list, list]:
    sort = params.get("sort", "leads")
    descending = params.get("dir", "desc") != "asc"
    rows = [{**row} for row in data["attribution"]["data"]["rows"]]
    if sort in ATTRIBUTION_SORTS:
        rows = sorted_attribution(rows, sort, descending)
    columns = [
        *((UTM_HEADINGS[name], None) for name in figures_selectors.UTM_FIELDS),
        ("Leads", "count"),
        ("Closes", "count"),
        ("Cash collected", "money"),
        ("Close rate", "rate"),
    ]
    # With ad spend, the page's spend and cost per lead of the row's source and campaign.
    spend = selectors.attribution_spend(rows, data["spend"])
    if spend:
        columns += [("Ad spend", "money"), ("Cost per lead", "money")]
    return columns, (
        [
            *(row[name] for name in figures_selectors.UTM_FIELDS),
            row["leads"],
            row["closes"],
            row["cash_collected"],
            row["close_rate"],
            *(_spend_cells(spend[n]) if spend else ()),
        ]
        for n, row in enumerate(rows)
    )


def _spend_cells(found) -> list:
    """An attribution row's spend and cost per lead: its /acquisition row's Fields, or
    the words the page says instead (none; shared by the rows of its pair)."""
    if found == selectors.SPEND_NONE:
        return [selectors.SPEND_NONE, "—"]
    if found == selectors.SPEND_SHARED:
        return [selectors.SPEND_SHARED, selectors.SPEND_SHARED]
    _index, acquisition_row = found
    return [acquisition_row[name] for name in selectors.ATTRIBUTION_SPEND]


def _commission(data: dict, params) -> tuple[list, list]:
    columns = [
        ("Member", None),
        ("Email", None),
        ("Role", None),
        ("Rule: basis", None),
        ("Rule: slot", None),
        ("Rule: rate (fraction)", None),
        ("Owed", "money"),
    ]
    return columns, (
        [
            row["name"],
            row["email"] or "",
            row["role"],
            # In the page's words: "cash collected", "closer".
            *(
                (words(row["rule"]["basis"]), row["rule"]["slot"], row["rule"]["rate"])
                if row["rule"]
                else ("", "", "")
            ),
            row["owed"],
        ]
        for row in data["commission"]["data"]["members"]
    )


def _eod(data: dict, params) -> tuple[list, list]:
    columns = [
        ("Member", None),
        ("Email", None),
        ("Role", None),
        ("Due", "count"),
        ("Filed", "count"),
        ("Compliance", "rate"),
    ]
    return columns, (
        [
            row["name"],
            row["email"] or "",
            row["role"],
            row["expected"],
            row["submitted"],
            row["compliance_rate"],
        ]
        for row in data["eod"]["data"]["members"]
    )


def _funnel(data: dict, params) -> tuple[list, list]:
    columns = [("Stage", None), ("Leads", "count"), ("From previous stage", "rate")]
    return columns, (
        [stage["name"], stage["count"], stage["rate"]] for stage in data["funnel"]["data"]["stages"]
    )


def _waiting(data: dict, params) -> tuple[list, list]:
    columns = [
        ("Lead", None),
        ("Email", None),
        ("Created", None),
        ("Created (UTC, ISO 8601)", None),
        ("Waiting (minutes)", None),
        ("Setter", None),
    ]
    return columns, (
        [
            lead["name"] or lead["email"] or "(no name)",
            lead["email"] or "",
            moment_seconds_text(lead["created_at"]),
            lead["created_at"],
            lead["minutes_waited"],
            (lead.get("setter") or {}).get("name") or "—",
        ]
        for lead in data["waiting"]["data"]["leads"]
    )


def _acquisition(data: dict, params) -> tuple[list, list]:
    units = {
        "leads": "count",
        "booked": "count",
        "shows": "count",
        "closes": "count",
        "roas": "rate",
    }
    columns = [
        ("Source", None),
        ("Campaign", None),
        *(
            (heading, units.get(key, "money"))
            for key, heading in zip(ACQUISITION_COLUMNS, ACQUISITION_HEADINGS, strict=True)
        ),
    ]
    return columns, (
        [row["utm_source"], row["utm_campaign"], *(row[key] for key in ACQUISITION_COLUMNS)]
        for row in data["acquisition"]["data"]["rows"]
    )


OVERVIEW_TABLES = {
    "attribution": _attribution,
    "commission": _commission,
    "eod": _eod,
    "funnel": _funnel,
    "waiting": _waiting,
    "cash-chart": lambda data, params: _chart_table(data["cash_chart"]),
    "calls-chart": lambda data, params: _chart_table(data["calls_chart"]),
}
ACQUISITION_TABLES = {
    "acquisition": _acquisition,
    "spend-chart": lambda data, params: _chart_table(data["spend_chart"]),
}


@page
def table_export(request, workspace_id, table):
    """/app/<workspace>/tables/<table>/?range=...: one table of a page as CSV."""
    workspace, _ = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    if table in OVERVIEW_TABLES:
        data = selectors.overview(workspace=workspace, picked=picked)
        build = OVERVIEW_TABLES[table]
    elif table in ACQUISITION_TABLES and selectors.workspace_has_spend(workspace=workspace):
        data = selectors.acquisition(workspace=workspace, picked=picked)
        build = ACQUISITION_TABLES[table]
    else:
        raise Http404("No table of that name.")
    columns, rows = build(data, request.GET)
    exponent = workspace.currency_exponent
    return csv_response(
        workspace=workspace,
        name=f"{table}-{picked.period.first_day}-to-{picked.period.last_day}",
        headings=table_headings(columns),
        rows=(table_row(columns, cells, exponent) for cells in rows),
    )
