"""What the figure pages show, read through the figures API's own selectors.

Every figure here is a selector of figures/selectors/, rendered with
figures.envelope.envelope_build exactly as the API renders it: a page and the API answer
the same numbers by construction. Each section also carries the API address that answers
it, so that a page can say where a number comes from (and a test can ask).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.utils import timezone

from core.errors import InvalidParameter
from figures import selectors as figures
from figures.envelope import envelope_build
from figures.registry import MULTIPLE_METRICS, better_of, metric_label
from integrations.models import Connection
from integrations.providers import PROVIDERS
from workspaces.models import (
    AdSpend,
    Call,
    Funnel,
    Invitation,
    Lead,
    Member,
    Payment,
    RecordUpload,
    Sale,
)
from workspaces.shapes import month_text

from .periods import period_pick

# The overview's headline figures, in the order shown (each /<section>'s data key).
HEADLINE = (
    "payments.cash_collected",
    "payments.revenue_booked",
    "calls.taken",
    "calls.show_rate",
    "calls.close_rate",
    "leads.created",
)
# The overview shows these beside them, in this order (the agency console does not).
OVERVIEW_HEADLINE = (
    "payments.cash_collected",
    "payments.revenue_booked",
    "payments.refunded",
    "payments.net_cash",
    "calls.taken",
    "calls.show_rate",
    "calls.close_rate",
    "leads.created",
)
# The acquisition figures the overview shows beside cash collected, when there is spend.
SPEND_TILES = ("spend", "cost_per_close", "roas")
# Of them, those the tiles read over the rows with spend (`data.paid`), the blended total
# shown beside them.
PAID_TILES = ("cost_per_close", "roas")
# What the overview's attribution table shows of /acquisition's row of a source and campaign.
ATTRIBUTION_SPEND = ("spend", "cost_per_lead")
ACQUISITION_CHART = ("acquisition.spend", "payments.cash_collected")
CASH_CHART = ("payments.cash_collected", "payments.revenue_booked")
CALLS_CHART = ("calls.booked", "calls.taken", "calls.closed")
# The speed-to-lead window of the API's default; the page lists the longest waiting first.
WAITING_MINUTES = 120
WAITING_SHOWN = 25


def api_url(path: str, **params) -> str:
    return f"/api/v1/{path}" + (f"?{urlencode(params)}" if params else "")


def shown_notes(notes: list[dict]) -> list[dict]:
    """The notes a page shows beside a section: not the period's (shown once, by the
    period) nor figure-unavailable (each null figure shows its own reason)."""
    return [
        note
        for note in notes
        if note["subject"] != "period" and note["code"] != "figure-unavailable"
    ]


def _section(workspace, period, data, path: str, params: dict, notes=()) -> dict:
    """One API answer as a page reads it: the envelope, the address that answers it, and
    the notes to show beside it."""
    envelope = envelope_build(workspace=workspace, period=period, data=data, notes=notes)
    return {
        **envelope,
        "api": api_url(path, **params),
        "shown_notes": shown_notes(envelope["notes"]),
    }


def period_params(period) -> dict:
    return {"from": period.first_day.isoformat(), "to": period.last_day.isoformat()}


def key_sections(*, workspace, period, fields: dict, metrics=HEADLINE) -> dict:
    """The headline figures of one period ({metric id: Field}, from
    figures.metric_figures or series_with_totals) by section, as the API answers them:
    /calls, /payments and /leads, each with its address and the notes its figures carry."""
    params = period_params(period)
    sections: dict[str, dict] = {}
    for metric in metrics:
        section, key = metric.split(".", 1)
        sections.setdefault(section, {})[key] = fields[metric]
    return {
        section: _section(workspace, period, data, section, params)
        for section, data in sections.items()
    }


# The unit of a change of a multiple (a return), beside "pp" for a rate's.
MULTIPLE = "multiple"


def change_of(current: dict, previous: dict) -> dict | None:
    """How a figure moved from the previous period: a difference (percentage points for a
    rate) and, for counts and money, the relative change; None when either is null."""
    if current["value"] is None or previous["value"] is None:
        return None
    # Which way is good news, as the registry declares it (the colour of the change).
    better = better_of(current["metric"])
    if current["metric"] in MULTIPLE_METRICS:
        # A return moves by multiples: from 4.3 to 4.7 times is 0.4 times more.
        difference = round(current["value"] - previous["value"], 4)
        return {"difference": difference, "unit": MULTIPLE, "relative": None, "better": better}
    if current["unit"] == "rate":
        points = round((current["value"] - previous["value"]) * 100, 2)
        return {"difference": points, "unit": "pp", "relative": None, "better": better}
    difference = round(current["value"] - previous["value"], 6)
    relative = round(difference / previous["value"] * 100, 1) if previous["value"] else None
    return {
        "difference": difference,
        "unit": current["unit"],
        "currency": current.get("currency"),
        "relative": relative,
        "better": better,
    }


def _notes_of(section: dict, metric: str) -> list[dict]:
    """The envelope's notes about one figure, but the one that repeats its null reason."""
    return [
        note
        for note in section["notes"]
        if note["subject"] == metric and note["code"] != "figure-unavailable"
    ]


