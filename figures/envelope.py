"""The Envelope and the Field, built so that the contract's rules hold by construction.

- A rate is a fraction rounded to 4 decimals and always carries both sides.
- A null value always carries `unavailable` with a registry code, and the envelope
  mirrors it with a `figure-unavailable` note whose subject is the metric id.
- Money is answered in major units of the workspace currency, with `currency`.

Selectors return data holding Field objects; `envelope_build` renders them and lifts
their notes into the envelope's notes.

Note, Side and Field are named tuples: immutable values.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from django.utils import timezone

from core.money import major_from_minor

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
            None
            if self.value is not None
            else {"code": self.unavailable_code, "reason": self.unavailable_reason}
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
    if registered == registry.COUNT_OR_MONEY and unit in (COUNT, MONEY):
        return
    if registered != unit:
        raise ValueError(f"{metric_id} is a {registered}, not a {unit}")


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
        return Field(
            metric=self.metric_id,
            label=self.label,
            unit=COUNT,
            value=shown,
            unavailable_code=code,
            unavailable_reason=text,
            raw=value,
            notes=tuple(notes),
        )

    def money(self, minor, *, unavailable=None, reason=None, notes=()) -> Field:
        code = text = None
        if minor is None:
            code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
        shown = major_from_minor(minor, exponent=self.exponent)
        return Field(
            metric=self.metric_id,
            label=self.label,
            unit=MONEY,
            value=shown,
            currency=self.currency,
            unavailable_code=code,
            unavailable_reason=text,
            raw=minor,
            notes=tuple(notes),
        )

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
        bounded=None,
    ) -> Field:
        """A fraction of its two sides. A rate of registry.UNBOUNDED_RATES (a return, a goal
        beaten) may exceed 1: then a numerator above its denominator is no fault."""
        metric = self.metric
        if bounded is None:
            bounded = self.metric_id not in registry.UNBOUNDED_RATES
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
        return Field(
            metric=self.metric_id,
            label=self.label,
            unit=RATE,
            value=value,
            numerator=Side(metric.numerator, shown_num),
            denominator=Side(metric.denominator, shown_den),
            unavailable_code=code,
            unavailable_reason=text,
            raw=(numerator, denominator),
            notes=tuple(notes),
        )

    def pro_rated(self, unit: str, value, *, unavailable=None, reason=None) -> Field:
        """A count or money figure that is a share of another (a goal's expected and
        projected): money (`value` in minor units, a Decimal) to the minor unit, a count to
        2 decimals, both rounded half up; None with `unavailable` and its reason."""
        if unit == MONEY:
            minor = (
                None if value is None else int(Decimal(value).quantize(Decimal(1), ROUND_HALF_UP))
            )
            return self.money(minor, unavailable=unavailable, reason=reason)
        code = text = shown = None
        if value is None:
            code, text = _unavailable(unavailable or registry.NOT_COMPUTED, reason)
        else:
            value = Decimal(value).quantize(_TWO_PLACES, ROUND_HALF_UP)
            shown = int(value) if value == value.to_integral_value() else float(value)
        return Field(
            metric=self.metric_id,
            label=self.label,
            unit=COUNT,
            value=shown,
            unavailable_code=code,
            unavailable_reason=text,
            raw=value,
        )

    def average(self, total_minor: int, how_many: int, *, notes=()) -> Field:
        """A money figure that is a quotient (average_money): total / how many, rounded
        half up to the minor unit, with both sides; null (empty-denominator) for none."""
        metric = self.metric
        code = text = minor = None
        if how_many == 0:
            code, text = _unavailable(EMPTY_DENOMINATOR, f"No {metric.denominator.lower()}.")
        else:
            minor = (2 * total_minor + how_many) // (2 * how_many)
        return Field(
            metric=self.metric_id,
            label=self.label,
            unit=MONEY,
            value=major_from_minor(minor, exponent=self.exponent),
            currency=self.currency,
            numerator=Side(metric.numerator, major_from_minor(total_minor, exponent=self.exponent)),
            denominator=Side(metric.denominator, how_many),
            unavailable_code=code,
            unavailable_reason=text,
            raw=minor,
            notes=tuple(notes),
        )


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


_TWO_PLACES = Decimal("0.01")


def rate_value(numerator, denominator) -> float:
    """numerator / denominator (0 <= numerator <= denominator, denominator > 0) rounded
    half up to 4 decimals, as a float: the float nearest the rounded fraction k / 10000."""
    return float((Decimal(numerator) / Decimal(denominator)).quantize(_FOUR_PLACES, ROUND_HALF_UP))


def _rendered(value, notes: list[Note]):
    """The value with each Field written as its dict, the Fields' notes gathered in
    `notes`."""
    if type(value) is Field:
        if value.value is None or value.notes:
            notes.extend(value.all_notes())
        return value.as_dict()
    if isinstance(value, dict):
        return {key: _rendered(item, notes) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rendered(item, notes) for item in value]
    return value


def envelope_build(*, workspace, period, data: dict, notes=(), now=None) -> dict:
    """The answer of every figures operation: {workspace, period, data, notes}.

    Notes carried by the Fields (and figure-unavailable for each null Field) are lifted
    into `notes`; a period that reaches past now adds period-in-future.
    """
    collected: list[Note] = []
    rendered = _rendered(data, collected)
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
    return {
        "workspace": {"id": str(workspace.pk), "currency": workspace.currency},
        "period": period.as_dict() if period is not None else None,
        "data": rendered,
        "notes": unique,
    }
