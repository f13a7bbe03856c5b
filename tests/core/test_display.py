"""How pages write numbers, money, rates and changes: Babel's own formatting, per locale."""

from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal, format_percent

from core import display

VALUES = [0, 1, 7, 12.5, 999.999, 1000, 1234.5, 118624.98, 69500, -4321.5, Decimal("0.005"),
          Decimal("1234567.891"), 10**9]  # fmt: skip
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
