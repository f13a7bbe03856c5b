"""The end-of-day report's own fields: what each member may hold."""

import pytest
from rest_framework import serializers

from agentapi.serializers import EodFieldsField

COUNT_OR_TEXT = "Give a count (a whole number from 0) or a text."


def _field():
    return EodFieldsField(child=serializers.JSONField())


def test_counts_and_texts_are_kept():
    fields = {"dials": 0, "conversations": 10**9, "notes": "x" * 5000}
    assert _field().to_internal_value(fields) == fields


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"Dials": 1}, {"Dials": ["Name it in snake_case, at most 64 characters."]}),
        ({"dials": True}, {"dials": [COUNT_OR_TEXT]}),
        ({"dials": None}, {"dials": [COUNT_OR_TEXT]}),
        ({"dials": 1.0}, {"dials": [COUNT_OR_TEXT]}),
        ({"dials": [1]}, {"dials": [COUNT_OR_TEXT]}),
        ({"dials": -1}, {"dials": ["A count is a whole number from 0."]}),
        ({"dials": 10**9 + 1}, {"dials": ["A count is a whole number from 0."]}),
        ({"notes": "x" * 5001}, {"notes": ["A text has at most 5000 characters."]}),
        # Only the first problem is named.
        ({"dials": 3, "calls": -1, "Notes": "x"}, {"calls": ["A count is a whole number from 0."]}),
    ],
)
def test_the_first_member_that_cannot_be_kept_is_named(fields, errors):
    with pytest.raises(serializers.ValidationError) as raised:
        _field().to_internal_value(fields)
    assert raised.value.detail == errors


def test_the_fields_are_an_object():
    with pytest.raises(serializers.ValidationError) as raised:
        _field().to_internal_value([1])
    assert raised.value.detail == ["Give an object of counts and text."]