def headline(current: dict, previous: dict, metrics=HEADLINE) -> list[dict]:
    rows = []
    for metric in metrics:
        section, key = metric.split(".", 1)
        field = current[section]["data"][key]
        before = previous[section]["data"][key]
        rows.append(
            {
                "field": field,
                "path": f"data.{key}",
                "api": current[section]["api"],
                "previous": before,
                "previous_api": previous[section]["api"],
                "change": change_of(field, before),
                "notes": _notes_of(current[section], field["metric"]),
            }
        )
    return rows


def _chart(workspace, period, series: dict, metrics, interval="day") -> dict:
    """Rendered points of several metrics, and the series address of each."""
    data = {metric: series[metric] for metric in metrics}
    rendered = envelope_build(workspace=workspace, period=period, data=data)
    params = period_params(period)
    first = rendered["data"][metrics[0]]
    apis = {
        metric: api_url("series", metric=metric, interval=interval, **params) for metric in metrics
    }
    return {
        "rows": [
            {
                "from": point["from"],
                "to": point["to"],
                "cells": [
                    {
                        "field": rendered["data"][metric][index]["field"],
                        "api": apis[metric],
                        "path": f"data.points.{index}.field",
                    }
                    for metric in metrics
                ],
            }
            for index, point in enumerate(first)
        ],
        "metrics": [
            {
                "id": metric,
                "label": rendered["data"][metric][0]["field"]["label"] if first else metric,
                "api": apis[metric],
            }
            for metric in metrics
        ],
        "notes": shown_notes(rendered["notes"]),
    }


def chart_json(chart: dict) -> dict:
    """What the page's script draws: dates and one list of values per metric."""
    return {
        "labels": [row["from"] for row in chart["rows"]],
        "series": [
            {
                "label": metric["label"],
                "values": [row["cells"][n]["field"]["value"] for row in chart["rows"]],
            }
            for n, metric in enumerate(chart["metrics"])
        ],
    }


def _funnel(workspace, period) -> dict:
    params = period_params(period)
    try:
        funnel = figures.funnel_figures(workspace=workspace, period=period)
    except InvalidParameter:
        # No funnel named vsl here: the workspace's first funnel instead.
        key = (
            Funnel.objects.filter(workspace=workspace)
            .order_by("key")
            .values_list("key", flat=True)[0]
        )
        funnel = figures.funnel_figures(workspace=workspace, period=period, funnel_key=key)
        params["funnel"] = key
    return _section(workspace, period, funnel.data, "funnel", params, funnel.notes)


