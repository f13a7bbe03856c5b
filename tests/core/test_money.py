import random
from decimal import Decimal

import pytest

from core.money import (
    CURRENCY_EXPONENTS,
    MAX_MINOR_UNITS,
    MoneyInvalid,
    exponent_of,
    major_from_minor,
    minor_from_major,
)


@pytest.mark.parametrize(
    ("value", "exponent", "minor"),
    [
        ("1234.50", 2, 123450),
        ("1234.5", 2, 123450),
        ("10.50", 2, 1050),
        (" 12 ", 2, 1200),
        ("0", 2, 0),
        ("0.00", 2, 0),
        ("007", 2, 700),
        (12, 2, 1200),
        (0, 2, 0),
        (1234.5, 2, 123450),
        (99.99, 2, 9999),
        (Decimal("12.345"), 3, 12345),
        (Decimal("1500"), 0, 1500),
        ("1500", 0, 1500),
        ("12.345", 3, 12345),
        ("12.3", 3, 12300),
        ("100000000000", 2, MAX_MINOR_UNITS),
        (100000000000, 2, MAX_MINOR_UNITS),
    ],
)
def test_minor_from_major(value, exponent, minor):
    assert minor_from_major(value, exponent=exponent) == minor


@pytest.mark.parametrize(
    ("value", "exponent", "code"),
    [
        ("10.505", 2, "decimals"),
        ("10.500", 2, "decimals"),
        ("100.0", 0, "decimals"),
        (100.0, 0, "decimals"),
        (0.001, 2, "decimals"),
        (Decimal("1.2345"), 3, "decimals"),
        ("-1", 2, "negative"),
        ("-0", 2, "negative"),
        (-5, 2, "negative"),
        (-0.5, 2, "negative"),
        ("", 2, "not_amount"),
        ("1e3", 2, "not_amount"),
        (1e16, 2, "not_amount"),
        (Decimal("1E+3"), 2, "not_amount"),
        ("1,234", 2, "not_amount"),
        ("+5", 2, "not_amount"),
        (".5", 2, "not_amount"),
        ("5.", 2, "not_amount"),
        ("twelve", 2, "not_amount"),
        ("\u0661\u0662", 2, "not_amount"),
        ("NaN", 2, "not_amount"),
        ("Infinity", 2, "not_amount"),
        (float("nan"), 2, "not_amount"),
        (float("inf"), 2, "not_amount"),
        (Decimal("NaN"), 2, "not_amount"),
        (True, 2, "not_amount"),
        (False, 2, "not_amount"),
        (None, 2, "not_amount"),
        ([1], 2, "not_amount"),
        ({"amount": 1}, 2, "not_amount"),
        ("100000000000.01", 2, "too_large"),
        (100000000001, 2, "too_large"),
        (2**64, 2, "too_large"),
        (10**100, 2, "too_large"),
        ("9" * 5000, 2, "too_large"),
        ("1" + "0" * 30 + ".5", 2, "too_large"),
    ],
)
def test_minor_from_major_refuses(value, exponent, code):
    with pytest.raises(MoneyInvalid) as refused:
        minor_from_major(value, exponent=exponent)
    assert refused.value.code == code
    assert isinstance(refused.value, ValueError)
    assert str(refused.value) == refused.value.message


def test_refusals_say_why():
    with pytest.raises(MoneyInvalid, match=r"^10.505 has 3 decimals; the currency has 2\.$"):
        minor_from_major("10.505", exponent=2)
    with pytest.raises(MoneyInvalid, match=r"^'-1' is negative: give an amount of zero or more\.$"):
        minor_from_major("-1", exponent=2)
    with pytest.raises(MoneyInvalid, match=r"^'x' is not an amount: give a decimal string"):
        minor_from_major("x", exponent=2)
    with pytest.raises(MoneyInvalid, match=r"^The amount is more than the largest accepted\.$"):
        minor_from_major(10**14, exponent=0)


@pytest.mark.parametrize(
    ("minor", "exponent", "major"),
    [
        (123450, 2, 1234.5),
        (123456, 2, 1234.56),
        (123400, 2, 1234),
        (0, 2, 0),
        (1500, 0, 1500),
        (12345, 3, 12.345),
        (-250, 2, -2.5),
        (None, 2, None),
    ],
)
def test_major_from_minor(minor, exponent, major):
    answered = major_from_minor(minor, exponent=exponent)
    assert answered == major
    assert type(answered) is type(major)


def test_major_from_minor_is_the_float_nearest_the_exact_amount():
    # Every exponent in use, amounts around the float's 53 bits and past the largest
    # accepted amount (sums of many), both signs.
    rng = random.Random(7)
    amounts = [rng.randrange(-(10**16), 10**16) for _ in range(20000)]
    amounts += [2**53 + k for k in range(-50, 50)] + [10**13 - 1, 10**15 + 1, 7, -7, 1, -1]
    for exponent in (1, 2, 3, 4):
        for minor in amounts:
            exact = Decimal(minor).scaleb(-exponent)
            expected = int(exact) if exact == exact.to_integral_value() else float(exact)
            answered = major_from_minor(minor, exponent=exponent)
            assert (answered, type(answered)) == (expected, type(expected)), (minor, exponent)
    # A sum the database answers as a decimal.
    assert major_from_minor(Decimal(123450), exponent=2) == 1234.5


def test_exponents():
    assert (CURRENCY_EXPONENTS["USD"], CURRENCY_EXPONENTS["JPY"], CURRENCY_EXPONENTS["KWD"]) == (
        2,
        0,
        3,
    )
    assert exponent_of("JPY") == 0
    assert exponent_of("XXX") == 2


def test_an_integer_too_long_to_print_is_too_large():
    with pytest.raises(MoneyInvalid) as refused:
        minor_from_major(10**5000, exponent=2)
    assert refused.value.code == "too_large"
