"""Bodies of the agent API: what each write accepts, and the shapes of the answers.

Request serializers are strict: a member they do not name is refused (400 naming it),
money is a decimal string or number in major units with no more decimals than the
workspace currency has, and times carry an offset. `validated()` turns the first error
into one `invalid_field` naming the field, dotted when nested (`instalments.0.amount`).

The error answers every route of the agent API describes, and the builders of the
examples its descriptions show, are here too (`errors`, `request_example`,
`response_example`), as the agency API's are in agency/serializers.py.
"""

import re

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from core.input import StrictSerializer
from core.money import MoneyInvalid, major_from_minor, minor_from_major
from core.openapi import ErrorSerializer, error_example, error_responses
from core.times import InstantInvalid, instant_parse
from workspaces.models import Call, Goal, Outcome, Sale
from workspaces.services import COUNT_MAX
from workspaces.services.eod import EMPTY_REPORT, eod_fields_filled
from workspaces.services.goals import MONEY_METRICS
from workspaces.services.goals import TARGET_MAX as GOAL_TARGET_MAX

from .models import ChangeLogEntry, Draft

SALE_FIELDS = ("contract_value", "cash_collected", "payment_plan", "instalments")
EOD_KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
EOD_TEXT_MAX = 5000


class StrictBooleanField(serializers.BooleanField):
    """true or false, nothing that merely looks like one."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with an offset, read by core.times.instant_parse (the import's
    parser too): a time without an offset is ambiguous, and one outside the calendar's
    bounds is refused, each naming the field."""

    def to_internal_value(self, value):
        try:
            moment = instant_parse(value)
        except InstantInvalid as error:
            raise serializers.ValidationError(error.message) from None
        return self.enforce_timezone(moment)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "pattern": r"^\d+(\.\d+)?$", "example": "1234.50"},
            {"type": "number", "minimum": 0},
        ],
        "description": "Major units of the workspace currency, with no more decimals than it "
        "has (2 for USD, 0 for JPY, 3 for KWD).",
    }
)
class MoneyField(serializers.Field):
    """Major units in, integer minor units out; answered as a number in major units.

    The currency's exponent comes from the serializer context (`exponent`, `currency`).
    """

    def __init__(self, *, minimum: int = 0, **kwargs):
        self.minimum = minimum
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        exponent = self.context.get("exponent", 2)
        currency = self.context.get("currency", "the workspace currency")
        example = "1234" if exponent == 0 else "1234." + "5" * exponent
        try:
            minor = minor_from_major(data, exponent=exponent)
        except MoneyInvalid as error:
            if error.code == "too_large":
                raise serializers.ValidationError("The amount is too large.") from None
            raise serializers.ValidationError(
                f"Give an amount in major units of {currency} with at most {exponent} decimals, "
                f"as a string or a number, e.g. {example!r}."
            ) from None
        if minor < self.minimum:
            raise serializers.ValidationError(
                "Give an amount greater than zero." if self.minimum else "Give an amount."
            )
        return minor

    def to_representation(self, value):
        return major_from_minor(value, exponent=self.context.get("exponent", 2))


# Keys a draft's fields may never carry, and the words that mark a key as money.
CASH_KEYS = frozenset(SALE_FIELDS)
CASH_WORDS = ("cash", "revenue", "payment", "instalment")


def cash_figure_path(value, prefix: str = "fields") -> str | None:
    """The dotted path of the first money member anywhere in value, or None."""
    if isinstance(value, dict):
        for key, child in value.items():
            path = f"{prefix}.{key}"
            lowered = str(key).lower()
            if lowered in CASH_KEYS or any(word in lowered for word in CASH_WORDS):
                return path
            found = cash_figure_path(child, path)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found = cash_figure_path(child, f"{prefix}.{index}")
            if found is not None:
                return found
    return None


# --- Forms -------------------------------------------------------------------------------