def overview(*, workspace, picked, now=None) -> dict:
    period, previous = picked.period, picked.previous
    params = period_params(period)
    # The charts' daily (weekly, monthly) counts, added up, are the period's headline
    # figures: one grouped aggregate per family answers both; the leads created are the
    # attribution's rows added up.
    attribution = figures.attribution_figures(workspace=workspace, period=period).data
    series, totals = figures.series_with_totals(
        workspace=workspace,
        period=period,
        metrics=[*CASH_CHART, *CALLS_CHART],
        totals=[metric for metric in OVERVIEW_HEADLINE if metric != "leads.created"],
        interval=picked.interval,
        now=now,
    )
    series = series.data
    totals["leads.created"] = figures.leads_created_of_attribution(attribution, workspace)
    shown = {"metrics": OVERVIEW_HEADLINE}
    current = key_sections(workspace=workspace, period=period, fields=totals, **shown)
    before = key_sections(
        workspace=workspace,
        period=previous,
        fields=figures.metric_figures(
            workspace=workspace, period=previous, metrics=OVERVIEW_HEADLINE, now=now
        ),
        **shown,
    )
    spend = (
        spend_figures(workspace=workspace, picked=picked, shown=ATTRIBUTION_SPEND)
        if workspace_has_spend(workspace=workspace)
        else None
    )
    commission = figures.commission_figures(workspace=workspace, period=period).data
    eod = figures.eod_figures(workspace=workspace, period=period, now=now).data
    waiting = figures.speed_to_lead(
        workspace=workspace, within_minutes=WAITING_MINUTES, now=now
    ).data
    return {
        "period_notes": envelope_build(workspace=workspace, period=period, data={}, now=now)[
            "notes"
        ],
        "headline": headline(current, before, OVERVIEW_HEADLINE),
        "spend": spend,
        "cash_chart": _chart(workspace, period, series, CASH_CHART, picked.interval),
        "calls_chart": _chart(workspace, period, series, CALLS_CHART, picked.interval),
        "chart_interval": picked.interval,
        "cash_title": f"Cash collected and revenue booked per {picked.interval}",
        "calls_title": f"Calls booked, taken and closed per {picked.interval}",
        "funnel": _funnel(workspace, period),
        "attribution": _section(workspace, period, attribution, "attribution", params),
        "attribution_spend": spend["by_campaign"] if spend else None,
        "commission": _section(workspace, period, commission, "commission", params),
        "eod": _section(workspace, period, eod, "eod", params),
        "waiting": _section(
            workspace, None, waiting, "speed-to-lead", {"withinMinutes": WAITING_MINUTES}
        ),
    }


def workspace_has_spend(*, workspace) -> bool:
    """Whether any ad spend was ever recorded for the workspace: without, no page shows
    spend or what it costs (no zeros made up)."""
    return AdSpend.objects.filter(workspace=workspace).exists()


def spend_figures(*, workspace, picked, shown=None) -> dict:
    """The /acquisition answers of the period and of the one before (by campaign): the
    spend tiles of the overview (spend, cost per close, ROAS, each with its change), and
    the rows by source and campaign, which the attribution table reads its spend from;
    with only the figures `shown` of the period's rows when given."""
    params = period_params(picked.period)
    current = _section(
        workspace,
        picked.period,
        figures.acquisition_figures(
            workspace=workspace,
            period=picked.period,
            figures=None if shown is None else {*SPEND_TILES, *shown},
        ).data,
        "acquisition",
        params,
    )
    # The period before is compared by its totals alone, paid and blended.
    before_data = figures.acquisition_figures(
        workspace=workspace, period=picked.previous, figures=set(SPEND_TILES)
    ).data
    previous = _section(
        workspace,
        picked.previous,
        {"total": before_data["total"], "paid": before_data["paid"]},
        "acquisition",
        period_params(picked.previous),
    )
    tiles = []
    for key in SPEND_TILES:
        # What a close cost and what the spend returned are read over what the ads bought
        # (paid), with the blended figure beside them, named so; the spend is the same.
        side = "paid" if key in PAID_TILES else "total"
        field, before = current["data"][side][key], previous["data"][side][key]
        tile = {
            "field": field,
            "path": f"data.{side}.{key}",
            "api": current["api"],
            "previous": before,
            "previous_api": previous["api"],
            "change": change_of(field, before),
            "notes": _notes_of(current, field["metric"]),
        }
        if side == "paid":
            tile.update(
                label=f"{field['label']}, paid",
                blended=current["data"]["total"][key],
                blended_path=f"data.total.{key}",
            )
        tiles.append(tile)
    by_campaign = {
        (row["utm_source"], row["utm_campaign"]): (index, row)
        for index, row in enumerate(current["data"]["rows"])
    }
    return {"acquisition": current, "tiles": tiles, "by_campaign": by_campaign}


