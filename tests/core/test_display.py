"""How pages write numbers, money, rates and changes (Babel's own formatting, per locale),
and days and times in the zone of the workspace."""

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal, format_percent

from core import display

VALUES = [
    0,
    1,
    7,
    12.5,
    999.999,
    1000,
    1234.5,
    118624.98,
    69500,
    -4321.5,
    Decimal("0.005"),
    Decimal("1234567.891"),
    10**9,
]
LOCALES = ["en", "de", "fr_CH", "ja", "tr", "hi_IN", "ar_EG"]


@pytest.mark.parametrize("locale", LOCALES)
def test_numbers_money_and_rates_are_written_as_babel_writes_them(locale):
    for value in VALUES:
        number = Decimal(str(value))
        assert display.number_text(value, locale) == format_decimal(
            number, format="#,##0.##", locale=locale
        )
        for currency in ("USD", "EUR", "JPY", "KWD"):
            assert display.money_text(value, currency, locale) == format_currency(
                number, currency, locale=locale
            )
        pattern = display._percent_pattern(locale)
        assert display.rate_text(value, locale) == format_percent(
            number, format=pattern, locale=locale
        )


def test_the_written_forms_a_reader_sees():
    assert display.money_text(118624.98, "USD", "en") == "$118,624.98"
    assert display.money_text(69500, "EUR", "de") == "69.500,00\xa0€"
    assert display.money_text(1234, "JPY", "en") == "¥1,234"
    assert display.number_text(1234.567, "en") == "1,234.57"
    assert display.number_text(1234, "de") == "1.234"
    assert display.rate_text(Decimal("0.4234"), "en") == "42.3%"
    assert display.rate_text(Decimal("0.4234"), "de") == "42,3\xa0%"
    assert display.points_text(1.5, "en") == "+1.5 pp"
    assert display.points_text(-0.25, "de") == f"{display.MINUS}0,2 pp"
    assert display.points_text(0, "en") == "±0.0 pp"


def test_a_kept_text_is_the_one_of_its_value_locale_and_currency():
    """The texts are kept per value, locale and currency: asking again, in another locale
    or currency, reads that one's text; a zero reads 0 whatever its sign."""
    for _ in range(2):
        assert display.number_text(1234, "en") == "1,234"
        assert display.number_text(1234, "de") == "1.234"
        assert display.money_text(5, "USD", "en") == "$5.00"
        assert display.money_text(5, "EUR", "en") == "€5.00"
        assert display.rate_text(0.5, "en") == "50.0%"
        assert display.rate_text(0.5, "tr") == "%50,0"
    assert display.number_text(-0.0, "en") == "0"
    assert display.number_text(Decimal("-0.000"), "en") == "0"
    assert display.money_text(-0.0, "USD", "en") == "$0.00"
    assert display.rate_text(-0.0, "en") == "0.0%"
    assert display.number_text(-1.5, "en") == "-1.5"


ZONES = [
    "America/New_York",
    "America/Los_Angeles",
    "Pacific/Honolulu",
    "UTC",
    "Europe/Berlin",
    "Australia/Sydney",
    "Pacific/Kiritimati",
]


@pytest.fixture
def zone():
    def activate(name):
        display.display_activate(zone_name=name)

    yield activate
    display.display_reset()


@pytest.mark.parametrize("name", ZONES)
def test_a_day_of_the_calendar_is_the_same_day_in_every_zone(zone, name):
    zone(name)
    # As the API writes a chart point's day, and as a date.
    assert display.day_text("2026-11-20") == "20 Nov 2026"
    assert display.day_text(date(2026, 11, 20)) == "20 Nov 2026"
    assert display.moment_text("2026-11-20") == "20 Nov 2026"
    assert display.workspace_day_text(date(2026, 11, 20)) == "20 Nov 2026"
    assert display.workspace_day_text(date(2026, 3, 1)) == "1 Mar 2026"
    assert display.clock_text("2026-11-20") == ""


def test_a_moment_is_written_on_its_day_in_the_active_zone(zone):
    moment = datetime(2026, 11, 21, 3, 35, tzinfo=UTC)
    zone("America/New_York")
    assert display.day_text(moment) == "20 Nov 2026"
    assert display.day_text("2026-11-21T03:35:00Z") == "20 Nov 2026"
    assert display.moment_text(moment) == "20 Nov 2026, 22:35"
    zone("Australia/Sydney")
    assert display.moment_text("2026-11-21T03:35:00Z") == "21 Nov 2026, 14:35"