class UUIDTextField(serializers.UUIDField):
    """A UUID written as a string; DRF's own field also takes a number (UUID(int=…)),
    which no integrator means and which fails outside 128 bits."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class InstalmentSerializer(StrictSerializer):
    due_date = serializers.DateField(help_text="YYYY-MM-DD.")
    amount = MoneyField(minimum=1, help_text="Major units of the workspace currency.")


class LeadByDetailsSerializer(StrictSerializer):
    id = UUIDTextField(required=False, help_text="An existing lead's id.")
    name = serializers.CharField(required=False, max_length=200, allow_blank=True)
    email = serializers.EmailField(required=False, max_length=254)

    def validate(self, attrs):
        if "id" in attrs:
            extra = [name for name in ("name", "email") if name in attrs]
            if extra:
                raise serializers.ValidationError(
                    {extra[0]: ["Name the lead either by id, or by name and email, not both."]}
                )
        elif "email" not in attrs:
            raise serializers.ValidationError(
                {"email": ["Name the lead by id, or give its name and email."]}
            )
        return attrs


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "format": "uuid", "description": "An existing lead's id."},
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "format": "uuid"},
                    "name": {"type": "string", "maxLength": 200},
                    "email": {"type": "string", "format": "email"},
                },
                "additionalProperties": False,
                "description": '{"id"}, or {"name", "email"}: the lead with that email, '
                "else a new one.",
            },
        ]
    }
)
class LeadReferenceField(serializers.Field):
    """A lead's id (a string), or {"id"} or {"name", "email"}: found by email or created."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = {"id": data}
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'Give the lead\'s id, or an object {"name", "email"}.'
            )
        serializer = LeadByDetailsSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def to_representation(self, value):
        return value


class SaleFieldsMixin(serializers.Serializer):
    contract_value = MoneyField(
        minimum=1, required=False, help_text="The sale's full value, major units."
    )
    cash_collected = MoneyField(required=False, help_text="Paid today, major units; default 0.")
    payment_plan = serializers.ChoiceField(choices=Sale.PaymentPlan.choices, required=False)
    instalments = InstalmentSerializer(many=True, required=False)


def _check_sale_fields(attrs, *, sale_expected: bool, why: str) -> None:
    present = [name for name in SALE_FIELDS if name in attrs]
    if sale_expected:
        if "contract_value" not in attrs:
            raise serializers.ValidationError({"contract_value": ["Required for a sale."]})
    elif present:
        raise serializers.ValidationError({present[0]: [why]})


class PostCallFormSerializer(SaleFieldsMixin, StrictSerializer):
    submission_id = UUIDTextField(
        help_text="Chosen by the caller; a second filing with it answers the first answer."
    )
    call_id = UUIDTextField()
    attendance = serializers.ChoiceField(choices=Call.Attendance.choices)
    outcome = serializers.ChoiceField(
        choices=Outcome.Result.choices, required=False, help_text="Required when showed."
    )
    offer_made = StrictBooleanField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    draft_id = UUIDTextField(required=False, help_text="The draft this filing checks; it closes.")

    def validate(self, attrs):
        if self.context.get("draft"):
            return attrs
        if attrs["attendance"] == Call.Attendance.SHOWED:
            if "outcome" not in attrs:
                raise serializers.ValidationError({"outcome": ["Required when the lead showed."]})
        else:
            if "outcome" in attrs:
                raise serializers.ValidationError(
                    {"outcome": ["A no-show has no outcome; leave it out."]}
                )
            if attrs.get("offer_made"):
                raise serializers.ValidationError(
                    {"offer_made": ["No offer can be made to a lead who did not show."]}
                )
        _check_sale_fields(
            attrs,
            sale_expected=attrs.get("outcome") in SALE_OUTCOMES,
            why="Sale fields go only with an outcome of closed or deposit.",
        )
        return attrs


SALE_OUTCOMES = {Outcome.Result.CLOSED, Outcome.Result.DEPOSIT}


class PastCallFormSerializer(SaleFieldsMixin, StrictSerializer):
    submission_id = UUIDTextField()
    lead = LeadReferenceField(
        help_text='The lead\'s id, or {"name", "email"}: an existing lead with that email, '
        "else a new one."
    )
    occurred_at = AwareDateTimeField(help_text="When the call happened, with an offset.")
    attendance = serializers.ChoiceField(
        choices=Call.Attendance.choices,
        required=False,
        help_text="Always showed (a call that did not happen has nothing to file); may be left "
        "out.",
    )
    outcome = serializers.ChoiceField(choices=Outcome.Result.choices)
    offer_made = StrictBooleanField(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)
    notes = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    draft_id = UUIDTextField(required=False)

    def validate(self, attrs):
        if attrs.get("attendance", Call.Attendance.SHOWED) != Call.Attendance.SHOWED:
            raise serializers.ValidationError(
                {"attendance": ["A past call happened: attendance is showed, or leave it out."]}
            )
        if self.context.get("draft"):
            return attrs
        _check_sale_fields(
            attrs,
            sale_expected=attrs["outcome"] in SALE_OUTCOMES,
            why="Sale fields go only with an outcome of closed or deposit.",
        )
        return attrs