# An attribution row's spend when /acquisition has no row of its source and campaign, and
# when other rows share the pair.
SPEND_NONE = "none"
SPEND_SHARED = "shared by the rows of this source and campaign"


def attribution_spend(rows: list, spend: dict | None) -> list:
    """Each attribution row's spend, from /acquisition's row of its source and campaign
    (spend_figures' by_campaign): that row as (its index, the row), or SPEND_NONE when
    it has none, or SPEND_SHARED when several attribution rows share the pair (spend is
    recorded per source and campaign: it cannot be split); a pair without spend in the
    period has none. Empty without spend. The
    overview's table and its CSV both read this."""
    if spend is None:
        return []
    by_campaign = spend["by_campaign"]
    shared: dict = {}
    for row in rows:
        key = (row["utm_source"], row["utm_campaign"])
        shared[key] = shared.get(key, 0) + 1
    found = []
    for row in rows:
        key = (row["utm_source"], row["utm_campaign"])
        if key not in by_campaign or not by_campaign[key][1]["spend"]["value"]:
            # No spend of the pair in the period (its leads came on their own): nothing
            # it cost, rather than 0.00.
            found.append(SPEND_NONE)
        elif shared[key] > 1:
            found.append(SPEND_SHARED)
        else:
            found.append(by_campaign[key])
    return found


def acquisition(*, workspace, picked, now=None) -> dict:
    """The acquisition page: /acquisition's rows and total of the period, the spend tiles
    with their change, and the daily (weekly, monthly) spend against cash collected."""
    spend = spend_figures(workspace=workspace, picked=picked)
    series = figures.series_figures(
        workspace=workspace,
        period=picked.period,
        metrics=list(ACQUISITION_CHART),
        interval=picked.interval,
        now=now,
    ).data
    return {
        **spend,
        "period_notes": envelope_build(workspace=workspace, period=picked.period, data={}, now=now)[
            "notes"
        ],
        "spend_chart": _chart(workspace, picked.period, series, ACQUISITION_CHART, picked.interval),
        "chart_interval": picked.interval,
        "spend_title": f"Ad spend and cash collected per {picked.interval}",
    }


def board(*, workspace, member, period, now=None) -> dict:
    """The member's own figures, as /api/v1/me/board answers them."""
    data = figures.member_board(workspace=workspace, member=member, period=period, now=now).data
    return {
        **envelope_build(workspace=workspace, period=period, data=data, now=now),
        "api": api_url("me/board", **period_params(period)),
    }


def agency_headlines(*, workspaces, params=None, now=None) -> list[dict]:
    """Each workspace's headline figures for the period the console's picker names (the
    API's default, the last 30 days, when it names none), each in the workspace's own
    timezone, with the change from the previous period of the same length."""
    rows = []
    for workspace in workspaces:
        picked = period_pick(workspace=workspace, params=params or {}, now=now)
        current, before = (
            key_sections(
                workspace=workspace,
                period=period,
                fields=figures.metric_figures(
                    workspace=workspace, period=period, metrics=HEADLINE, now=now
                ),
            )
            for period in (picked.period, picked.previous)
        )
        rows.append(
            {
                "workspace": workspace,
                "picked": picked,
                "period": picked.period,
                "figures": headline(current, before),
            }
        )
    return rows


