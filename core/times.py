"""Moments: how the answers write them (ISO 8601 in UTC with a Z, the one formatter every
app uses for times it renders itself; serializers' DateTimeFields render the same way),
and how a provider's times are read, bounded to what both databases and Python hold.

Python's datetime holds the years 1 to 9999, in UTC once stored (PostgreSQL's timestamptz
and SQLite's text hold more): a moment a day from either end is refused, so that no shift
to a time zone, on a page or in a query, can leave the calendar.
"""

from datetime import UTC, datetime, timedelta

EARLIEST = datetime(1, 1, 1, tzinfo=UTC) + timedelta(days=2)
LATEST = datetime(9999, 12, 31, tzinfo=UTC) - timedelta(days=2)


def instant_bounded(moment: datetime | None) -> datetime | None:
    """An aware moment in UTC if it lies within [EARLIEST, LATEST]; None otherwise."""
    if moment is None or moment.tzinfo is None:
        return None
    try:
        moment = moment.astimezone(UTC)
    except (OverflowError, ValueError):
        return None
    return moment if EARLIEST <= moment <= LATEST else None


def from_epoch(value, *, per_second: int = 1) -> datetime | None:
    """A provider's epoch time (seconds, or milliseconds with per_second=1000) as an aware
    UTC moment; None for what is not a number, or lies outside the calendar's bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return instant_bounded(datetime.fromtimestamp(value / per_second, tz=UTC))
    except (OverflowError, ValueError, OSError):
        return None


def utc_iso(moment: datetime | None) -> str | None:
    """An aware datetime as "2026-03-02T15:04:05Z" (microseconds only when there are any);
    None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_iso(value, *, naive_is_utc: bool = False) -> datetime | None:
    """A provider's ISO 8601 time ("2026-03-03T10:00:00.000000Z") as an aware datetime; None
    for anything else, and for a moment outside the calendar's bounds (see instant_bounded).
    A time without an offset is UTC when the provider says so, else None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        if not naive_is_utc:
            return None
        moment = moment.replace(tzinfo=UTC)
    # Within the calendar once in UTC (9999-12-31T23:59-05:00 is in the year 10000).
    bounded = instant_bounded(moment)
    return None if bounded is None else moment
