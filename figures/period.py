"""The period of a figure: local days of the workspace, queried as a UTC range.

`from` and `to` are days in the workspace's timezone, both included, so the range is
[from 00:00, to+1 00:00) local. Converting those two instants to UTC once keeps every
query a plain range over an indexed (workspace, time) column, identical on SQLite and
PostgreSQL (no timezone function runs in the database), and right across a
daylight-saving change (a day may last 23 or 25 hours).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.errors import InvalidParameter
from core.times import local_today, workspace_zone

DEFAULT_DAYS = 30

# Query values are read in ASCII digits only: str.isdigit(), int() and
# date.fromisoformat() also take superscripts, other scripts' digits or week dates.
WHOLE_NUMBER = re.compile(r"[0-9]+")
# Beyond any bound a parameter has: a number of more digits reads as this (Python refuses
# int() of more than 4,300 digits, and no database holds them).
BEYOND_ANY_BOUND = 10**18


def shown_value(raw: str) -> str:
    """A parameter's value as a message quotes it: at most 40 characters of it."""
    return repr(raw) if len(raw) <= 40 else f"{raw[:40]!r}… ({len(raw)} characters)"


def whole_number(raw: str) -> int | None:
    """ASCII digits as an int (BEYOND_ANY_BOUND when longer than any bound); None otherwise."""
    if not WHOLE_NUMBER.fullmatch(raw):
        return None
    digits = raw.lstrip("0") or "0"
    return BEYOND_ANY_BOUND if len(digits) > 18 else int(digits)


DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


@dataclass(frozen=True)
class Period:
    """A half-open UTC range [start, end), with the local days it touches."""

    start: datetime
    end: datetime
    first_day: date
    last_day: date

    @classmethod
    def of_days(cls, *, workspace, first_day: date, last_day: date) -> Period:
        zone = workspace_zone(workspace)
        return cls(
            start=local_midnight(first_day, zone),
            end=local_midnight(last_day + timedelta(days=1), zone),
            first_day=first_day,
            last_day=last_day,
        )

    @classmethod
    def of_instants(cls, *, workspace, start: datetime, end: datetime) -> Period:
        """[start, end) exactly; its days are the local days the range touches."""
        zone = workspace_zone(workspace)
        last_instant = end - timedelta(microseconds=1) if end > start else end
        return cls(
            start=start.astimezone(UTC),
            end=end.astimezone(UTC),
            first_day=start.astimezone(zone).date(),
            last_day=last_instant.astimezone(zone).date(),
        )

    def as_dict(self) -> dict:
        """The Envelope's period: local days, both included, whatever the range's ends."""
        return {"from": self.first_day.isoformat(), "to": self.last_day.isoformat()}


def _parse_day(params, name: str) -> date | None:
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        if not DAY.fullmatch(raw):
            raise ValueError
        return date.fromisoformat(raw)
    except ValueError:
        raise InvalidParameter(
            name, f"{name} must be a date written YYYY-MM-DD, not {raw!r}."
        ) from None


def period_from_query(*, workspace, params, now: datetime | None = None) -> Period:
    """The period named by ?from=&to= (both optional); 400 naming the bad parameter."""
    first_day = _parse_day(params, "from")
    last_day = _parse_day(params, "to")
    if last_day is None:
        last_day = local_today(workspace, now)
        if first_day is not None and first_day > last_day:
            raise InvalidParameter(
                "from",
                f"from ({first_day.isoformat()}) is after to, which defaults to today "
                f"({last_day.isoformat()}): send to as well.",
            )
    if first_day is None:
        try:
            first_day = last_day - timedelta(days=DEFAULT_DAYS - 1)
        except OverflowError:
            raise InvalidParameter(
                "to",
                f"to is too early: the period would start {DEFAULT_DAYS - 1} days before the "
                "first day this service can read; send from as well.",
            ) from None
    if first_day > last_day:
        raise InvalidParameter(
            "from", f"from ({first_day.isoformat()}) is after to ({last_day.isoformat()})."
        )
    try:
        return Period.of_days(workspace=workspace, first_day=first_day, last_day=last_day)
    except (OverflowError, ValueError):
        name = "to" if last_day >= date(9999, 12, 31) else "from"
        raise InvalidParameter(
            name, f"{name} is outside the dates this service can read."
        ) from None