def first_run(*, workspace) -> dict | None:
    """What a new workspace still has to do, while it holds no record (no lead, call,
    sale or payment); None once records have arrived. Each step says whether it is done:
    a provider connected (and not disconnected since), a file imported on the Import page,
    someone else invited or a member; and the connect links still waiting to be used."""
    holds_records = any(
        model.objects.filter(workspace=workspace).exists() for model in (Lead, Call, Sale, Payment)
    )
    if holds_records:
        return None
    connected = (
        Connection.objects.filter(workspace=workspace)
        .exclude(state=Connection.State.DISCONNECTED)
        .exists()
    )
    invited = (
        Member.objects.filter(workspace=workspace).count() > 1
        or Invitation.objects.filter(workspace=workspace).exists()
    )
    imported = RecordUpload.objects.filter(
        workspace=workspace, state=RecordUpload.State.IMPORTED
    ).exists()
    # Connect links sent for the workspace that nobody has used yet (live, no connection
    # made through them), read through the workspace's reverse relation to the agency app's
    # model, which sits above this one.
    pending_links = [
        {
            "integrations": [
                PROVIDERS[key].name if key in PROVIDERS else key for key in link["integrations"]
            ],
            "expires_at": link["expires_at"],
        }
        for link in workspace.connect_links.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now(), connections__isnull=True
        )
        .order_by("expires_at")
        .values("integrations", "expires_at")
    ]
    return {
        "connected": connected,
        "imported": imported,
        "invited": invited,
        "pending_links": pending_links,
    }


# --- Goals and leaderboards ------------------------------------------------------------

# A goal's pace in words (figures registry, goal.pace): ahead from 1.05, behind under 0.95.
PACE_AHEAD = 1.05
PACE_BEHIND = 0.95
PACE_WORDS = {
    "ahead": "Ahead of pace",
    "on_pace": "On pace",
    "behind": "Behind pace",
    "not_started": "Not started",
}


def pace_of(pace_field: dict) -> str:
    """A goal's pace as the pages say it: ahead, on_pace, behind, or not_started when
    nothing is expected yet (a month to come, a target of 0)."""
    value = pace_field["value"]
    if value is None:
        return "not_started"
    if value >= PACE_AHEAD:
        return "ahead"
    if value < PACE_BEHIND:
        return "behind"
    return "on_pace"


def _goal_row(row: dict, workspace) -> dict:
    """A goal as a page draws it: its pace in words and its bar (the actual against the
    target, as a percentage up to 100)."""
    pace = pace_of(row["pace"])
    target = row["target"]["value"] or 0

    def share(value) -> float:
        if not target or value is None:
            return 0.0
        return round(min(100.0, 100.0 * value / target), 1)

    return {
        **row,
        "metric_label": metric_label(row["metric"], workspace),
        "pace_key": pace,
        "pace_word": PACE_WORDS[pace],
        "bar_done": share(row["actual"]["value"]),
    }


def goals_month(*, workspace, member=None, now=None) -> dict:
    """This month's goals, as GET /api/v1/goals answers them, each with its pace in words:
    the workspace's (member None) or the member's own."""
    first_day = figures.this_month(workspace, now)
    period = figures.goal_month_period(workspace=workspace, first_day=first_day, now=now)
    data = figures.goals_figures(workspace=workspace, first_day=first_day, now=now).data
    body = envelope_build(workspace=workspace, period=period, data=data, now=now)
    wanted = None if member is None else str(member.pk)
    body["data"]["goals"] = [
        _goal_row(row, workspace)
        for row in body["data"]["goals"]
        if (row["member"] or {}).get("id") == wanted
    ]
    body["api"] = api_url("goals", month=month_text(first_day))
    body["month"] = first_day
    return body


def leaderboard(*, workspace, period, role: str, now=None) -> dict:
    """The role's leaderboard of the period, as GET /api/v1/leaderboard answers it."""
    data = figures.leaderboard(workspace=workspace, period=period, role=role, now=now).data
    return {
        **envelope_build(workspace=workspace, period=period, data=data, now=now),
        "api": api_url("leaderboard", role=role, **period_params(period)),
        "role": role,
    }
