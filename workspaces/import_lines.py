"""The readers of an import file's lines: a serializer per record type (`LeadLine`,
`CallLine`, …) built of the field classes that read a line's members, and the parsers of
the members' amounts, times and dates (`money_to_minor`, `parse_time`, `parse_date`).

A line's members are read into the arguments of its type's writer in workspaces.services;
a reference (`_Ref`) names a record of this workspace by its id, looked up once per import
in the context's cache. workspaces.importer reads each line with these and writes it.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from rest_framework import serializers
from rest_framework.fields import empty

from core.emails import email_normalise
from core.ids import parse_uuid
from core.money import MoneyInvalid, minor_from_major
from core.times import InstantInvalid, instant_parse

from .models import (
    Call,
    Lead,
    Member,
    Payment,
    Refund,
    Sale,
    WebinarEvent,
)
from .services import COUNT_MAX, RecordInvalid
from .services.goals import MONEY_METRICS as GOAL_MONEY_METRICS
from .services.goals import month_parse


def money_to_minor(value, *, exponent: int, currency: str, field: str) -> int:
    """Major units (a decimal string or a number) as integer minor units (core.money),
    refused as RecordInvalid naming the field."""
    try:
        return minor_from_major(value, exponent=exponent)
    except MoneyInvalid as error:
        if error.code == "decimals":
            message = f"{value} has more decimals than {currency} allows ({exponent})."
        elif error.code == "negative":
            message = f"{value!r} is not an amount of zero or more."
        elif error.code == "too_large":
            message = error.message
        elif isinstance(value, bool) or value is None:
            message = f"Give an amount in {currency}, as a decimal string or number."
        else:
            message = f'{value!r} is not an amount: give a decimal string such as "1234.50".'
        raise RecordInvalid(field, message) from None


def parse_time(value, *, field: str) -> datetime:
    """An ISO 8601 time that carries its offset, read by core.times.instant_parse (the
    API's parser too); a naive time, or one outside the calendar's bounds, is refused."""
    try:
        return instant_parse(value)
    except InstantInvalid as error:
        raise RecordInvalid(field, error.message) from None


def parse_date(value, *, field: str, tz: ZoneInfo) -> date:
    """A calendar date (YYYY-MM-DD), or a time with an offset read in the workspace zone."""
    if not isinstance(value, str):
        raise RecordInvalid(field, "Give a date as YYYY-MM-DD.")
    text = value.strip()
    if len(text) == 10:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise RecordInvalid(field, f"{value!r} is not a date (YYYY-MM-DD).") from None
    return parse_time(text, field=field).astimezone(tz).date()


class _Member(serializers.Field):
    """A member of a line. An absent member and a null one are the same: missing."""

    missing_message = "This member is required."

    def __init__(self, *, required=False, default=None, **kwargs):
        self.member_required = required
        self.missing_value = default
        super().__init__(required=False, allow_null=True, **kwargs)

    def validate_empty_values(self, data):
        if data is empty or data is None:
            if self.is_required():
                raise serializers.ValidationError(self.missing_message)
            return True, self.missing_value
        return False, data

    def is_required(self) -> bool:
        return self.member_required

    def refuse(self, error: RecordInvalid):
        raise serializers.ValidationError(error.message)

    def to_representation(self, value):
        return value


class _Text(_Member):
    def __init__(self, *, max_length=200, default="", **kwargs):
        self.max_length = max_length
        super().__init__(default=default, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("Give this as a string.")
        if len(data) > self.max_length:
            raise serializers.ValidationError(f"At most {self.max_length} characters.")
        return data


class _Email(_Text):
    """An email address, checked as the APIs check one (Django's EmailValidator, which
    DRF's EmailField uses): `not-an-email` and `x@y` are refused."""

    def __init__(self, **kwargs):
        super().__init__(max_length=254, **kwargs)

    def to_internal_value(self, data):
        text = super().to_internal_value(data).strip()
        if text:
            try:
                validate_email(text)
            except DjangoValidationError:
                raise serializers.ValidationError(
                    f"{text!r} is not an email address (name@example.com)."
                ) from None
        return text


class _Parsed(_Member):
    """A member (required unless told) read by one of the writers' parsers, whose refusal
    is the member's."""

    def __init__(self, *, required=True, **kwargs):
        super().__init__(required=required, **kwargs)

    def parse(self, data):
        raise NotImplementedError

    def to_internal_value(self, data):
        try:
            return self.parse(data)
        except RecordInvalid as error:
            self.refuse(error)


class _Time(_Parsed):
    missing_message = "This member is required (ISO 8601 with an offset)."

    def parse(self, data):
        return parse_time(data, field=self.field_name)


class _Date(_Parsed):
    missing_message = "This member is required (YYYY-MM-DD)."

    def parse(self, data):
        return parse_date(data, field=self.field_name, tz=self.context["tz"])


class _Money(_Member):
    def __init__(self, **kwargs):
        super().__init__(required=True, **kwargs)

    def to_internal_value(self, data):
        workspace = self.context["workspace"]
        try:
            return money_to_minor(
                data,
                exponent=workspace.currency_exponent,
                currency=workspace.currency,
                field=self.field_name,
            )
        except RecordInvalid as error:
            self.refuse(error)


class _Boolean(_Member):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            raise serializers.ValidationError("Give true or false.")
        return data


class _Object(_Member):
    """An object member (an EOD report's counts and text); absent, null or empty: {}."""

    def to_internal_value(self, data):
        if not data:
            return {}
        if not isinstance(data, dict):
            raise serializers.ValidationError("Give the report's counts and text as an object.")
        return data


class _Rate(_Member):
    missing_message = "Give the rate as a fraction, e.g. 0.1."

    def __init__(self, **kwargs):
        super().__init__(required=True, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, str | int | float | Decimal):
            raise serializers.ValidationError(self.missing_message)
        try:
            rate = Decimal(str(data).strip())
        except InvalidOperation:
            raise serializers.ValidationError(f"{data!r} is not a number.") from None
        if not rate.is_finite():
            raise serializers.ValidationError(f"{data!r} is not a number.")
        return rate


class _Count(_Member):
    """A count (impressions, clicks): a whole number of zero or more; absent: none."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | Decimal) or data < 0:
            raise serializers.ValidationError("Give a whole number of zero or more.")
        if data > COUNT_MAX:
            raise serializers.ValidationError(f"At most {COUNT_MAX}.")
        if isinstance(data, Decimal):
            if data != data.to_integral_value():
                raise serializers.ValidationError("Give a whole number of zero or more.")
            data = int(data)
        return data


class _Ref(_Member):
    """The record of this workspace whose external id is the member's value.

    A record made in the app (no external id) may be named by its own id, and a member by
    their email address too (the app shows no member's id). Required
    unless `required_without` names a member the line carries instead. Records are
    looked up once per import (the context's cache): only records of earlier types are
    named, so none of them changes after it is cached.
    """

    def __init__(self, model, *, required=True, required_without: str | None = None, **kwargs):
        self.model = model
        self.required_without = required_without
        super().__init__(required=required and required_without is None, **kwargs)

    def is_required(self) -> bool:
        if self.required_without is not None:
            return self.parent.initial_data.get(self.required_without) is None
        return self.member_required

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool):
            data = str(data)
        if not isinstance(data, str) or not data:
            raise serializers.ValidationError("Give the id of the record it names, as a string.")
        cache = self.context["cache"]
        obj = cache.get((self.model, data))
        if obj is not None:
            return obj
        rows = self.model.objects.filter(workspace=self.context["workspace"]).order_by()
        obj = rows.filter(external_id=data).first()
        if obj is None:
            pk = parse_uuid(data)
            obj = rows.filter(pk=pk).first() if pk is not None else None
        if obj is None and self.model is Member and "@" in data:
            # A member named by their email, as the app shows them.
            obj = rows.filter(email__iexact=email_normalise(data)).first()
        if obj is None:
            raise serializers.ValidationError(
                f"No {self.model._meta.verbose_name} with id {data!r} in this workspace "
                "(import it first)."
            )
        cache[(self.model, data)] = obj
        return obj


class _CallId(_Member):
    """The call a call replaces, by id: it may come later in the file, so it is only
    checked here and resolved once every call is written."""

    def to_internal_value(self, data):
        if not isinstance(data, str | int):
            raise serializers.ValidationError("Give the id of the call it replaces.")
        return str(data)


class _InstalmentLine(serializers.Serializer):
    due_date = _Date()
    amount = _Money()


class _Instalments(_Member):
    def to_internal_value(self, data):
        if not isinstance(data, list):
            raise serializers.ValidationError("Give a list of {due_date, amount}.")
        instalments = []
        for index, item in enumerate(data):
            if not isinstance(item, dict):
                raise serializers.ValidationError({str(index): ["Give {due_date, amount}."]})
            line = _InstalmentLine(data=item, context=self.context)
            if not line.is_valid():
                raise serializers.ValidationError({str(index): line.errors})
            instalments.append((line.validated_data["due_date"], line.validated_data["amount"]))
        return instalments


class MemberLine(serializers.Serializer):
    name = _Text()
    email = _Email(required=True)
    role = _Text(required=True)
    joined_at = _Date(required=False)


class LeadLine(serializers.Serializer):
    created_at = _Time()
    name = _Text()
    email = _Email()
    status = _Text(default="new", max_length=40)
    setter = _Ref(Member, required=False)
    utm_source = _Text()
    utm_medium = _Text()
    utm_campaign = _Text()
    utm_content = _Text()
    # Read and normalised by the lead writer (workspaces.identifiers).
    phone = _Text(max_length=64)
    fbclid = _Text()
    fbc = _Text(max_length=500)
    fbp = _Text()
    gclid = _Text()
    gbraid = _Text()
    wbraid = _Text()


class TouchLine(serializers.Serializer):
    lead = _Ref(Lead)
    at = _Time()
    member = _Ref(Member, required=False)
    channel = _Text(max_length=40)


class CallLine(serializers.Serializer):
    scheduled_for = _Time()
    rescheduled_from = _CallId()
    lead = _Ref(Lead)
    booked_at = _Time(required=False)
    closer = _Ref(Member, required=False)
    setter = _Ref(Member, required=False)
    status = _Text(default=Call.Status.SCHEDULED)
    attendance = _Text()
    offer_made = _Boolean()

    def validate(self, attrs):
        attrs["booked_at"] = attrs["booked_at"] or attrs["scheduled_for"]
        return attrs


class OutcomeLine(serializers.Serializer):
    call = _Ref(Call, required=False)
    result = _Text(required=True)
    at = _Time()
    lead = _Ref(Lead, required_without="call")
    member = _Ref(Member, required=False)
    offer_made = _Boolean()
    reason = _Text()
    notes = _Text(max_length=10000)


class SaleLine(serializers.Serializer):
    call = _Ref(Call, required=False)
    lead = _Ref(Lead, required_without="call")
    instalments = _Instalments()
    origin = _Text()
    closed_at = _Time()
    closer = _Ref(Member, required=False)
    setter = _Ref(Member, required=False)
    contract_value = _Money()
    payment_plan = _Text()

    def validate(self, attrs):
        attrs["lead"] = attrs["lead"] or attrs["call"].lead
        attrs["origin"] = attrs["origin"] or None
        return attrs


class PaymentLine(serializers.Serializer):
    sale = _Ref(Sale)
    paid_at = _Time()
    amount = _Money()
    status = _Text(default=Payment.Status.SUCCEEDED)


class RefundLine(serializers.Serializer):
    payment = _Ref(Payment)
    at = _Time()
    amount = _Money()
    kind = _Text(default=Refund.Kind.REFUND)


class EodLine(serializers.Serializer):
    fields = _Object()
    member = _Ref(Member)
    date = _Date()
    submitted_at = _Time()


class WebinarEventLine(serializers.Serializer):
    name = _Text(required=True)
    starts_at = _Time()
    pitch_at = _Time(required=False)


class RegistrationLine(serializers.Serializer):
    event = _Ref(WebinarEvent)
    lead = _Ref(Lead)
    registered_at = _Time()
    joined_at = _Time(required=False)
    left_at = _Time(required=False)


class FunnelEventLine(serializers.Serializer):
    lead = _Ref(Lead)
    funnel = _Text(source="funnel_key", required=True, max_length=64)
    stage = _Text(source="stage_key", required=True, max_length=64)
    at = _Time()


class RescheduleLine(serializers.Serializer):
    rescheduled_from = _Ref(Call)


class CommissionRuleLine(serializers.Serializer):
    rate = _Rate()
    member = _Ref(Member)
    basis = _Text(required=True)
    slot = _Text(required=True)


_WHOLE_TEXT = re.compile(r"[0-9]+(\.0+)?", re.ASCII)


class _Month(_Member):
    """A month of the workspace's calendar, YYYY-MM, as its first day."""

    def __init__(self, **kwargs):
        super().__init__(required=True, **kwargs)

    def to_internal_value(self, data):
        first_day = month_parse(data)
        if first_day is None:
            raise serializers.ValidationError(f"{data!r} is not a month (YYYY-MM).")
        return first_day


class _Target(_Member):
    """A goal's target as written; GoalLine reads it by the line's metric."""

    def __init__(self, **kwargs):
        super().__init__(required=True, **kwargs)

    def to_internal_value(self, data):
        return data


class GoalLine(serializers.Serializer):
    month = _Month()
    metric = _Text(required=True, max_length=40)
    member = _Ref(Member, required=False)
    target = _Target()

    def validate(self, attrs):
        target = attrs["target"]
        if attrs["metric"] in GOAL_MONEY_METRICS:
            workspace = self.context["workspace"]
            try:
                attrs["target"] = money_to_minor(
                    target,
                    exponent=workspace.currency_exponent,
                    currency=workspace.currency,
                    field="target",
                )
            except RecordInvalid as error:
                raise serializers.ValidationError({"target": [error.message]}) from None
        else:
            if isinstance(target, str) and _WHOLE_TEXT.fullmatch(target):
                target = Decimal(target)  # a CSV cell
            try:
                attrs["target"] = _Count().to_internal_value(target)
            except serializers.ValidationError as error:
                raise serializers.ValidationError({"target": error.detail}) from None
        return attrs


class AdSpendLine(serializers.Serializer):
    date = _Date()
    platform = _Text(required=True, max_length=32)
    amount = _Money()
    utm_source = _Text()
    utm_medium = _Text()
    utm_campaign = _Text()
    utm_content = _Text()
    campaign_id = _Text()
    campaign_name = _Text()
    impressions = _Count()
    clicks = _Count()
