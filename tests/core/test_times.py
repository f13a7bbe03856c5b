from datetime import UTC, datetime, timedelta, timezone

from core.times import utc_iso


def test_a_moment_is_written_in_utc_with_a_z():
    moment = datetime(2026, 3, 2, 10, 4, 5, tzinfo=timezone(timedelta(hours=-5)))
    assert utc_iso(moment) == "2026-03-02T15:04:05Z"


def test_microseconds_are_written_only_when_there_are_some():
    assert utc_iso(datetime(2026, 3, 2, 15, 4, 5, 250000, tzinfo=UTC)) == (
        "2026-03-02T15:04:05.250000Z"
    )


def test_none_stays_none():
    assert utc_iso(None) is None