class DmCloseFormSerializer(SaleFieldsMixin, StrictSerializer):
    submission_id = UUIDTextField()
    lead = LeadReferenceField(
        help_text='The lead\'s id, or {"name", "email"}: an existing lead with that email, '
        "else a new one."
    )
    platform = serializers.CharField(
        max_length=40, help_text="Where the conversation happened, e.g. instagram."
    )
    closed_at = AwareDateTimeField(help_text="When the sale was agreed, with an offset.")
    draft_id = UUIDTextField(required=False)

    def validate(self, attrs):
        if self.context.get("draft"):
            return attrs
        _check_sale_fields(attrs, sale_expected=True, why="")
        return attrs


def _eod_member_problem(key, value) -> str | None:
    """Why one member of an end-of-day report cannot be kept, or None when it can."""
    if not EOD_KEY_PATTERN.match(str(key)):
        return "Name it in snake_case, at most 64 characters."
    if isinstance(value, bool) or value is None:
        return "Give a count (a whole number from 0) or a text."
    if isinstance(value, int) and not 0 <= value <= 10**9:
        return "A count is a whole number from 0."
    if isinstance(value, str) and len(value) > EOD_TEXT_MAX:
        return f"A text has at most {EOD_TEXT_MAX} characters."
    if isinstance(value, int | str):
        return None
    return "Give a count (a whole number from 0) or a text."


class EodFieldsField(serializers.DictField):
    """The report's own counts (whole numbers from 0) and text, by snake_case name."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError("Give an object of counts and text.")
        for key, value in data.items():
            problem = _eod_member_problem(key, value)
            if problem:
                raise serializers.ValidationError({key: [problem]})
        return dict(data)


class EodFormSerializer(StrictSerializer):
    submission_id = UUIDTextField(
        required=False, help_text="Optional; a second filing with it answers the first answer."
    )
    date = serializers.DateField(
        required=False, help_text="The local day in the workspace timezone; default today there."
    )
    fields = EodFieldsField(
        child=serializers.JSONField(),
        help_text='Counts and text, e.g. {"dials": 80, "conversations": 12, "notes": "..."}.',
    )
    draft_id = UUIDTextField(required=False)

    def validate_fields(self, fields):
        if not eod_fields_filled(fields):
            raise serializers.ValidationError(EMPTY_REPORT)
        return fields


FORM_SERIALIZERS = {
    Draft.Form.POST_CALL: PostCallFormSerializer,
    Draft.Form.PAST_CALL: PastCallFormSerializer,
    Draft.Form.DM_CLOSE: DmCloseFormSerializer,
    Draft.Form.EOD: EodFormSerializer,
}


class DraftFieldsSerializerMixin:
    """A draft's fields: the form's own members, none required, never money or identity."""

    excluded = {*SALE_FIELDS, "submission_id", "draft_id"}

    def get_fields(self):
        fields = super().get_fields()
        for name in self.excluded:
            fields.pop(name, None)
        for field in fields.values():
            field.required = False
        return fields


DRAFT_FIELD_SERIALIZERS = {
    form: type(f"Draft{serializer.__name__}", (DraftFieldsSerializerMixin, serializer), {})
    for form, serializer in FORM_SERIALIZERS.items()
}


class DraftCreateSerializer(StrictSerializer):
    form = serializers.ChoiceField(choices=Draft.Form.choices)
    member_id = UUIDTextField(
        required=False,
        help_text="The member who must check and file it; required with an API token, "
        "defaults to the signed-in member with a session token.",
    )
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="The form's members, any may be left out; never money.",
    )


class ChangeCreateSerializer(StrictSerializer):
    effective_at = AwareDateTimeField(help_text="When the change took effect, with an offset.")
    kind = serializers.ChoiceField(choices=ChangeLogEntry.Kind.choices)
    title = serializers.CharField(max_length=200)
    what = serializers.CharField(max_length=5000, help_text="What changed.")
    why = serializers.CharField(
        max_length=5000, required=False, allow_blank=True, help_text="Why it changed."
    )


# --- Ad spend ----------------------------------------------------------------------------


class CountField(serializers.IntegerField):
    """A whole number of zero or more given as a JSON number (not a string, not true)."""

    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=COUNT_MAX, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("Give a whole number of zero or more.")
        return super().to_internal_value(data)


class CurrencyField(serializers.CharField):
    """The workspace's currency code, if given at all: another one is refused."""

    def to_internal_value(self, data):
        code = super().to_internal_value(data)
        currency = self.context.get("currency")
        if currency is not None and code.strip().upper() != currency:
            raise serializers.ValidationError(
                f"This workspace keeps {currency}; spend in {code} is refused."
            )
        return code


