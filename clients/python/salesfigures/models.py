"""The answers' and bodies' models, by name, from whichever description holds them:
`from salesfigures.models import Field, EndpointCreateRequest`.

Both descriptions define the shared shapes (Field, Error, Note, ...) the same way; a name is
looked up in the figures description first, then in the agent one.
"""

from __future__ import annotations

import importlib
from decimal import Decimal
from typing import Any

from . import _generated

# Minor-unit exponent per ISO 4217 code (as the service keeps them); others have 2.
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
DEFAULT_EXPONENT = 2


def _packages() -> list[Any]:
    return [
        importlib.import_module(f"{_generated.__name__}.{name}.models")
        for name in _generated.DESCRIPTIONS
    ]


def model(name: str) -> type:
    """The model class called `name`, from whichever description defines it."""
    for package in _packages():
        found = getattr(package, name, None)
        if isinstance(found, type):
            return found
    raise AttributeError(f"No model is called {name!r} in either API description.")


def __getattr__(name: str) -> type:
    if name.startswith("__"):
        raise AttributeError(name)
    return model(name)


def as_decimal(field: Any) -> Decimal | None:
    """A Field's value as a Decimal; None when the value is null (see `unavailable`).

    Money (`unit: money`) is exact to the minor units of its currency (cents for USD, none
    for JPY, thousandths for KWD): 118624.98 becomes Decimal("118624.98"), never the binary
    float's 118624.979999…. Counts, rates and durations are the number as written."""
    value = field.value
    if value is None or type(value).__name__ == "Unset":
        return None
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    unit = getattr(getattr(field, "unit", None), "value", getattr(field, "unit", None))
    if unit != "money":
        return exact
    currency = getattr(field, "currency", None)
    code = currency.upper() if isinstance(currency, str) else ""
    exponent = CURRENCY_EXPONENTS.get(code, DEFAULT_EXPONENT)
    return exact.quantize(Decimal(1).scaleb(-exponent))


def _flatten(value: Any, prefix: str, row: dict[str, Any]) -> None:
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            _flatten(inner, f"{prefix}.{key}" if prefix else str(key), row)
    else:
        row[prefix] = value


def _flat(item: Any) -> dict[str, Any]:
    row: dict[str, Any] = {}
    _flatten(item, "", row)
    return row


def _is_field(value: Any) -> bool:
    return isinstance(value, dict) and "metric" in value and "unit" in value


def to_rows(answer: Any) -> list[dict[str, Any]]:
    """A list answer as rows of plain values, one dict per row with dotted keys for nested
    members (`setter.name`), ready for `csv.DictWriter` or `pandas.DataFrame(rows)`.

    An envelope whose data is figures gives one row per figure (metric, label, unit, value,
    currency, ...); one that lists records (leads, rows, events) gives one row per record.
    The events feed and other lists (`{"events": [...]}`) give one row per item."""
    body = answer.to_dict() if hasattr(answer, "to_dict") else answer
    data = body.get("data", body) if isinstance(body, dict) else body
    if isinstance(data, list):
        return [_flat(item) for item in data]
    lists = [
        value
        for value in data.values()
        if isinstance(value, list) and all(isinstance(item, dict) for item in value)
    ]
    if len(lists) == 1:
        return [_flat(item) for item in lists[0]]
    return [{"key": key, **_flat(value)} for key, value in data.items() if _is_field(value)]


def _extend() -> None:
    """Field.as_decimal() and to_rows() on the answers that list things, for every
    description's models (the generated classes stay as generated)."""

    def _as_decimal(self: Any) -> Decimal | None:
        return as_decimal(self)

    def _to_rows(self: Any) -> list[dict[str, Any]]:
        return to_rows(self)

    for package in _packages():
        for name in dir(package):
            cls = getattr(package, name)
            if not isinstance(cls, type) or not hasattr(cls, "to_dict"):
                continue
            if name == "Field":
                cls.as_decimal = _as_decimal
            if name.endswith(("Envelope", "List")):
                cls.to_rows = _to_rows


_extend()
