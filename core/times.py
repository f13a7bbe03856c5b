"""How the answers write a moment: ISO 8601 in UTC with a Z, the one formatter every app
uses for times it renders itself (serializers' DateTimeFields render the same way)."""

from datetime import UTC, datetime


def utc_iso(moment: datetime | None) -> str | None:
    """An aware datetime as "2026-03-02T15:04:05Z" (microseconds only when there are any);
    None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
