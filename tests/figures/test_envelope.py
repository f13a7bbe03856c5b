"""The envelope's rates: rounded half up to 4 decimals, exactly."""

from decimal import Decimal

import pytest

from figures import envelope as fields
from figures.envelope import rate_value


def exact_rate(numerator: int, denominator: int) -> float:
    """The fraction rounded half up to k / 10000 in integers (no decimal arithmetic)."""
    return (numerator * 20000 + denominator) // (2 * denominator) / 10000


def test_whole_numbers_round_half_up_exactly():
    # Every fraction of denominators up to 400, ties included (1/8 = 0.125, 1/16 = 0.0625,
    # 1/32 = 0.03125 -> 0.0313, half up).
    for denominator in range(1, 401):
        for numerator in range(denominator + 1):
            assert rate_value(numerator, denominator) == exact_rate(numerator, denominator)


@pytest.mark.parametrize(
    ("numerator", "denominator", "expected"),
    [
        (1, 32, 0.0313),  # 0.03125: half up
        (1, 3, 0.3333),
        (2, 3, 0.6667),
        (5, 6, 0.8333),
        (1, 20000, 0.0001),  # 0.00005: half up
        (1, 20001, 0.0),
        (99_999, 100_000, 1.0),  # 0.99999
        (123_456_789_012, 987_654_321_098, 0.125),
        (10**30 - 1, 10**30, 1.0),
    ],
)
def test_whole_numbers_written_out(numerator, denominator, expected):
    assert rate_value(numerator, denominator) == expected
    assert rate_value(numerator, denominator) == exact_rate(numerator, denominator)


def test_decimal_sums_take_decimal():
    # SUM() of a bigint column reads as a Decimal on PostgreSQL.
    assert rate_value(Decimal(5), Decimal(6)) == 0.8333
    assert rate_value(Decimal("250.50"), Decimal(1000)) == 0.2505


def test_a_field_is_immutable():
    field = fields.Field(metric="calls.show_rate", label="Show rate", unit="rate", value=0.5)
    with pytest.raises(AttributeError):
        field.value = 0.6


class _Workspace:
    currency = "EUR"
    currency_exponent = 2
    branding = {"labels": {"attribution.leads": "Opt-ins"}}


def test_fields_built_by_position_are_the_fields_named():
    # FieldsOf builds Fields by position: each value lands in its named member.
    ws = _Workspace()
    note = fields.Note("x", "y", "z")
    leads = fields.FieldsOf("attribution.leads", "count", workspace=ws).count(7, notes=[note])
    assert leads == fields.Field(
        metric="attribution.leads", label="Opt-ins", unit="count", value=7, raw=7, notes=(note,)
    )
    cash = fields.money("attribution.cash_collected", 123450, workspace=ws)
    assert cash == fields.Field(
        metric="attribution.cash_collected",
        label="Cash collected",
        unit="money",
        value=1234.5,
        currency="EUR",
        raw=123450,
    )
    missing = fields.money("attribution.cash_collected", None, workspace=ws)
    assert (missing.value, missing.unavailable_code, missing.currency) == (
        None,
        "not-computed",
        "EUR",
    )
    rate = fields.rate("attribution.close_rate", 1, 4, workspace=ws)
    assert rate == fields.Field(
        metric="attribution.close_rate",
        label="Close rate",
        unit="rate",
        value=0.25,
        numerator=fields.Side("Leads with a sale", 1),
        denominator=fields.Side("Leads", 4),
        raw=(1, 4),
    )
    empty = fields.rate("attribution.close_rate", 0, 0, workspace=ws)
    assert empty.as_dict()["unavailable"] == {
        "code": "empty-denominator",
        "reason": "Leads: none in the period.",
    }
    with pytest.raises(ValueError, match=r"^attribution\.leads is a count, not a money$"):
        fields.FieldsOf("attribution.leads", "money", workspace=ws)
