"""The import's reading of values: money, times."""

import pytest

from tests.conftest import aware
from workspaces.importer import money_to_minor, parse_time
from workspaces.services import RecordInvalid


@pytest.mark.parametrize(
    ("value", "exponent", "minor"),
    [
        ("1234.50", 2, 123450),
        ("1234.5", 2, 123450),
        (12, 2, 1200),
        ("0", 2, 0),
        ("1500", 0, 1500),
        ("1.234", 3, 1234),
    ],
)
def test_money_to_minor(value, exponent, minor):
    assert money_to_minor(value, exponent=exponent, currency="X", field="amount") == minor


@pytest.mark.parametrize("value", ["1.234", "1e3", "", "-1", True, None, [1]])
def test_money_to_minor_refuses(value):
    with pytest.raises(RecordInvalid):
        money_to_minor(value, exponent=2, currency="USD", field="amount")


def test_parse_time_needs_an_offset():
    assert parse_time("2026-03-01T09:30:00Z", field="at") == aware("2026-03-01 09:30")
    assert parse_time("2026-03-01T10:30:00+01:00", field="at") == aware("2026-03-01 09:30")
    with pytest.raises(RecordInvalid, match="no offset"):
        parse_time("2026-03-01T09:30:00", field="at")
