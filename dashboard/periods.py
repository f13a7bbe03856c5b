"""The period picker of the figure pages: last 7, 30 or 90 days, this month, last month or
a custom range, and the previous period of the same length."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from core.errors import InvalidParameter
from figures.period import DEFAULT_DAYS, Period, local_today, period_from_query
from figures.selectors import SERIES_POINTS_MAX, series_bucket_count

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
    # How the page names the previous period.
    previous_label: str = ""

    @property
    def previous_days(self) -> int:
        return (self.previous.last_day - self.previous.first_day).days + 1

    @property
    def compared_with(self) -> str:
        if self.previous_label:
            return self.previous_label
        return f"the {self.days} day{'s' if self.days != 1 else ''} before"

    @property
    def days(self) -> int:
        return (self.period.last_day - self.period.first_day).days + 1

    @property
    def interval(self) -> str:
        """The charts' bucket: a day up to 62 days, a week up to a year, else a month."""
        return chart_interval(self.days)

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


def _month_back(day: date) -> date:
    """The same day of the month before, or that month's last day when it is shorter."""
    last_of_previous = day.replace(day=1) - timedelta(days=1)
    return last_of_previous.replace(day=min(day.day, last_of_previous.day))


def same_days_last_month(workspace, period: Period) -> Period:
    """This month to today against the same days of last month: 1-24 Nov against
    1-24 Oct (to the end of a shorter month: 1-30 Mar against 1-28 Feb)."""
    return _days(workspace, _month_back(period.first_day), _month_back(period.last_day))


def month_before(workspace, period: Period) -> Period:
    """Last month against the whole month before it."""
    last = period.first_day - timedelta(days=1)
    return _days(workspace, last.replace(day=1), last)


# A page's charts draw at most as many points as /api/v1/series answers.
DAILY_UP_TO_DAYS = 62
WEEKLY_UP_TO_DAYS = 366


def chart_interval(days: int) -> str:
    if days <= DAILY_UP_TO_DAYS:
        return "day"
    return "week" if days <= WEEKLY_UP_TO_DAYS else "month"


def _custom(workspace, params, now) -> tuple[Period, Period]:
    """A custom range and the period before it; InvalidParameter when a page cannot show
    it (dates outside the calendar, more chart points than the API answers)."""
    period = period_from_query(workspace=workspace, params=params, now=now)
    days = (period.last_day - period.first_day).days + 1
    interval = chart_interval(days)
    if series_bucket_count(period, interval) > SERIES_POINTS_MAX:
        raise InvalidParameter(
            "from",
            f"A page shows at most {SERIES_POINTS_MAX} {interval}s of figures: choose a "
            f"period shorter than {days} days.",
        )
    try:
        return period, previous_of(workspace, period)
    except (OverflowError, ValueError):
        raise InvalidParameter(
            "from",
            "from is too early to compare: the period before it would start before the "
            "first date this service can read.",
        ) from None


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
            period, previous = _custom(workspace, params, now)
        except InvalidParameter as refusal:
            error = refusal.message
            choice = DEFAULT
        else:
            return Picked(choice, period, previous, error)
    if choice == "this-month":
        period = _days(workspace, today.replace(day=1), today)
        previous = same_days_last_month(workspace, period)
        return Picked(choice, period, previous, error, "the same days of last month")
    if choice == "last-month":
        last = today.replace(day=1) - timedelta(days=1)
        period = _days(workspace, last.replace(day=1), last)
        return Picked(choice, period, month_before(workspace, period), error, "the month before")
    period = _days(workspace, today - timedelta(days=int(choice) - 1), today)
    return Picked(choice, period, previous_of(workspace, period), error)