def _utm(name: str) -> serializers.CharField:
    return serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text=f"The {name} value the ads carry; absent or null: none.",
    )


class AdSpendWriteSerializer(StrictSerializer):
    id = serializers.CharField(
        max_length=200,
        help_text="The record's own id (the platform's): writing the same id "
        "again replaces the record.",
    )
    date = serializers.DateField(
        input_formats=["%Y-%m-%d"],
        help_text="The day the money was spent (YYYY-MM-DD), a day of the workspace's timezone.",
    )
    platform = serializers.RegexField(
        r"^[a-z0-9_-]{1,32}$",
        max_length=32,
        help_text="meta, google, or any key of 1 to 32 lowercase letters, digits, '_' or '-'.",
        error_messages={
            "invalid": "Give a key of 1 to 32 lowercase letters, digits, '_' or "
            "'-' (meta, google, tiktok)."
        },
    )
    utm_source = _utm("utm_source")
    utm_medium = _utm("utm_medium")
    utm_campaign = _utm("utm_campaign")
    utm_content = _utm("utm_content")
    campaign_id = serializers.CharField(
        max_length=200, required=False, allow_null=True, allow_blank=True
    )
    campaign_name = serializers.CharField(
        max_length=200, required=False, allow_null=True, allow_blank=True
    )
    impressions = CountField(required=False, allow_null=True)
    clicks = CountField(required=False, allow_null=True)
    amount = MoneyField(help_text="Major units of the workspace currency, zero or more.")
    currency = CurrencyField(
        required=False, help_text="The workspace's currency, if given; another is refused."
    )

    def validate_id(self, value):
        if not value.strip():
            raise serializers.ValidationError("Give the record's own id.")
        return value


# --- Answers -----------------------------------------------------------------------------


class ActorSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="workspace_token, agency_token or member.")
    id = serializers.CharField()
    label = serializers.CharField()


class ChangeEntrySerializer(serializers.Serializer):
    id = UUIDTextField()
    workspace_id = UUIDTextField()
    effective_at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=ChangeLogEntry.Kind.choices)
    title = serializers.CharField()
    what = serializers.CharField()
    why = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    def get_created_by(self, entry) -> ActorSerializer:
        return {
            "kind": entry.created_by_kind,
            "id": entry.created_by_id,
            "label": entry.created_by_label,
        }


class PeriodSerializer(serializers.Serializer):
    # "from" is a keyword: the field is declared below.
    to = serializers.DateField()
    timezone = serializers.CharField()

    def get_fields(self):
        fields = super().get_fields()
        return {"from": serializers.DateField(), **fields}


class ChangeListSerializer(serializers.Serializer):
    period = PeriodSerializer()
    changes = ChangeEntrySerializer(many=True)


class DraftSerializer(serializers.Serializer):
    id = UUIDTextField()
    form = serializers.ChoiceField(choices=Draft.Form.choices)
    member_id = UUIDTextField()
    fields = serializers.DictField(child=serializers.JSONField())
    status = serializers.ChoiceField(choices=Draft.Status.choices)
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    def get_created_by(self, draft) -> ActorSerializer:
        return {
            "kind": draft.created_by_kind,
            "id": draft.created_by_id,
            "label": draft.created_by_label,
        }


class DraftListSerializer(serializers.Serializer):
    drafts = DraftSerializer(many=True)


class DisplaySerializer(serializers.Serializer):
    workspace_id = UUIDTextField()
    name = serializers.CharField()
    logo = serializers.CharField(help_text="Address of the logo image, or empty.")
    colours = serializers.DictField(child=serializers.JSONField())
    labels = serializers.DictField(
        child=serializers.JSONField(), help_text="Overrides of labels, by metric id or name."
    )
    modules = serializers.ListField(child=serializers.CharField())
    programmes = serializers.ListField(child=serializers.JSONField())
    currency = serializers.CharField(help_text="ISO 4217 code.")
    timezone = serializers.CharField(help_text="IANA timezone of the workspace.")


class WorkspaceItemSerializer(serializers.Serializer):
    id = UUIDTextField()
    name = serializers.CharField()
    slug = serializers.CharField()
    currency = serializers.CharField()
    timezone = serializers.CharField()


