"""core.renderers.ApiJSONRenderer writes DRF's JSONRenderer's bytes, whatever the value."""

import dataclasses
import datetime
import decimal
import enum
import uuid
from collections import OrderedDict

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from core.renderers import ApiJSONRenderer
from figures import envelope as fields

TEXT = [
    "",
    "plain",
    "accents é ü ß, 日本語, emoji 😀, U+10FFFF \U0010ffff, BOM \ufeff",
    "line separators \u2028 and \u2029 inside",
    'quotes " and backslashes \\ and \\" and slash /',
    "".join(chr(code) for code in range(0x20)) + "\x7f\x80\x9f",
    "</script><!--",
]


@dataclasses.dataclass
class Point:
    x: int


class Colour(enum.StrEnum):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


VALUES = [
    None,
    {"text": TEXT, **{text: index for index, text in enumerate(TEXT)}},
    {"events": [{"at": "2026-03-02T10:00:00.000001Z", "reason": None}] * 3},
    [0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**70), True, False, None],
    [0.0, -0.0, 1.0, 0.5, 0.1234, 1234.5, 1e15, 1e16, 1e-4, 1e-5, 5e-324, 1.7976931348623157e308],
    [0.1 + 0.2, 2.5e-05, 123456789.123456789, -0.00012],
    ["1e5", "0.00001", "x0.0000y"],
    (1, "two", (3,)),
    OrderedDict([("b", 1), ("a", 2)]),
    {1: "integer key", None: "none key", 2.5: "float key", False: "bool key"},
    {
        "when": datetime.datetime(2026, 3, 2, 10, 0, 0, 250000, tzinfo=datetime.UTC),
        "day": datetime.date(2026, 3, 2),
        "time": datetime.time(10, 0, 1),
        "long": datetime.timedelta(hours=1),
        "money": decimal.Decimal("12.50"),
        "id": uuid.UUID("431bdbea-a379-40f1-a6bc-3c21d2be100a"),
        "lazy": gettext_lazy("lazy text"),
        "point": Point(1),
        "colour": Colour.RED,
        "size": Size.BIG,
        "bytes": b"raw",
    },
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_the_same_bytes_as_drf(value):
    ordered = OrderedDict([("b", 1), ("a", 2)])
    ordered.move_to_end("b")
    for data in (value, {"nested": [value, ordered]}):
        try:
            expected = JSONRenderer().render(data)
        except (TypeError, ValueError) as error:
            with pytest.raises(type(error)):
                ApiJSONRenderer().render(data)
            continue
        assert ApiJSONRenderer().render(data) == expected


def test_unrenderable_values_fail_as_they_did():
    for data in ({"object": object()}, {"lone": "\ud800"}):
        with pytest.raises((TypeError, ValueError)):
            JSONRenderer().render(data)
        with pytest.raises((TypeError, ValueError)):
            ApiJSONRenderer().render(data)


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_not_a_number_is_refused_as_the_standard_renderer_refuses_it(number):
    # orjson would write null; JSON has no such number, and no answer is made up.
    with pytest.raises(ValueError, match="Out of range float values"):
        JSONRenderer().render({"x": [1.5, number]})
    with pytest.raises(ValueError, match="Out of range float values"):
        ApiJSONRenderer().render({"x": [1.5, number]})


def test_indented_answers_are_the_standard_ones():
    data = {"a": [1, {"b": "\u2028"}]}
    media = "application/json; indent=4"
    assert ApiJSONRenderer().render(data, media) == JSONRenderer().render(data, media)


class _Workspace:
    pk = uuid.UUID("431bdbea-a379-40f1-a6bc-3c21d2be100a")
    currency = "USD"
    currency_exponent = 2
    branding = {}


def _envelope(minor: int, extra=None):
    ws = _Workspace()
    data = {
        "cash": fields.money("payments.cash_collected", minor, workspace=ws),
        "rate": fields.rate("calls.show_rate", 5, 6, workspace=ws),
        "rows": [extra] if extra is not None else [],
        "plain": [1.5, {"x": 0.25}],
    }
    return fields.envelope_build(workspace=ws, period=None, data=data)


@pytest.mark.parametrize(
    ("minor", "extra"),
    [
        (123_450, None),
        (0, {"share": 0.5}),
        # 1.0000000000000002e16 major units: Python writes the exponent as e+16, orjson e16.
        (10**18 + 150, None),
        # 1e-05 in a row: Python writes 1e-05, orjson 0.00001.
        (1, {"share": 1e-05}),
    ],
)
def test_envelopes_are_the_standard_bytes(minor, extra):
    answer = _envelope(minor, extra)
    assert ApiJSONRenderer().render(answer) == JSONRenderer().render(answer)


def test_a_checked_envelope_is_written_by_orjson():
    answer = _envelope(123_450)
    assert ApiJSONRenderer().render(answer) == (
        b'{"workspace":{"id":"431bdbea-a379-40f1-a6bc-3c21d2be100a","currency":"USD"},'
        b'"period":null,"data":{"cash":{"metric":"payments.cash_collected","label":'
        b'"Cash collected","unit":"money","value":1234.5,"currency":"USD","unavailable":null},'
        b'"rate":{"metric":"calls.show_rate","label":"Show rate","unit":"rate","value":0.8333,'
        b'"numerator":{"label":"Calls taken","value":5},"denominator":{"label":'
        b'"Calls taken or no-show","value":6},"unavailable":null},"rows":[],"plain":[1.5,{"x":0.25}]},"notes":[]}'
    )
