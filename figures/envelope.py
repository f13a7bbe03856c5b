"""The Envelope and the Field, built so that the contract's rules hold by construction.

- A rate is a fraction rounded to 4 decimals and always carries both sides.
- A null value always carries `unavailable` with a registry code, and the envelope
  mirrors it with a `figure-unavailable` note whose subject is the metric id.
- Money is answered in major units of the workspace currency, with `currency`.

Selectors return data holding Field objects; `envelope_build` renders them and lifts
their notes into the envelope's notes.

Note, Side and Field are named tuples: immutable, and built in a fraction of a frozen
dataclass's time (an answer of /attribution builds about 400 Fields and 200 Sides).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from django.utils import timezone

from core.money import major_from_minor
from core.renderers import FloatsChecked, float_as_python, floats_as_python

from . import registry
from .registry import (
    COUNT,
    DOES_NOT_NEST,
    EMPTY_DENOMINATOR,
    FIGURE_UNAVAILABLE,
    MONEY,
    NO_NUMERATOR,
    PERIOD_IN_FUTURE,
    RATE,
    UNAVAILABLE_CODES,
    metric_label,
)


class Note(NamedTuple):
    subject: str
    code: str
    reason: str

    def as_dict(self) -> dict:
        return {"subject": self.subject, "code": self.code, "reason": self.reason}


class Side(NamedTuple):
    label: str
    value: int | float | None

    def as_dict(self) -> dict:
        return {"label": self.label, "value": self.value}


class Field(NamedTuple):
    """One figure. Build it with count(), money() or rate(); never by hand."""

    metric: str
    label: str
    unit: str
    value: int | float | None
    currency: str | None = None
    numerator: Side | None = None
    denominator: Side | None = None
    unavailable_code: str | None = None
    unavailable_reason: str | None = None
    # The raw value (minor units for money, the exact fraction's sides for a rate), for
    # callers that compute differences; never rendered.
    raw: object = None
    notes: tuple[Note, ...] = ()

    def as_dict(self) -> dict:
        body = {"metric": self.metric, "label": self.label, "unit": self.unit, "value": self.value}
        if self.currency is not None:
            body["currency"] = self.currency
        if self.numerator is not None:
            body["numerator"] = self.numerator.as_dict()
        if self.denominator is not None:
            body["denominator"] = self.denominator.as_dict()
        body["unavailable"] = (
            {"code": self.unavailable_code, "reason": self.unavailable_reason}
            if self.value is None
            else None
        )
        return body

    def all_notes(self) -> list[Note]:
        notes = list(self.notes)
        if self.value is None:
            notes.insert(0, Note(self.metric, FIGURE_UNAVAILABLE, self.unavailable_reason))
        return notes


def _unavailable(code: str, reason: str | None) -> tuple[str, str]:
    if code not in UNAVAILABLE_CODES:
        raise ValueError(f"unknown unavailable code {code}")
    return code, reason or UNAVAILABLE_CODES[code]


def major_units(minor: int | None, workspace) -> int | float | None:
    """Integer minor units -> a JSON number in major units (123450 -> 1234.5)."""
    return major_from_minor(minor, exponent=workspace.currency_exponent)


def _check_unit(metric_id: str, unit: str) -> None:
    registered = registry.METRICS[metric_id].unit
    if registered != unit:
        raise ValueError(f"{metric_id} is a {registered}, not a {unit}")


def count(
    metric_id: str,
    value: int | None,
    *,
    workspace,
    unavailable: str | None = None,
    reason: str | None = None,
    notes=(),
) -> Field:
    _check_unit(metric_id, COUNT)
    code = text = None
    if value is None:
        code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
    return Field(
        metric=metric_id,
        label=metric_label(metric_id, workspace),
        unit=COUNT,
        value=None if value is None else int(value),
        unavailable_code=code,
        unavailable_reason=text,
        raw=value,
        notes=tuple(notes),
    )


def money(
    metric_id: str,
    minor: int | None,
    *,
    workspace,
    unavailable: str | None = None,
    reason: str | None = None,
    notes=(),
) -> Field:
    _check_unit(metric_id, MONEY)
    code = text = None
    if minor is None:
        code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
    return Field(
        metric=metric_id,
        label=metric_label(metric_id, workspace),
        unit=MONEY,
        value=major_units(minor, workspace),
        currency=workspace.currency,
        unavailable_code=code,
        unavailable_reason=text,
        raw=minor,
        notes=tuple(notes),
    )


def average_money(metric_id: str, total_minor: int, how_many: int, *, workspace, notes=()) -> Field:
    """A money figure that is a quotient: total / how many, with both sides."""
    _check_unit(metric_id, MONEY)
    metric = registry.METRICS[metric_id]
    code = text = None
    minor = None
    if how_many == 0:
        code, text = _unavailable(EMPTY_DENOMINATOR, f"No {metric.denominator.lower()}.")
    else:
        minor = int((Decimal(total_minor) / Decimal(how_many)).quantize(0, ROUND_HALF_UP))
    return Field(
        metric=metric_id,
        label=metric_label(metric_id, workspace),
        unit=MONEY,
        value=major_units(minor, workspace),
        currency=workspace.currency,
        numerator=Side(metric.numerator, major_units(total_minor, workspace)),
        denominator=Side(metric.denominator, how_many),
        unavailable_code=code,
        unavailable_reason=text,
        raw=minor,
        notes=tuple(notes),
    )


def rate(
    metric_id: str,
    numerator: int | None,
    denominator: int | None,
    *,
    workspace,
    unavailable: str | None = None,
    reason: str | None = None,
    empty: str = EMPTY_DENOMINATOR,
    side_values=None,
    notes=(),
) -> Field:
    """numerator / denominator as a fraction rounded to 4 decimals, with both sides.

    A zero denominator gives null with `empty` (empty-denominator unless the metric says
    otherwise); a missing numerator gives no-numerator; a numerator larger than its
    denominator gives does-not-nest. `unavailable` forces a null with that code.
    `side_values` renders the sides differently (money sides in major units).
    """
    _check_unit(metric_id, RATE)
    metric = registry.METRICS[metric_id]
    code = text = None
    if unavailable:
        code, text = _unavailable(unavailable, reason)
    elif denominator is None:
        code, text = _unavailable(registry.NO_DENOMINATOR, reason)
    elif denominator == 0:
        code, text = _unavailable(empty, reason or f"{metric.denominator}: none in the period.")
    elif numerator is None:
        code, text = _unavailable(NO_NUMERATOR, reason)
    elif numerator > denominator or numerator < 0:
        code, text = _unavailable(DOES_NOT_NEST, reason)
    value = rate_value(numerator, denominator) if code is None else None
    shown_num, shown_den = side_values if side_values else (numerator, denominator)
    return Field(
        metric=metric_id,
        label=metric_label(metric_id, workspace),
        unit=RATE,
        value=value,
        numerator=Side(metric.numerator, shown_num),
        denominator=Side(metric.denominator, shown_den),
        unavailable_code=code,
        unavailable_reason=text,
        raw=(numerator, denominator),
        notes=tuple(notes),
    )


_FOUR_PLACES = Decimal("0.0001")


def rate_value(numerator, denominator) -> float:
    """numerator / denominator (0 <= numerator <= denominator, denominator > 0) rounded
    half up to 4 decimals, as a float: the float nearest the rounded fraction k / 10000.

    Whole numbers (every count) are rounded with integers; other numbers (sums the
    database answers as decimals) with Decimal. Both give the same float for the same
    fraction: tests/figures/test_envelope.py compares them.
    """
    if type(numerator) is int and type(denominator) is int:
        return (numerator * 20000 + denominator) // (2 * denominator) / 10000
    return float((Decimal(numerator) / Decimal(denominator)).quantize(_FOUR_PLACES, ROUND_HALF_UP))


class Plain(list):
    """Rows already in their answer's shape, holding no Field: rendered as they are.

    A long list of records (audit events, leads) is not walked item by item.
    """


class _Rendering:
    """One answer's rendering: the notes its Fields carry, and whether every float it
    writes is written alike by orjson and the standard renderer (core.renderers)."""

    def __init__(self):
        self.notes: list[Note] = []
        self.floats_alike = True

    def float(self, value) -> None:
        if type(value) is float and not float_as_python(value):
            self.floats_alike = False

    def field(self, field: Field) -> dict:
        if field.value is None or field.notes:
            self.notes.extend(field.all_notes())
        self.float(field.value)
        for side in (field.numerator, field.denominator):
            if side is not None:
                self.float(side.value)
        return field.as_dict()

    def render(self, value):
        kind = type(value)
        if kind is Field:
            return self.field(value)
        if kind is Plain:
            if self.floats_alike and not floats_as_python(value):
                self.floats_alike = False
            return value
        if isinstance(value, dict):
            return {key: self.render(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.render(item) for item in value]
        self.float(value)
        return value


def envelope_build(*, workspace, period, data: dict, notes=(), now=None) -> dict:
    """The answer of every figures operation: {workspace, period, data, notes}.

    Notes carried by the Fields (and figure-unavailable for each null Field) are lifted
    into `notes`; a period that reaches past now adds period-in-future.
    """
    rendering = _Rendering()
    rendered = rendering.render(data)
    collected = rendering.notes
    collected.extend(notes)
    now = now or timezone.now()
    if period is not None and period.end > now:
        collected.append(
            Note(
                "period",
                PERIOD_IN_FUTURE,
                f"The period runs until {period.end.isoformat()}, after now: figures can still "
                "change.",
            )
        )
    unique: list[dict] = []
    seen = set()
    for note in collected:
        key = (note.subject, note.code, note.reason)
        if key not in seen:
            seen.add(key)
            unique.append(note.as_dict())
    # Every float of the answer is in `data` (the rest are the workspace's, the period's
    # and the notes' strings), checked while rendering it: the renderer need not walk it.
    answer = FloatsChecked if rendering.floats_alike else dict
    return answer(
        {
            "workspace": {"id": str(workspace.pk), "currency": workspace.currency},
            "period": period.as_dict() if period is not None else None,
            "data": rendered,
            "notes": unique,
        }
    )