class WorkspaceListSerializer(serializers.Serializer):
    workspaces = WorkspaceItemSerializer(many=True)


class InstalmentAnswerSerializer(serializers.Serializer):
    due_date = serializers.DateField()
    amount = serializers.FloatField(help_text="Major units.")


class SaleAnswerSerializer(serializers.Serializer):
    id = UUIDTextField()
    origin = serializers.ChoiceField(choices=Sale.Origin.choices)
    lead_id = UUIDTextField()
    call_id = UUIDTextField(allow_null=True)
    closer_id = UUIDTextField(allow_null=True)
    setter_id = UUIDTextField(allow_null=True)
    closed_at = serializers.DateTimeField()
    currency = serializers.CharField()
    contract_value = serializers.FloatField(help_text="Major units.")
    cash_collected = serializers.FloatField(help_text="Major units; a succeeded payment.")
    payment_id = UUIDTextField(allow_null=True)
    payment_plan = serializers.CharField(allow_blank=True)
    instalments = InstalmentAnswerSerializer(many=True)


class OutcomeAnswerSerializer(serializers.Serializer):
    id = UUIDTextField()
    result = serializers.CharField(help_text="closed, deposit, follow_up, no_sale or disqualified.")
    offer_made = serializers.BooleanField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()


class CallAnswerSerializer(serializers.Serializer):
    id = UUIDTextField()
    attendance = serializers.ChoiceField(choices=Call.Attendance.choices)
    offer_made = serializers.BooleanField(allow_null=True)
    outcome = serializers.CharField(allow_blank=True, help_text="Its latest outcome's result.")


class LeadAnswerSerializer(serializers.Serializer):
    id = UUIDTextField()
    name = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    created = serializers.BooleanField(help_text="True when this filing created the lead.")


class FormAnswerSerializer(serializers.Serializer):
    form = serializers.ChoiceField(choices=Draft.Form.choices)
    submission_id = UUIDTextField(allow_null=True)
    member_id = UUIDTextField()
    filed_at = serializers.DateTimeField()
    draft_id = UUIDTextField(allow_null=True)


class PostCallAnswerSerializer(FormAnswerSerializer):
    call = CallAnswerSerializer()
    outcome = OutcomeAnswerSerializer(allow_null=True)
    sale = SaleAnswerSerializer(allow_null=True)


class PastCallAnswerSerializer(FormAnswerSerializer):
    lead = LeadAnswerSerializer()
    outcome = OutcomeAnswerSerializer()
    sale = SaleAnswerSerializer(allow_null=True)


class DmCloseAnswerSerializer(FormAnswerSerializer):
    lead = LeadAnswerSerializer()
    platform = serializers.CharField()
    sale = SaleAnswerSerializer()


class EodReportAnswerSerializer(serializers.Serializer):
    id = UUIDTextField()
    date = serializers.DateField()
    submitted_at = serializers.DateTimeField()
    fields = serializers.DictField(child=serializers.JSONField())


class EodAnswerSerializer(FormAnswerSerializer):
    edited = serializers.BooleanField(
        help_text="True when this filing edited the day's earlier report."
    )
    report = EodReportAnswerSerializer()


# --- Goals ---------------------------------------------------------------------------------

GOALS_MAX = 1000


