"""Moments: how the answers write them (ISO 8601 in UTC with a Z, the one formatter every
app uses for times it renders itself; serializers' DateTimeFields render the same way),
and how a provider's times are read, bounded to what both databases and Python hold.

Python's datetime holds the years 1 to 9999, in UTC once stored (PostgreSQL's timestamptz
and SQLite's text hold more): a moment a day from either end is refused, so that no shift
to a time zone, on a page or in a query, can leave the calendar.
"""

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

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


def workspace_zone(workspace) -> ZoneInfo:
    """The workspace's time zone (UTC when it names none)."""
    return ZoneInfo(workspace.timezone or "UTC")


def local_today(workspace, now: datetime | None = None) -> date:
    """Today in the workspace's time zone (at `now`, else at this moment): the one "today"
    of a workspace, for periods, boards, forms' days and plans alike."""
    return (now or timezone.now()).astimezone(workspace_zone(workspace)).date()


def utc_today(now: datetime | None = None) -> date:
    """Today in UTC: the day the ad platforms' reports are asked for in."""
    return (now or timezone.now()).astimezone(UTC).date()


def iso_parse(text: str) -> datetime | None:
    """An ISO 8601 date-time as written, naive or with its offset (a file's cell, whose
    reader says which zone a naive one is in); None when it is not one."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


# A form's datetime-local value: the wall time, to the minute, in the workspace's zone.
LOCAL_INPUT_FORMAT = "%Y-%m-%dT%H:%M"


def local_input_parse(value: str, zone: ZoneInfo) -> datetime | None:
    """A datetime-local field's value ("2026-03-05T18:00"; anything after the minute is
    left out) as that wall time in the zone; None for text that is not one."""
    try:
        local = datetime.strptime(value[:16], LOCAL_INPUT_FORMAT)
    except ValueError:
        return None
    return local.replace(tzinfo=zone)


def local_input_text(moment: datetime | None, zone: ZoneInfo) -> str:
    """A moment as a datetime-local field shows it, in the zone ("" for None)."""
    return moment.astimezone(zone).strftime(LOCAL_INPUT_FORMAT) if moment else ""


def utc_iso(moment: datetime | None) -> str | None:
    """An aware datetime as "2026-03-02T15:04:05Z" (microseconds only when there are any);
    None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_iso(value, *, naive_is_utc: bool = False) -> datetime | None:
    """A provider's ISO 8601 time ("2026-03-03T10:00:00.000000Z") as an aware datetime; None
    for anything else, and for a moment outside the calendar's bounds (see instant_bounded).
    A time without an offset is UTC when the provider says so, else None. Read by
    instant_parse, as every instant given as text is."""
    try:
        return instant_parse(value, naive_is_utc=naive_is_utc)
    except InstantInvalid:
        return None


# --- Instants given as text ----------------------------------------------------------
#
# The one parser of the instants a caller gives: the API's bodies, the import's lines and
# the providers' payloads (through parse_iso) read them here, so that each accepts the same
# texts and refuses the same ones with the same words.

TIME_EXAMPLE = "2026-03-01T09:30:00+01:00"
# An offset as ISO 8601 writes it: hours 00 to 23, minutes 00 to 59 (datetime.fromisoformat
# takes "+05:60" as six hours).
_OFFSET = re.compile(r"(?:Z|[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9])?)", re.IGNORECASE)
# The end of a time that names an offset, well formed or not.
_OFFSET_TAIL = re.compile(r"[T ].*?\s*(Z|[+-][0-9:]*)\Z", re.IGNORECASE)


class InstantInvalid(ValueError):
    """Text that is not an instant the service holds; the message says why, quoting it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _shown(text: str) -> str:
    """The text as a message quotes it: at most 40 characters of it."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}… ({len(text)} characters)"


def instant_parse(value, *, naive_is_utc: bool = False) -> datetime:
    """An ISO 8601 time with its offset ("2026-03-01T09:30:00+01:00", "…Z") as an aware
    datetime in that offset, lying within [EARLIEST, LATEST] once in UTC; InstantInvalid
    saying why for anything else: not a string, not ASCII, an offset out of range, not
    ISO 8601, no offset (unless naive_is_utc), or a moment outside the calendar's bounds
    (9999-12-31T23:30:00-05:00 is in the year 10000 in UTC)."""
    if not isinstance(value, str) or not value.strip():
        raise InstantInvalid(
            f"Give the time as an ISO 8601 string with an offset, e.g. {TIME_EXAMPLE}."
        )
    text = value.strip()
    if not text.isascii():
        raise InstantInvalid(
            f"Write the time in ASCII digits and letters only, e.g. {TIME_EXAMPLE}."
        )
    tail = _OFFSET_TAIL.search(text)
    if tail is not None and not _OFFSET.fullmatch(tail.group(1)):
        raise InstantInvalid(
            f"{tail.group(1)!r} is not an offset: hours 00 to 23 and minutes 00 to 59, "
            f"e.g. {TIME_EXAMPLE}, or Z."
        )
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InstantInvalid(
            f"{_shown(text)} is not an ISO 8601 time; give one like {TIME_EXAMPLE}."
        ) from None
    if moment.tzinfo is None:
        if not naive_is_utc:
            raise InstantInvalid(
                f"{_shown(text)} has no offset: give it as e.g. {TIME_EXAMPLE} or ...Z."
            )
        moment = moment.replace(tzinfo=UTC)
    if instant_bounded(moment) is None:
        raise InstantInvalid(
            f"{_shown(text)} is outside the times this service holds: from "
            f"{utc_iso(EARLIEST)} to {utc_iso(LATEST)}."
        )
    return moment
