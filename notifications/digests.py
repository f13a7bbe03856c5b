"""What a digest says: the figures of a day (or a week) beside the same weekday (the week)
before, read through the figures API's own selectors, so a digest never says what the API
would not; the goals' pace, the EOD reports missed and the leads still waiting.

A figure that cannot be drawn says why (its Field's reason), never 0. The workspace's
digest goes to its owners, admins and managers and to its Slack channel; a closer's,
setter's or SDR's own digest holds their board's figures and goals.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.urls import reverse

from dashboard import selectors as pages
from dashboard.templatetags.figure_display import change_class, change_text, figure_text
from figures import selectors as figures
from figures.envelope import envelope_build
from figures.period import Period
from figures.registry import metric_label
from workspaces.models import Member, Workspace

from .models import Kind

# The workspace's figures, in the order a digest lists them.
DIGEST_METRICS = (
    "leads.created",
    "calls.booked",
    "calls.taken",
    "calls.closed",
    "calls.show_rate",
    "calls.close_rate",
    "payments.cash_collected",
    "payments.revenue_booked",
)
# What a member's own digest lists of their board: (label's metric, path in the board).
BOARD_FIGURES = (
    ("calls", "booked"),
    ("calls", "taken"),
    ("calls", "closed"),
    ("calls", "show_rate"),
    ("calls", "close_rate"),
    ("payments", "cash_collected"),
    ("payments", "revenue_booked"),
    ("commission", "owed"),
)
SPEND_FIGURES = ("spend", "roas")
# How far back the digest looks for leads still waiting, and how many it names.
WAITING_MINUTES = 24 * 60
WAITING_NAMED = 10


@dataclass(frozen=True)
class Span:
    """The local days a digest reports, and the ones it compares them with."""

    kind: str
    first: date
    last: date

    @classmethod
    def daily(cls, sent_on: date) -> Span:
        yesterday = sent_on - timedelta(days=1)
        return cls(Kind.DAILY_DIGEST, yesterday, yesterday)

    @classmethod
    def weekly(cls, sent_on: date) -> Span:
        monday = sent_on - timedelta(days=sent_on.weekday() + 7)
        return cls(Kind.WEEKLY_DIGEST, monday, monday + timedelta(days=6))

    @property
    def before(self) -> tuple[date, date]:
        return self.first - timedelta(days=7), self.last - timedelta(days=7)

    def period(self, workspace) -> Period:
        return Period.of_days(workspace=workspace, first_day=self.first, last_day=self.last)

    def period_before(self, workspace) -> Period:
        first, last = self.before
        return Period.of_days(workspace=workspace, first_day=first, last_day=last)

    @property
    def title(self) -> str:
        if self.kind == Kind.WEEKLY_DIGEST:
            return f"week of {self.first:%-d %B %Y}"
        return f"{self.first:%A %-d %B %Y}"

    @property
    def compared(self) -> str:
        if self.kind == Kind.WEEKLY_DIGEST:
            return "the week before"
        return f"the {self.first:%A} before"


def waited_text(minutes: int) -> str:
    """How long a lead has waited: `45 min`, `2 h 5 min`, `3 d 4 h`."""
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min"


def app_url(name: str, *args) -> str:
    return f"{settings.BASE_URL}{reverse(name, args=args)}"


def _row(workspace, field: dict, before: dict) -> dict:
    locale = workspace.locale
    change = pages.change_of(field, before)
    reason = None if field["value"] is not None else (field["unavailable"] or {}).get("reason")
    return {
        "metric": field["metric"],
        "label": metric_label(field["metric"], workspace),
        "text": figure_text(field, locale),
        "reason": reason,
        "before": figure_text(before, locale),
        "before_reason": None
        if before["value"] is not None
        else (before["unavailable"] or {}).get("reason"),
        "change": change_text(change, locale),
        "change_class": change_class(change),
        "value": field["value"],
    }


def _dicts(workspace, period, data: dict) -> dict:
    return envelope_build(workspace=workspace, period=period, data=data)["data"]


def _workspace_rows(workspace, span: Span, now) -> list[dict]:
    period, before = span.period(workspace), span.period_before(workspace)
    current = figures.metric_figures(
        workspace=workspace, period=period, metrics=DIGEST_METRICS, now=now
    )
    previous = figures.metric_figures(
        workspace=workspace, period=before, metrics=DIGEST_METRICS, now=now
    )
    current = _dicts(workspace, period, current)
    previous = _dicts(workspace, before, previous)
    rows = [_row(workspace, current[m], previous[m]) for m in DIGEST_METRICS]
    if pages.workspace_has_spend(workspace=workspace):
        spend = _dicts(
            workspace, period, figures.acquisition_total(workspace=workspace, period=period)
        )
        spend_before = _dicts(
            workspace, before, figures.acquisition_total(workspace=workspace, period=before)
        )
        rows += [_row(workspace, spend[key], spend_before[key]) for key in SPEND_FIGURES]
    return rows


def _board_rows(workspace, member, span: Span, now) -> list[dict]:
    period, before = span.period(workspace), span.period_before(workspace)
    current = pages.board(workspace=workspace, member=member, period=period, now=now)["data"]
    previous = pages.board(workspace=workspace, member=member, period=before, now=now)["data"]
    return [
        _row(workspace, current[section][key], previous[section][key])
        for section, key in BOARD_FIGURES
    ]


def _goals(workspace, member, now) -> list[dict]:
    rows = pages.goals_month(workspace=workspace, member=member, now=now)["data"]["goals"]
    locale = workspace.locale
    return [
        {
            "label": row["metric_label"],
            "actual": figure_text(row["actual"], locale),
            "target": figure_text(row["target"], locale),
            "pace": row["pace_word"],
            "pace_key": row["pace_key"],
        }
        for row in rows
    ]


def _eod_missed(workspace, span: Span, now) -> list[str]:
    data = figures.eod_figures(workspace=workspace, period=span.period(workspace), now=now).data
    return [
        row["name"]
        for row in data["members"]
        if (row["expected"].value or 0) > (row["submitted"].value or 0)
    ]


def _waiting(workspace, now, member=None) -> dict:
    data = figures.speed_to_lead(
        workspace=workspace, within_minutes=WAITING_MINUTES, member=member, now=now
    ).data
    leads = sorted(data["leads"], key=lambda lead: -lead["minutes_waited"])
    return {
        "count": data["waiting"].value,
        "leads": [
            {
                "name": lead["name"] or lead["email"] or "A lead without a name",
                "minutes": lead["minutes_waited"],
                "waited": waited_text(lead["minutes_waited"]),
                "url": lead["open_url"],
            }
            for lead in leads[:WAITING_NAMED]
        ],
    }


def workspace_digest(*, workspace: Workspace, span: Span, now: datetime) -> dict:
    """The workspace's digest of the span, as of `now` (the round's instant)."""
    return {
        "workspace": workspace,
        "kind": span.kind,
        "title": span.title,
        "compared": span.compared,
        "rows": _workspace_rows(workspace, span, now),
        "goals": _goals(workspace, None, now),
        "eod_missed": _eod_missed(workspace, span, now),
        "waiting": _waiting(workspace, now),
        "app_url": app_url("dashboard-overview", workspace.pk),
        "own": False,
    }


def member_digest(*, workspace: Workspace, member: Member, span: Span, now: datetime) -> dict:
    """A closer's, setter's or SDR's own digest: their board's figures and goals."""
    return {
        "workspace": workspace,
        "kind": span.kind,
        "title": span.title,
        "compared": span.compared,
        "rows": _board_rows(workspace, member, span, now),
        "goals": _goals(workspace, member, now),
        "eod_missed": [],
        "waiting": _waiting(workspace, now, member=member),
        "app_url": app_url("dashboard-board", workspace.pk),
        "own": True,
    }


def slack_blocks(digest: dict) -> dict:
    """The workspace's digest as a Slack message: Block Kit sections, with a text fallback."""
    name = digest["workspace"].name
    kind = "Weekly" if digest["kind"] == Kind.WEEKLY_DIGEST else "Daily"
    heading = f"{kind} digest of {name}: {digest['title']}"
    lines = []
    for row in digest["rows"]:
        if row["value"] is None:
            lines.append(f"*{row['label']}*: not drawn ({row['reason']})")
            continue
        change = f" ({row['change']} against {digest['compared']})" if row["change"] else ""
        lines.append(f"*{row['label']}*: {row['text']}{change}")
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": heading[:150]}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(lines)}},
    ]
    if digest["goals"]:
        goals = "\n".join(
            f"*{goal['label']}*: {goal['actual']} of {goal['target']}, {goal['pace']}"
            for goal in digest["goals"]
        )
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": goals}})
    extra = []
    if digest["eod_missed"]:
        extra.append("EOD reports missed: " + ", ".join(digest["eod_missed"]))
    waiting = digest["waiting"]["count"]
    if waiting:
        extra.append(f"Leads still waiting for a first contact: {waiting}")
    if extra:
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(extra)}})
    blocks.append(
        {
            "type": "actions",
            "elements": [
                {
                    "type": "button",
                    "text": {"type": "plain_text", "text": "Open the figures"},
                    "url": digest["app_url"],
                }
            ],
        }
    )
    return {"text": heading, "blocks": blocks}
