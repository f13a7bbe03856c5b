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
        # The members unpacked once (an answer renders hundreds of Fields).
        metric, label, unit, value, currency, numerator, denominator, code, reason = self[:9]
        body = {"metric": metric, "label": label, "unit": unit, "value": value}
        if currency is not None:
            body["currency"] = currency
        if numerator is not None:
            body["numerator"] = {"label": numerator[0], "value": numerator[1]}
        if denominator is not None:
            body["denominator"] = {"label": denominator[0], "value": denominator[1]}
        body["unavailable"] = None if value is not None else {"code": code, "reason": reason}
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


# Field(...) by position, without the keyword handling of a named tuple's constructor: an
# answer with a row per member or UTM combination builds hundreds.
_new_field = tuple.__new__


class FieldsOf:
    """The Fields of one metric of one workspace: the registry's entry, the workspace's
    label and currency looked up once, for answers that hold the metric once per row.
    count(), money() and rate() build through it."""

    __slots__ = ("currency", "exponent", "label", "metric", "metric_id")

    def __init__(self, metric_id: str, unit: str, *, workspace):
        _check_unit(metric_id, unit)
        self.metric_id = metric_id
        self.metric = registry.METRICS[metric_id]
        self.label = metric_label(metric_id, workspace)
        self.currency = workspace.currency
        self.exponent = workspace.currency_exponent

    def count(self, value, *, unavailable=None, reason=None, notes=()) -> Field:
        code = text = None
        if value is None:
            code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
        shown = None if value is None else int(value)
        return _new_field(
            Field,
            (self.metric_id, self.label, COUNT, shown, None, None, None, code, text, value,
             tuple(notes)),
        )  # fmt: skip

    def money(self, minor, *, unavailable=None, reason=None, notes=()) -> Field:
        code = text = None
        if minor is None:
            code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
        shown = major_from_minor(minor, exponent=self.exponent)
        return _new_field(
            Field,
            (self.metric_id, self.label, MONEY, shown, self.currency, None, None, code, text,
             minor, tuple(notes)),
        )  # fmt: skip

    def rate(
        self,
        numerator,
        denominator,
        *,
        unavailable=None,
        reason=None,
        empty=EMPTY_DENOMINATOR,
        side_values=None,
        notes=(),
        bounded=True,
    ) -> Field:
        """A fraction of its two sides. `bounded=False` for a return (acquisition.roas),
        which may exceed 1: then a numerator above its denominator is no fault."""
        metric = self.metric
        code = text = None
        if unavailable:
            code, text = _unavailable(unavailable, reason)
        elif denominator is None:
            code, text = _unavailable(registry.NO_DENOMINATOR, reason)
        elif denominator == 0:
            code, text = _unavailable(empty, reason or f"{metric.denominator}: none in the period.")
        elif numerator is None:
            code, text = _unavailable(NO_NUMERATOR, reason)
        elif numerator < 0 or (bounded and numerator > denominator):
            code, text = _unavailable(DOES_NOT_NEST, reason)
        value = rate_value(numerator, denominator) if code is None else None
        shown_num, shown_den = side_values if side_values else (numerator, denominator)
        return _new_field(
            Field,
            (self.metric_id, self.label, RATE, value, None,
             Side(metric.numerator, shown_num), Side(metric.denominator, shown_den), code,
             text, (numerator, denominator), tuple(notes)),
        )  # fmt: skip

    def average(self, total_minor: int, how_many: int, *, notes=()) -> Field:
        """A money figure that is a quotient (average_money): total / how many, rounded
        half up to the minor unit, with both sides; null (empty-denominator) for none."""
        metric = self.metric
        code = text = minor = None
        if how_many == 0:
            code, text = _unavailable(EMPTY_DENOMINATOR, f"No {metric.denominator.lower()}.")
        else:
            minor = (2 * total_minor + how_many) // (2 * how_many)
        exponent = self.exponent
        return _new_field(
            Field,
            (self.metric_id, self.label, MONEY, major_from_minor(minor, exponent=exponent),
             self.currency, Side(metric.numerator, major_from_minor(total_minor,
                                                                    exponent=exponent)),
             Side(metric.denominator, how_many), code, text, minor, tuple(notes)),
        )  # fmt: skip


def count(
    metric_id: str,
    value: int | None,
    *,
    workspace,
    unavailable: str | None = None,
    reason: str | None = None,
    notes=(),
) -> Field:
    return FieldsOf(metric_id, COUNT, workspace=workspace).count(
        value, unavailable=unavailable, reason=reason, notes=notes
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
    return FieldsOf(metric_id, MONEY, workspace=workspace).money(
        minor, unavailable=unavailable, reason=reason, notes=notes
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
    return FieldsOf(metric_id, RATE, workspace=workspace).rate(
        numerator,
        denominator,
        unavailable=unavailable,
        reason=reason,
        empty=empty,
        side_values=side_values,
        notes=notes,
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


class Texts(Plain):
    """Plain rows whose values are all texts, None, or dicts of those (a lead's row): no
    float to check, so not walked at all."""


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
        value = field.value
        if value is None or field.notes:
            self.notes.extend(field.all_notes())
        body = field.as_dict()
        if self.floats_alike:
            self.float(value)
            for side in (field.numerator, field.denominator):
                if side is not None:
                    self.float(side.value)
        return body

    def render_dict(self, value: dict) -> dict:
        # Most values of a row are texts or Fields: taken here, without a call each.
        rendered = {}
        for key, item in value.items():
            kind = type(item)
            if kind in _AS_THEY_ARE:
                rendered[key] = item
            elif kind is Field:
                rendered[key] = self.field(item)
            else:
                rendered[key] = self.render(item)
        return rendered

    def render(self, value):
        kind = type(value)
        if kind in _AS_THEY_ARE:
            return value
        if kind is Field:
            return self.field(value)
        if kind is Texts:
            return value
        if kind is Plain:
            if self.floats_alike and not floats_as_python(value):
                self.floats_alike = False
            return value
        if isinstance(value, dict):
            return self.render_dict(value)
        if isinstance(value, list | tuple):
            return [self.render(item) for item in value]
        self.float(value)
        return value


# Values written as they are, with no float inside (bool is its own type, not int's).
_AS_THEY_ARE = frozenset({str, int, bool, type(None)})


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
