from datetime import UTC, datetime, timedelta, timezone

import pytest

from core.times import parse_iso, utc_iso


def test_a_moment_is_written_in_utc_with_a_z():
    moment = datetime(2026, 3, 2, 10, 4, 5, tzinfo=timezone(timedelta(hours=-5)))
    assert utc_iso(moment) == "2026-03-02T15:04:05Z"


def test_microseconds_are_written_only_when_there_are_some():
    assert utc_iso(datetime(2026, 3, 2, 15, 4, 5, 250000, tzinfo=UTC)) == (
        "2026-03-02T15:04:05.250000Z"
    )


def test_none_stays_none():
    assert utc_iso(None) is None


@pytest.mark.parametrize(
    ("text", "naive_is_utc", "expected"),
    [
        ("2026-03-03T10:00:00.000000Z", False, datetime(2026, 3, 3, 10, tzinfo=UTC)),
        ("2026-03-03T12:00:00+02:00", False, datetime(2026, 3, 3, 10, tzinfo=UTC)),
        ("2026-03-03T10:00:00", False, None),
        ("2026-03-03T10:00:00", True, datetime(2026, 3, 3, 10, tzinfo=UTC)),
        ("yesterday", True, None),
        ("", True, None),
        (1772532000, True, None),
        (None, False, None),
    ],
)
def test_a_providers_iso_time_is_aware_or_none(text, naive_is_utc, expected):
    assert parse_iso(text, naive_is_utc=naive_is_utc) == expected
