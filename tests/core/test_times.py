from datetime import UTC, datetime, timedelta, timezone

import pytest

from core.times import InstantInvalid, instant_parse, parse_iso, utc_iso


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


EXAMPLE = "2026-03-01T09:30:00+01:00"
OUTSIDE = (
    "is outside the times this service holds: from 0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z."
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-01T09:30:00+01:00", datetime(2026, 3, 1, 8, 30, tzinfo=UTC)),
        (" 2026-03-01T08:30:00Z ", datetime(2026, 3, 1, 8, 30, tzinfo=UTC)),
        ("2026-03-01 08:30:00.250-0500", datetime(2026, 3, 1, 13, 30, 0, 250000, tzinfo=UTC)),
        # The calendar's bounds, two days from either end, included.
        ("0001-01-03T00:00:00Z", datetime(1, 1, 3, tzinfo=UTC)),
        ("9999-12-29T00:00:00Z", datetime(9999, 12, 29, tzinfo=UTC)),
    ],
)
def test_an_instant_is_read_with_its_offset(text, expected):
    moment = instant_parse(text)
    assert moment == expected
    assert moment.utcoffset() is not None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, f"Give the time as an ISO 8601 string with an offset, e.g. {EXAMPLE}."),
        (1772532000, f"Give the time as an ISO 8601 string with an offset, e.g. {EXAMPLE}."),
        ("  ", f"Give the time as an ISO 8601 string with an offset, e.g. {EXAMPLE}."),
        (
            "2026-01-01T1\uff10:00:00+00:00",
            f"Write the time in ASCII digits and letters only, e.g. {EXAMPLE}.",
        ),
        (
            "2026-01-01T10:00:00+05:60",
            f"'+05:60' is not an offset: hours 00 to 23 and minutes 00 to 59, e.g. {EXAMPLE}, "
            "or Z.",
        ),
        ("March 1st", f"'March 1st' is not an ISO 8601 time; give one like {EXAMPLE}."),
        (
            "2026-03-01T09:30:00",
            f"'2026-03-01T09:30:00' has no offset: give it as e.g. {EXAMPLE} or ...Z.",
        ),
        # In the year 10000 once in UTC, or in the year 0: datetime cannot even hold them.
        ("9999-12-31T23:30:00-05:00", f"'9999-12-31T23:30:00-05:00' {OUTSIDE}"),
        ("0001-01-01T00:30:00+01:00", f"'0001-01-01T00:30:00+01:00' {OUTSIDE}"),
        # Held by datetime, but a shift to a time zone would leave the calendar.
        ("9999-12-31T12:00:00Z", f"'9999-12-31T12:00:00Z' {OUTSIDE}"),
        ("0001-01-01T00:00:00Z", f"'0001-01-01T00:00:00Z' {OUTSIDE}"),
        (
            "x" * 50,
            f"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (50 characters) is not an ISO 8601 "
            f"time; give one like {EXAMPLE}.",
        ),
    ],
)
def test_what_is_not_an_instant_is_refused_saying_why(value, message):
    with pytest.raises(InstantInvalid) as refused:
        instant_parse(value)
    assert refused.value.message == message


def test_a_providers_time_outside_the_calendar_is_none():
    assert parse_iso("9999-12-31T23:30:00-05:00") is None
    assert parse_iso("0001-01-01T00:30:00", naive_is_utc=True) is None
