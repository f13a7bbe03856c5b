"""The JSON parser's walk to the member nested too deep for the decoder."""

import json

import pytest

from core.parsers import MAX_DEPTH, deep_path


def _nested_objects(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (_nested_objects(MAX_DEPTH), ()),
        (_nested_objects(MAX_DEPTH + 1), ("a",) * MAX_DEPTH),
        # An array's place is its index; a key in a string value is not a key.
        ('[0, "x,y", ' + "[" * MAX_DEPTH + "]" * (MAX_DEPTH + 1), (2,) + (0,) * (MAX_DEPTH - 1)),
        (
            '{"first": "v", "b,c": {"k": 1, "d\\"e": ' + "[" * MAX_DEPTH,
            ("b,c", 'd"e') + (0,) * (MAX_DEPTH - 2),
        ),
        # An earlier deep member that closed does not count.
        (
            json.dumps({"done": json.loads(_nested_objects(MAX_DEPTH - 1))})[:-1]
            + ', "next": '
            + "[" * MAX_DEPTH,
            ("next",) + (0,) * (MAX_DEPTH - 1),
        ),
    ],
)
def test_the_path_to_the_first_member_too_deep(text, path):
    assert deep_path(text) == path
