"""Money: the currencies' minor-unit exponents and the one reading and writing of amounts.

Amounts are kept as integer minor units and given and answered in major units of the
workspace currency. This module owns the edge cases, decided once for every entry point
(the agent API's forms, the import, the agency's plans) and every answer:

- a decimal string (``"1234.50"``, surrounding spaces ignored) or a JSON number (an int,
  a float read by its shortest form, a Decimal read as written); booleans, ``None``,
  other types, signs, exponent notation (``"1e3"``), separators (``"1,234"``), NaN and
  Infinity are not amounts;
- no more decimals written than the currency has, trailing zeros included: ``"10.50"``
  is USD, ``"10.500"`` and ``"10.505"`` are not, and neither is ``"100.0"`` in JPY;
- nothing negative; zero is an amount (callers that need more say so);
- at most ``MAX_MINOR_UNITS`` minor units, well inside a 64-bit integer even summed.
"""

import re
from decimal import ROUND_HALF_UP, Decimal

from core.display import money_text as display_money_text

# Minor-unit exponent per ISO 4217 code; a currency not listed here is refused.
CURRENCY_EXPONENTS = {
    "USD": 2,
    "EUR": 2,
    "GBP": 2,
    "CAD": 2,
    "AUD": 2,
    "NZD": 2,
    "CHF": 2,
    "SEK": 2,
    "NOK": 2,
    "DKK": 2,
    "PLN": 2,
    "CZK": 2,
    "ZAR": 2,
    "SGD": 2,
    "HKD": 2,
    "MXN": 2,
    "BRL": 2,
    "INR": 2,
    "AED": 2,
    "ILS": 2,
    "JPY": 0,
    "KRW": 0,
    "ISK": 0,
    "CLP": 0,
    "BHD": 3,
    "KWD": 3,
    "JOD": 3,
    "OMR": 3,
    "TND": 3,
}

# The exponent of a currency not listed (never kept: such a currency is refused).
DEFAULT_EXPONENT = 2

# The largest amount accepted, in minor units (100 billion in a two-decimal currency).
MAX_MINOR_UNITS = 10**13

_AMOUNT = re.compile(r"^(\d+)(?:\.(\d+))?$", re.ASCII)


class MoneyInvalid(ValueError):
    """A value that is not an amount of the currency. ``code`` says why: ``not_amount``,
    ``negative``, ``decimals`` or ``too_large``."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def exponent_of(currency: str) -> int:
    return CURRENCY_EXPONENTS.get(currency, DEFAULT_EXPONENT)


def _text(value) -> str:
    if isinstance(value, bool) or value is None:
        raise MoneyInvalid("not_amount", f"{value!r} is not an amount.")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, str):
        return value.strip()
    raise MoneyInvalid("not_amount", f"{value!r} is not an amount.")


def minor_from_major(value, *, exponent: int) -> int:
    """Major units (a decimal string or a number) as integer minor units.

    Raises MoneyInvalid with a message; see the module for what is an amount.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise MoneyInvalid(
                "negative", f"{value!r} is negative: give an amount of zero or more."
            )
        if value > MAX_MINOR_UNITS:  # so its minor units never need computing
            raise MoneyInvalid("too_large", "The amount is more than the largest accepted.")
    text = _text(value)
    if text.startswith("-") and _AMOUNT.match(text[1:]):
        raise MoneyInvalid("negative", f"{value!r} is negative: give an amount of zero or more.")
    match = _AMOUNT.match(text)
    if match is None:
        raise MoneyInvalid(
            "not_amount", f'{value!r} is not an amount: give a decimal string such as "1234.50".'
        )
    whole, decimals = match.group(1), match.group(2) or ""
    if len(decimals) > exponent:
        raise MoneyInvalid(
            "decimals", f"{value} has {len(decimals)} decimals; the currency has {exponent}."
        )
    whole = whole.lstrip("0") or "0"
    if len(whole) > len(str(MAX_MINOR_UNITS)):
        raise MoneyInvalid("too_large", "The amount is more than the largest accepted.")
    minor = int(whole + decimals.ljust(exponent, "0"))
    if minor > MAX_MINOR_UNITS:
        raise MoneyInvalid("too_large", "The amount is more than the largest accepted.")
    return minor


def major_from_minor(minor: int | None, *, exponent: int) -> int | float | None:
    """Minor units as a JSON number in major units (1234.5 for 123450 cents); whole
    amounts as integers."""
    if minor is None:
        return None
    minor = int(minor)
    if exponent == 0:
        return minor
    scale = 10**exponent
    if minor % scale == 0:
        return minor // scale
    # Python divides two integers with a single rounding: the float nearest the exact
    # amount, as float(Decimal(minor).scaleb(-exponent)) gives (tests/core/test_money.py).
    return minor / scale


def money_text(minor: int, currency: str, *, exponent: int | None = None) -> str:
    """Minor units as a page writes them, in the page's locale (core.display):
    $1,234.50 (en), 1.234,50 € (de)."""
    code = currency.upper()
    if exponent is None:
        exponent = exponent_of(code)
    value = Decimal(int(minor)).scaleb(-exponent)
    return display_money_text(value, code)


def minor_rescale(amount: int, *, from_exponent: int, to_exponent: int) -> int:
    """An amount in the minor units of one exponent in those of another (a provider's
    units in the workspace's), rounded half up."""
    value = Decimal(int(amount)).scaleb(to_exponent - from_exponent)
    return int(value.quantize(Decimal(1), ROUND_HALF_UP))
