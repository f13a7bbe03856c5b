"""The API's JSON renderer: DRF's JSONRenderer's exact bytes, written by orjson when it can.

DRF's JSONRenderer (with this project's settings: compact separators, UTF-8 rather than
\\u escapes, no NaN) runs the standard json module, which takes most of the time of a large
answer (1.4 MB of audit events: about 13 ms). orjson writes the same bytes for the values
the answers are made of, several times faster. Where it would not, or could not, the
standard renderer answers instead, so the bytes never change:

- strings: both escape `"`, `\\` and U+0000-U+001F alike (\\n, \\t, ... and \\u00XX) and
  write everything else as UTF-8; U+2028 and U+2029 are escaped afterwards, as DRF does;
- floats: both write the shortest text that reads back as the same number, in the same
  form from 0.0001 up to 1e16 (Python's repr turns to exponents outside, where orjson
  writes 0.00001 for 1e-05); an answer holding a float outside, or NaN or an infinity
  (which orjson writes as null and the standard renderer refuses), found by a walk of its
  dicts and lists, is rendered by the standard renderer;
- any value orjson does not write itself the same way (datetimes, dataclasses, Decimals,
  subclasses of str, int, dict and tuple, lazy strings, ...) goes back to the standard
  renderer, whose encoder knows it; so do integers beyond 64 bits, keys that are not
  strings, and an indented answer; a list subclass is written as the list it is;
- PreRendered: JSON text that a selector already wrote (in SQL) exactly as the standard
  renderer writes its value, put in as it is (orjson.Fragment); the standard renderer
  reads it back to write it.

tests/core/test_renderers.py compares both renderers byte for byte.
"""

import json

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder


class PreRendered:
    """A value as JSON text, written exactly as the standard renderer would write it
    (before its U+2028/U+2029 escapes, which apply to the whole answer)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def value(self):
        return json.loads(self.text)


_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME
_OPTIONS |= orjson.OPT_PASSTHROUGH_DATACLASS


class _Standard(Exception):
    """A value for the standard renderer."""


def _lists_only(value):
    # json writes a list subclass's items as a list's; nothing else is guessed here.
    if isinstance(value, list):
        return list.copy(value)
    if type(value) is PreRendered:
        return orjson.Fragment(value.text)
    raise _Standard


def floats_as_python(data) -> bool:
    """Whether every float in data's dicts, lists and tuples is one orjson writes as
    Python's repr does (0, or 0.0001 <= |x| < 1e16; not NaN nor an infinity).
    Other values are either written alike or sent to the standard renderer."""
    pending = [data]
    while pending:
        value = pending.pop()
        kind = type(value)
        if kind is str:
            continue
        if kind is dict:
            pending.extend(value.values())
        elif kind is list or kind is tuple or isinstance(value, list):
            pending.extend(value)
        elif kind is float and not float_as_python(value):
            return False
    return True


def float_as_python(value: float) -> bool:
    """Whether orjson writes this float as Python's repr does: 0, or 0.0001 <= |x| < 1e16
    (not NaN nor an infinity: every comparison with NaN is false)."""
    return not value or 1e-4 <= abs(value) < 1e16


class _Encoder(JSONEncoder):
    """DRF's encoder, which also reads PreRendered values back."""

    def default(self, obj):
        if type(obj) is PreRendered:
            return obj.value()
        return super().default(obj)


class ApiJSONRenderer(JSONRenderer):
    encoder_class = _Encoder

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if (
            data is None
            or self.ensure_ascii
            or not self.compact
            or not self.strict
            or self.get_indent(accepted_media_type, renderer_context or {}) is not None
            or not floats_as_python(data)
        ):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            rendered = orjson.dumps(data, default=_lists_only, option=_OPTIONS)
        except (TypeError, _Standard):  # orjson.JSONEncodeError is a TypeError
            return super().render(data, accepted_media_type, renderer_context)
        # Their first byte first: a one-byte search is memchr's, where a search for the
        # three bytes takes about 1.5 ms per MB of JSON (its skip table is keyed on the
        # low bits of each byte, which `"` shares with the first).
        if b"\xe2" in rendered:
            rendered = rendered.replace(b"\xe2\x80\xa8", b"\\u2028")
            rendered = rendered.replace(b"\xe2\x80\xa9", b"\\u2029")
        return rendered