@extend_schema_field(
    {
        "type": "number",
        "minimum": 0,
        "description": "A count: a whole number of zero or more. Money (payments.* metrics): "
        "major units of the workspace currency, zero or more.",
    }
)
class GoalTargetField(serializers.Field):
    """The target as sent; GoalItemSerializer reads it by the item's metric."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float | str):
            raise serializers.ValidationError("Give the target as a number.")
        return data


class GoalItemSerializer(StrictSerializer):
    metric = serializers.ChoiceField(choices=Goal.Metric.choices)
    member = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="A member's id; absent or null: a goal of the whole workspace.",
    )
    target = GoalTargetField()

    def validate(self, attrs):
        target = attrs["target"]
        if attrs["metric"] in MONEY_METRICS:
            exponent = self.context.get("exponent", 2)
            currency = self.context.get("currency", "the workspace currency")
            try:
                attrs["target"] = minor_from_major(target, exponent=exponent)
            except MoneyInvalid as error:
                message = (
                    "The target is too large."
                    if error.code == "too_large"
                    else f"Give an amount of zero or more in major units of {currency}, with "
                    f"at most {exponent} decimals."
                )
                raise serializers.ValidationError({"target": [message]}) from None
            return attrs
        whole = (
            target
            if isinstance(target, int)
            else int(target)
            if isinstance(target, float) and target.is_integer()
            else None
        )
        if whole is None or whole < 0:
            raise serializers.ValidationError(
                {"target": ["Give a whole number of zero or more: a count cannot be fractional."]}
            )
        if whole > GOAL_TARGET_MAX:
            raise serializers.ValidationError({"target": ["The target is too large."]})
        attrs["target"] = whole
        return attrs


class GoalsReplaceSerializer(StrictSerializer):
    goals = GoalItemSerializer(
        many=True,
        allow_empty=True,
        max_length=GOALS_MAX,
        help_text="The month's goals: each metric at most once for the workspace and once per "
        "member. An empty list removes the month's goals.",
    )


def money_context(workspace) -> dict:
    return {"exponent": workspace.currency_exponent, "currency": workspace.currency}


# --- The descriptions' error answers and examples ---------------------------------------

AgentErrorSerializer = ErrorSerializer

_STATUS_TEXT = {
    400: "A parameter or body member cannot be used; `field` names it.",
    401: "No token, a token not of this service, revoked or expired; or an agency token on "
    "a route it does not reach.",
    403: "Refused: see error.reason.",
    404: "No such id in this workspace (another workspace's ids are not found either).",
    409: "A write with this Idempotency-Key is still running.",
    422: "The Idempotency-Key was used for a different request.",
}

_EXAMPLES = {
    400: [
        error_example(
            "invalid_field",
            "invalid_field",
            "instalments.0.amount: Give an amount in major units of USD with at most 2 "
            "decimals, as a string or a number, e.g. '1234.55'.",
            field="instalments.0.amount",
        ),
        error_example(
            "refused.idempotency_key_required",
            "refused.idempotency_key_required",
            "Every write needs an Idempotency-Key header (8 to 200 characters, unique to the "
            "write).",
            field="Idempotency-Key",
        ),
    ],
    401: [
        error_example(
            "unauthenticated",
            "unauthenticated",
            "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
        )
    ],
    403: [
        error_example(
            "refused.drafts_only",
            "refused.drafts_only",
            "API tokens never file sales records: a member files this with their own session "
            "token. An API token may propose a draft instead (POST /api/v1/forms/drafts).",
        ),
        error_example(
            "refused.member_scope",
            "refused.member_scope",
            "A closer reads only their own board and drafts, nothing workspace-wide.",
        ),
        error_example(
            "insufficient_scope",
            "insufficient_scope",
            "This token lacks the data:write scope.",
            requiredScope="data:write",
        ),
    ],
    404: [error_example("not_found", "not_found", "Nothing with that id exists here.")],
    409: [
        error_example(
            "refused.idempotency_in_progress",
            "refused.idempotency_in_progress",
            "A write with this Idempotency-Key is still running; retry in a moment.",
        )
    ],
    422: [
        error_example(
            "refused.idempotency_key_reused",
            "refused.idempotency_key_reused",
            "This Idempotency-Key was used for a different request; use a new key.",
        )
    ],
}


_BODY_EXAMPLES = [
    error_example(
        "invalid_body",
        "invalid_body",
        "The body is larger than the limit of 1 MiB (1048576 bytes); send less at once.",
        field="body",
    ),
    error_example(
        "invalid_field (NUL)",
        "invalid_field",
        "fields.notes holds a NUL character (\\u0000); remove it.",
        field="fields.notes",
    ),
]


_CATALOGUE = {status: (text, _EXAMPLES.get(status, [])) for status, text in _STATUS_TEXT.items()}


def errors(*statuses, extra: dict | None = None) -> dict:
    """The error answers of a route, with examples; extra adds or replaces examples."""
    # Every write, and only a write, may answer 422 for a reused Idempotency-Key.
    body_examples = _BODY_EXAMPLES if 422 in statuses else None
    return error_responses(
        AgentErrorSerializer, _CATALOGUE, statuses, body_examples=body_examples, extra=extra
    )


READ_ERRORS = (400, 401, 403)
WRITE_ERRORS = (400, 401, 403, 409, 422)


def request_example(name: str, value: dict, summary: str = "") -> OpenApiExample:
    return OpenApiExample(name, value=value, summary=summary or name, request_only=True)


def response_example(name: str, value: dict, status: int = 200) -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[str(status)])
