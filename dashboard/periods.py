"""The period picker of the figure pages: last 7, 30 or 90 days, this month, last month or
a custom range, and the previous period of the same length."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from core.errors import InvalidParameter
from figures.period import DEFAULT_DAYS, Period, local_today, period_from_query

CHOICES = (
    ("7", "Last 7 days"),
    ("30", "Last 30 days"),
    ("90", "Last 90 days"),
    ("this-month", "This month"),
    ("last-month", "Last month"),
    ("custom", "Custom range"),
)
DEFAULT = str(DEFAULT_DAYS)


@dataclass(frozen=True)
class Picked:
    choice: str
    period: Period
    previous: Period
    error: str | None = None

    @property
    def days(self) -> int:
        return (self.period.last_day - self.period.first_day).days + 1

    def query(self) -> dict:
        return {"from": self.period.first_day.isoformat(), "to": self.period.last_day.isoformat()}

    def previous_query(self) -> dict:
        return {
            "from": self.previous.first_day.isoformat(),
            "to": self.previous.last_day.isoformat(),
        }


def _days(workspace, first: date, last: date) -> Period:
    return Period.of_days(workspace=workspace, first_day=first, last_day=last)


def previous_of(workspace, period: Period) -> Period:
    """The same number of days, ending the day before the period starts."""
    length = (period.last_day - period.first_day).days + 1
    last = period.first_day - timedelta(days=1)
    return _days(workspace, last - timedelta(days=length - 1), last)


def period_pick(*, workspace, params, now=None) -> Picked:
    """The period a page's query names (?range=..., and from/to for a custom range).

    A custom range that cannot be read falls back to the default with the reason, the
    same reason the API answers for those dates.
    """
    choice = params.get("range") or DEFAULT
    if choice not in dict(CHOICES):
        choice = DEFAULT
    today = local_today(workspace, now)
    error = None
    if choice == "custom":
        try:
            period = period_from_query(workspace=workspace, params=params, now=now)
        except InvalidParameter as refusal:
            error = refusal.message
            choice = DEFAULT
    if choice in ("7", "30", "90"):
        period = _days(workspace, today - timedelta(days=int(choice) - 1), today)
    elif choice == "this-month":
        period = _days(workspace, today.replace(day=1), today)
    elif choice == "last-month":
        last = today.replace(day=1) - timedelta(days=1)
        period = _days(workspace, last.replace(day=1), last)
    return Picked(choice, period, previous_of(workspace, period), error)
