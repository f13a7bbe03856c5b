"""How the answers write a moment: ISO 8601 in UTC with a Z, the one formatter every app
uses for times it renders itself (serializers' DateTimeFields render the same way)."""

from datetime import UTC, datetime


def utc_iso(moment: datetime | None) -> str | None:
    """An aware datetime as "2026-03-02T15:04:05Z" (microseconds only when there are any);
    None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parse_iso(value, *, naive_is_utc: bool = False) -> datetime | None:
    """A provider's ISO 8601 time ("2026-03-03T10:00:00.000000Z") as an aware datetime; None
    for anything else. A time without an offset is UTC when the provider says so, else None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC) if naive_is_utc else None
