"""A change is coloured by the metric's direction of better, not by its sign, and its
relative change never carries a sign that disagrees with the difference."""

import pytest

from dashboard.selectors import change_of as _change
from dashboard.templatetags.figure_display import change_class, change_text


def field(metric, value, unit="money"):
    return {"metric": metric, "unit": unit, "value": value, "currency": "GBP"}


@pytest.mark.parametrize(
    ("metric", "before", "after", "unit", "shown"),
    [
        ("payments.cash_collected", 1000, 1200, "money", "up good"),
        ("payments.cash_collected", 1200, 1000, "money", "down bad"),
        ("acquisition.cost_per_close", 430, 400, "money", "down good"),
        ("payments.refunded", 100, 150, "money", "up bad"),
        ("calls.show_rate", 0.5, 0.6, "rate", "up good"),
        ("acquisition.spend", 3000, 3400, "money", "up neither"),
        ("payments.cash_collected", 1000, 1000, "money", "flat"),
    ],
)
def test_the_colour_follows_good_and_bad_news(metric, before, after, unit, shown):
    change = _change(field(metric, after, unit), field(metric, before, unit))
    assert change_class(change) == shown


def test_a_small_fall_never_reads_plus_zero():
    change = _change(
        field("acquisition.cost_per_close", 2399.01), field("acquisition.cost_per_close", 2400)
    )
    assert change["relative"] == 0.0
    assert change_text(change, "en_GB") == "\u2212£0.99 (\u22120.0%)"
    assert change_class(change) == "down good"
