"""The JSON parser of both APIs: what any body must be before a view reads it.

DRF parses a body only when a view reads ``request.data``, after the token, browser,
scope and role checks, so these 400s keep their place in the order of checks. Django
refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE before it is parsed (see core.errors).

Beyond JSON syntax, a body may not nest deeper than MAX_DEPTH levels (the standard
decoder recurses and gives up near a thousand levels), nor hold text that a database
cannot store: a NUL character (PostgreSQL text and jsonb refuse it) or half of a
surrogate pair (not Unicode at all). Every member is checked once here, keys included,
so no view or serializer has to know.
"""

import json
from json.decoder import scanstring

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils.json import strict_constant

from .errors import InvalidField

MAX_DEPTH = 32


def _dotted(path) -> str:
    return ".".join(str(part) for part in path) or "body"


def _too_deep(path) -> InvalidField:
    field = _dotted(path)
    return InvalidField(
        field,
        f"{field} is nested deeper than {MAX_DEPTH} levels of objects and arrays; "
        "send a flatter body.",
    )


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "a NUL character (\\u0000)"
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "half of a surrogate pair, which is not Unicode text"
    return None


def too_deep(text: str) -> InvalidField:
    """The refusal of a JSON text nested deeper than MAX_DEPTH, naming the first object or
    array too deep (for a text too deep for the decoder itself)."""
    return _too_deep(deep_path(text))


def _escaped(text: str) -> str:
    """The text with what no database stores (NUL, half a surrogate pair) written as its
    JSON escape, six plain characters (\\u0000), so nothing else of it is lost."""
    if _text_problem(text) is None:
        return text
    return "".join(
        f"\\u{ord(char):04x}" if char == "\x00" or 0xD800 <= ord(char) <= 0xDFFF else char
        for char in text
    )


def storable_json(value):
    """A parsed JSON value that both databases store: every string and member name with
    what they refuse escaped (see _escaped). Values that need nothing come back as they
    are. A signed delivery from a provider is kept this way rather than refused."""
    if isinstance(value, str):
        return _escaped(value)
    if isinstance(value, list):
        return [storable_json(item) for item in value]
    if isinstance(value, dict):
        return {_escaped(key): storable_json(item) for key, item in value.items()}
    return value


def _bad_text(path, problem: str, *, in_key: bool = False) -> InvalidField:
    field = _dotted(path)
    if in_key:
        parent = _dotted(path[:-1]) if len(path) > 1 else "the body"
        return InvalidField(field, f"A member name in {parent} holds {problem}; remove it.")
    return InvalidField(field, f"{field} holds {problem}; remove it.")


def body_check(data) -> None:
    """Refuse a parsed body nested deeper than MAX_DEPTH or holding unstorable text.

    Iterative, members in document order; the first problem names its dotted field.
    """
    stack = [(data, (), 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_DEPTH:
                raise _too_deep(path)
            for key in value:
                problem = _text_problem(key)
                if problem:
                    raise _bad_text((*path, key), problem, in_key=True)
            stack.extend((item, (*path, key), depth + 1) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            if depth > MAX_DEPTH:
                raise _too_deep(path)
            stack.extend(
                (value[index], (*path, index), depth + 1) for index in reversed(range(len(value)))
            )
        elif isinstance(value, str):
            problem = _text_problem(value)
            if problem:
                raise _bad_text(path, problem)


class _OpenContainer:
    """An object or array that deep_path has opened and not yet closed, and where in it
    the reading is: an object's current key, an array's current index."""

    def __init__(self, *, is_object: bool):
        self.is_object = is_object
        self.place = None if is_object else 0
        self.key_next = is_object  # in an object, the next string is a key

    def next_member(self) -> None:
        if self.is_object:
            self.key_next = True
        else:
            self.place += 1

    def string_read(self, string: str) -> None:
        if self.is_object and self.key_next:
            self.place, self.key_next = string, False


def deep_path(text: str) -> tuple:
    """The path to the first object or array nested deeper than MAX_DEPTH, read from the
    JSON text without recursion (for a body too deep for the decoder itself)."""
    open_containers: list[_OpenContainer] = []
    position, length = 0, len(text)
    while position < length:
        char = text[position]
        if char == '"':
            string, position = scanstring(text, position + 1)
            if open_containers:
                open_containers[-1].string_read(string)
            continue
        if char in "{[":
            if len(open_containers) == MAX_DEPTH:
                return tuple(container.place for container in open_containers)
            open_containers.append(_OpenContainer(is_object=char == "{"))
        elif char in "}]" and open_containers:
            open_containers.pop()
        elif char == "," and open_containers:
            open_containers[-1].next_member()
        position += 1
    return ()


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = stream.read().decode(encoding)
        except UnicodeDecodeError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        parse_constant = strict_constant if self.strict else None
        try:
            data = json.loads(text, parse_constant=parse_constant)
        except RecursionError:
            try:
                path = deep_path(text)
            except ValueError:
                path = ()
            raise _too_deep(path) from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        body_check(data)
        return data
