"""The agency API's bodies and answers, one serializer each: the same classes parse a
request body and describe it in the served OpenAPI description, so the two cannot drift.
Bodies are strict: an unknown member is refused naming it, text is a JSON string (never a
number), and each error names its member with a dotted path (`team.2.email`) through
core.input.validated, the one converter to `invalid_field`. Length
limits are checked by the fields themselves rather than by validators, so the
description shows every field as it always has.
"""

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField, empty
from rest_framework.settings import api_settings

from core import openapi
from core.emails import email_normalise
from core.errors import InvalidField
from core.input import validated
from core.openapi import ErrorSerializer, error_example
from integrations.providers import PROVIDERS
from tokens.services import redirect_uri_check
from workspaces.models import Member
from workspaces.validators import logo_url, origin_normalise

KEY_PATTERN = re.compile(r"[a-z0-9-]{1,64}")
SLUG_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")

STATES = ["drafted", "waiting_for_approval", "approved", "refused", "applied"]
INTEGRATION_KEYS = list(PROVIDERS)
ROLES = Member.Role.values
NOT_TEXT = "must be a non-empty string."
NOT_A_LIST = {"not_a_list": "must be a JSON array."}


def body_parse(serializer_class, data) -> dict:
    """The body as the serializer cleans it, or a 400 invalid_field naming the member."""
    if not isinstance(data, dict):
        raise InvalidField("body", "The body must be a JSON object.")
    return dict(validated(serializer_class, data))


def blueprint_key_parse(key: str) -> str:
    if not KEY_PATTERN.fullmatch(key or ""):
        raise InvalidField("key", "A blueprint key is 1 to 64 of a-z, 0-9 and '-'.")
    return key


# --- Fields ------------------------------------------------------------------------------


class TextField(serializers.CharField):
    """A non-empty JSON string, trimmed, of at most max_chars characters (max_length, when
    declared for the description, or 200)."""

    default_error_messages = {
        "invalid": NOT_TEXT,
        "blank": NOT_TEXT,
        "null": NOT_TEXT,
        "required": NOT_TEXT,
        "too_long": "has at most {max_chars} characters.",
    }

    def __init__(self, *, max_chars: int | None = None, **kwargs):
        self.max_chars = max_chars or kwargs.get("max_length") or 200
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str) or not data.strip():
            self.fail("invalid")
        value = data.strip()
        if len(value) > self.max_chars:
            self.fail("too_long", max_chars=self.max_chars)
        return value


class MapTextField(serializers.CharField):
    """Any JSON string, blank included, kept as sent (a value of colours or labels)."""

    default_error_messages = {"invalid": "must be a string."}

    def run_validation(self, data=empty):
        if not isinstance(data, str):
            self.fail("invalid")
        return data


class EmailAddressField(serializers.EmailField):
    """An email address, kept in the one form of core.emails (case-folded, NFKC)."""

    default_error_messages = {
        **TextField.default_error_messages,
        "invalid": "is not an email address.",
        "not_text": NOT_TEXT,
        "too_long": "has at most 254 characters.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_text")
        value = data.strip()
        if len(value) > 254:
            self.fail("too_long")
        return email_normalise(value)


class BlueprintKeyField(serializers.CharField):
    """A blueprint key, or null for none."""

    default_error_messages = {"invalid": "is a blueprint key: [a-z0-9-], 1 to 64."}

    def run_validation(self, data=empty):
        if data is None or data is empty:
            return None
        if not isinstance(data, str) or not KEY_PATTERN.fullmatch(data):
            self.fail("invalid")
        return data


class WorkingDaysField(serializers.ListField):
    """Weekday numbers, checked as one member: a bad day names the list, not the day."""

    default_error_messages = {
        "days": "lists weekday numbers, 0 (Monday) to 6 (Sunday), at least one.",
        "null": "lists weekday numbers, 0 (Monday) to 6 (Sunday), at least one.",
    }

    def run_validation(self, data=empty):
        (is_empty, data) = self.validate_empty_values(data)
        if is_empty:
            return data
        if (
            not isinstance(data, list)
            or not data
            or any(
                not isinstance(day, int) or isinstance(day, bool) or not 0 <= day <= 6
                for day in data
            )
        ):
            self.fail("days")
        return sorted(set(data))


def _rule_error(rule, value, field: str):
    try:
        return rule(value, field=field)
    except InvalidField as error:
        raise serializers.ValidationError(error.message) from None


class _SettingsRuleMixin:
    """A field checked by a rule of the settings page (``rule``, its value named
    ``rule_name`` in the message) in place of the field's own validators; an empty value
    is kept as the field allows it."""

    rule = None
    rule_name = ""

    def run_validation(self, data=empty):
        (is_empty, data) = self.validate_empty_values(data)
        if is_empty:
            return data
        return _rule_error(type(self).rule, data, self.rule_name)


class LogoField(_SettingsRuleMixin, serializers.CharField):
    """The rule of the settings page: an https URL, or empty for none."""

    rule = staticmethod(logo_url)
    rule_name = "The logo"


class OriginField(serializers.CharField):
    """One origin, normalised as the settings page does (workspaces.validators)."""

    def run_validation(self, data=empty):
        return _rule_error(origin_normalise, data, "The origin")


class OriginListField(serializers.ListField):
    """The origins, normalised, each once."""

    def to_internal_value(self, data):
        return list(dict.fromkeys(super().to_internal_value(data)))


class RedirectUriField(_SettingsRuleMixin, serializers.URLField):
    """The rule of the settings page's redirect URIs: exact, and https in production."""

    rule = staticmethod(redirect_uri_check)
    rule_name = "The redirect URI"


class PriceField(serializers.DecimalField):
    """A decimal amount, zero or more, kept as written (the plan checks its decimals against
    the workspace's currency)."""

    default_error_messages = {
        "invalid": "must be a decimal amount.",
        "null": "must be a decimal amount.",
        "required": "must be a decimal amount.",
        "negative": "must be zero or more.",
    }

    def run_validation(self, data=empty):
        (is_empty, data) = self.validate_empty_values(data)
        if is_empty:
            return data
        if isinstance(data, bool) or not isinstance(data, str | int | float):
            self.fail("invalid")
        try:
            amount = Decimal(str(data).strip())
        except InvalidOperation:
            self.fail("invalid")
        if not amount.is_finite() or amount < 0:
            self.fail("negative")
        return str(amount)

    def to_representation(self, value):
        return value


class WorkspaceIdField(serializers.UUIDField):
    """A workspace's id: any text up to 64 characters is taken, and one that names none of
    the agency's workspaces is a blocked change of the plan, not a 400."""

    default_error_messages = TextField.default_error_messages

    def to_internal_value(self, data):
        if not isinstance(data, str) or not data.strip():
            self.fail("invalid")
        value = data.strip()
        if len(value) > 64:
            self.fail("too_long", max_chars=64)
        return value


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number, never a string or a fraction that looks like one."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return data


class IntegrationKeyField(serializers.ChoiceField):
    default_error_messages = {
        "invalid_choice": "Unknown integration {input!r}; choose from "
        + ", ".join(INTEGRATION_KEYS)
        + ".",
        "not_text": NOT_TEXT,
    }

    def to_internal_value(self, data):
        if not isinstance(data, str) or not data.strip():
            self.fail("not_text")
        return super().to_internal_value(data.strip())


# --- Bodies -------------------------------------------------------------------------------


# An object whose unknown members are refused by name. `members` lists the known members,
# in the order they are named in the message and in which a body's problems are reported
# (the first is the one answered); `refused` maps a member to the message that refuses it.
# (Comments, not docstrings, on serializers: a docstring would become the description.)
class StrictBodySerializer(serializers.Serializer):
    members: tuple[str, ...] = ()
    refused: dict[str, str] = {}

    def to_internal_value(self, data):
        if not isinstance(data, Mapping):
            raise serializers.ValidationError(
                {api_settings.NON_FIELD_ERRORS_KEY: ["must be a JSON object."]}
            )
        members = self.members or tuple(self.fields)
        for name in data:
            if name in self.refused:
                raise serializers.ValidationError({name: [self.refused[name]]})
        for name in data:
            if name not in members:
                raise serializers.ValidationError(
                    {
                        str(name): [
                            f"Unknown member {name!r}; the known members are {', '.join(members)}."
                        ]
                    }
                )
        try:
            return dict(super().to_internal_value(data))
        except serializers.ValidationError as error:
            if isinstance(error.detail, dict):
                order = {name: index for index, name in enumerate(members)}
                error.detail = dict(
                    sorted(error.detail.items(), key=lambda item: order.get(item[0], len(order)))
                )
            raise


# {"id"} names one of the agency's workspaces; the other members create one.
class PlanWorkspaceSerializer(StrictBodySerializer):
    members = ("name", "slug", "currency", "timezone")

    id = WorkspaceIdField(required=False, help_text="To change one of the agency's.")
    name = TextField(required=False)
    slug = TextField(max_chars=64, required=False)
    currency = TextField(max_chars=3, required=False, help_text="ISO 4217.")
    timezone = TextField(max_chars=64, required=False, help_text="IANA; default UTC.")

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and "id" in data:
            for name in data:
                if name != "id":
                    raise serializers.ValidationError(
                        {str(name): [f"Unknown member {name!r}; the known members are id."]}
                    )
            try:
                return {"id": self.fields["id"].run_validation(data["id"])}
            except serializers.ValidationError as error:
                raise serializers.ValidationError({"id": error.detail}) from None
        if isinstance(data, Mapping) and not data.get("timezone"):
            data = {**data, "timezone": "UTC"}
        value = super().to_internal_value(data)
        if "slug" in value and not SLUG_PATTERN.fullmatch(value["slug"]):
            raise serializers.ValidationError(
                {
                    "slug": [
                        "is 1 to 64 lowercase letters, digits and hyphens, not starting or "
                        "ending with a hyphen."
                    ]
                }
            )
        for name in ("slug", "name", "currency"):
            if name not in value:
                raise serializers.ValidationError({name: [NOT_TEXT]})
        return {
            "name": value["name"],
            "slug": value["slug"],
            "currency": value["currency"].upper(),
            "timezone": value["timezone"],
        }


class PlanSettingsSerializer(StrictBodySerializer):
    name = TextField(required=False)
    timezone = TextField(max_chars=64, required=False)
    working_days = WorkingDaysField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        min_length=1,
        required=False,
        help_text="Weekday numbers, 0 (Monday) to 6 (Sunday).",
    )
    logo = LogoField(required=False, help_text="An https URL of the logo image, or empty for none.")
    colours = serializers.DictField(child=MapTextField(), required=False)
    labels = serializers.DictField(child=MapTextField(), required=False)
    modules = serializers.ListField(
        child=TextField(max_chars=64), required=False, error_messages=NOT_A_LIST
    )
    embedded_origins = OriginListField(
        child=OriginField(),
        required=False,
        error_messages=NOT_A_LIST,
        help_text="Origins of the embedded apps, as the settings page takes them: "
        "https://host[:port] (http on localhost or 127.0.0.1 only), no path; kept with the "
        "host in lowercase and without a trailing slash or default port.",
    )
    embedded_redirect_uri = RedirectUriField(required=False)


class PlanTeamMemberSerializer(StrictBodySerializer):
    email = EmailAddressField()
    name = TextField()
    role = serializers.ChoiceField(
        choices=ROLES,
        error_messages={
            key: f"must be one of {', '.join(ROLES)}."
            for key in ("invalid_choice", "required", "null")
        },
    )


class PlanProgrammeSerializer(StrictBodySerializer):
    name = TextField()
    price = PriceField(20, 3, min_value=0, help_text="Major units of the workspace currency.")


SHAPE_DEFAULTS = {"settings": dict, "team": list, "programmes": list, "integrations": list}


# The members a plan and a blueprint share; each absent one is empty.
class _ShapeSerializer(StrictBodySerializer):
    settings = PlanSettingsSerializer(required=False)
    team = PlanTeamMemberSerializer(many=True, required=False, error_messages=NOT_A_LIST)
    programmes = PlanProgrammeSerializer(many=True, required=False, error_messages=NOT_A_LIST)
    integrations = serializers.ListField(
        child=TextField(max_length=40),
        required=False,
        error_messages=NOT_A_LIST,
        help_text="Integration keys to connect: " + ", ".join(INTEGRATION_KEYS) + ". Any other "
        "key is kept as asked, and a plan lists it as a blocked change (code integration_unknown).",
    )

    def validate_team(self, team):
        limit = settings.PLAN_TEAM_MAX
        if len(team) > limit:
            raise serializers.ValidationError(
                f"A plan's team lists at most {limit} people; this one lists {len(team)}. "
                "Split it into several plans."
            )
        return team

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        for name, make_empty in SHAPE_DEFAULTS.items():
            value.setdefault(name, make_empty())
        return value


class PlanBodySerializer(_ShapeSerializer):
    members = ("blueprint", "workspace", "settings", "team", "programmes", "integrations")

    blueprint = BlueprintKeyField(required=False, help_text="A blueprint key to start from.")
    workspace = PlanWorkspaceSerializer(
        error_messages={
            # Braces doubled: DRF formats its error messages.
            "required": "Name the workspace: {{'id': ...}} to change one of the agency's "
            "workspaces, or {{'name', 'slug', 'currency', 'timezone'}} to create one."
        }
    )

    def to_internal_value(self, data):
        return {"blueprint": None} | super().to_internal_value(data)


class BlueprintBodySerializer(_ShapeSerializer):
    members = ("name", "settings", "team", "programmes", "integrations")
    refused = {"workspace": "A blueprint has no workspace: the plan names it."}

    name = TextField()


class ConnectLinkBodySerializer(StrictBodySerializer):
    integrations = serializers.ListField(
        child=IntegrationKeyField(choices=INTEGRATION_KEYS),
        min_length=1,
        error_messages={**NOT_A_LIST, "min_length": "Offer at least one integration."},
    )
    expires_in_hours = StrictIntegerField(
        min_value=1,
        max_value=720,
        default=72,
        error_messages={
            key: "is a whole number, 1 to 720." for key in ("invalid", "min_value", "max_value")
        },
    )

    def validate_integrations(self, value):
        return list(dict.fromkeys(value))


# --- Answers -----------------------------------------------------------------------------


class PlanChangeSerializer(serializers.Serializer):
    op = serializers.ChoiceField(
        choices=[
            "workspace.create",
            "workspace.update",
            "settings.update",
            "member.add",
            "programme.add",
            "programme.update",
            "integration.connect",
        ]
    )
    target = serializers.CharField()
    detail = serializers.DictField()
    status = serializers.ChoiceField(
        choices=["ready", "blocked", "applied"],
        help_text="ready or blocked while the plan is not applied; applied or blocked once it is.",
    )
    reason = serializers.CharField(required=False, help_text="Why the change is blocked.")
    code = serializers.CharField(required=False, help_text="The same, as a stable code.")


class PlanMemberSerializer(serializers.Serializer):
    member_id = serializers.UUIDField()
    email = serializers.EmailField()
    role = serializers.CharField()


class PlanMemberTokenSerializer(PlanMemberSerializer):
    token = serializers.CharField(help_text="A member session token, valid 30 days.")


INVITED_HELP = (
    "Team emails invited by email rather than made members: every team entry of a plan on a "
    "workspace that already exists, and any email that already has an account in the "
    "service. None is given a token; each person becomes a member with the role only when "
    "they accept the emailed invitation. On a workspace that already exists the invitation "
    "is first proposed: it is mailed only once an owner of the workspace approves it."
)


class PlanInvitedSerializer(serializers.Serializer):
    email = serializers.EmailField()
    role = serializers.CharField()


class PlanConnectLinkSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    integrations = serializers.ListField(child=serializers.CharField())
    expires_at = serializers.DateTimeField()


class PlanConnectLinkWithUrlSerializer(PlanConnectLinkSerializer):
    url = serializers.URLField(help_text="Shown in this answer only.")


class StoredUUIDField(serializers.UUIDField):
    """Left out of the answer when the stored result has no such member (a drafted plan's
    has no workspace_id); null when it holds null."""

    def get_attribute(self, instance):
        if self.field_name not in instance:
            raise SkipField()
        return super().get_attribute(instance)


class KeyOrNullField(serializers.CharField):
    """A key stored blank when there is none, answered as null."""

    def to_representation(self, value):
        return value or None


class PlanResultSerializer(serializers.Serializer):
    changes = PlanChangeSerializer(many=True)
    workspace_id = StoredUUIDField(required=False, allow_null=True)
    members = PlanMemberSerializer(many=True, required=False)
    invited = PlanInvitedSerializer(
        many=True,
        required=False,
        help_text=INVITED_HELP,
    )
    connect_links = PlanConnectLinkSerializer(many=True, required=False)


class PlanAppliedResultSerializer(serializers.Serializer):
    changes = PlanChangeSerializer(many=True)
    workspace_id = serializers.UUIDField(allow_null=True)
    members = PlanMemberSerializer(many=True)
    member_tokens = PlanMemberTokenSerializer(many=True)
    invited = PlanInvitedSerializer(many=True, help_text=INVITED_HELP)
    connect_links = PlanConnectLinkWithUrlSerializer(many=True)


# A plan as any read shows it: never a token nor a link's URL.
class PlanSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    state = serializers.ChoiceField(choices=STATES)
    blueprint = KeyOrNullField(allow_null=True, source="blueprint_key")
    refused_reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    applied_at = serializers.DateTimeField(allow_null=True)
    result = PlanResultSerializer()


# The apply's answer, from an agency.apply.AppliedPlan: the plan, with the member tokens
# and link URLs shown in this answer only.
class PlanAppliedSerializer(PlanSerializer):
    result = PlanAppliedResultSerializer()


class BlueprintSerializer(BlueprintBodySerializer):
    key = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class BlueprintListSerializer(serializers.Serializer):
    blueprints = BlueprintSerializer(many=True)


class AgencyWorkspaceSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    slug = serializers.CharField()
    currency = serializers.CharField()
    status = serializers.ChoiceField(choices=["active"])
    created_at = serializers.DateTimeField()


class AgencyWorkspaceListSerializer(serializers.Serializer):
    workspaces = AgencyWorkspaceSerializer(many=True)


# A pattern rather than an enum: the plan's "state" enum already owns that name.
@extend_schema_field(
    {
        "type": "string",
        "pattern": "^(offered|connected|failing|disconnected)$",
        "description": "offered (not connected through this link yet), or the state of the "
        "connection the link made: connected, failing (a call to the provider failed; "
        "webhooks are still accepted) or disconnected.",
    }
)
class IntegrationStateField(serializers.CharField):
    pass


class ConnectLinkIntegrationSerializer(serializers.Serializer):
    key = serializers.CharField()
    state = IntegrationStateField()
    connection_id = serializers.UUIDField(
        required=False, help_text="Once connected: the connection the link made."
    )
    webhook_url = serializers.URLField(
        required=False,
        help_text="Once connected, for a provider that sends webhooks (not the ad platforms, "
        "which are read on a schedule): the connection's own webhook endpoint, "
        "{BASE_URL}/hooks/{key}/{connection_id}, to paste at the provider.",
    )


class ConnectLinkCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.URLField(help_text="Shown in this answer only; never again.")
    expires_at = serializers.DateTimeField()
    integrations = ConnectLinkIntegrationSerializer(many=True)


class ConnectLinkStateSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    workspace_id = serializers.UUIDField()
    expires_at = serializers.DateTimeField()
    expired = serializers.BooleanField()
    revoked = serializers.BooleanField()
    completed = serializers.BooleanField()
    integrations = ConnectLinkIntegrationSerializer(many=True)


class EmptyBodySerializer(serializers.Serializer):
    pass


AgencyErrorSerializer = ErrorSerializer


# The examples a write's 400 shows beside core.openapi.BODY_LIMITS_TEXT.
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
        "team.0.name holds a NUL character (\\u0000); remove it.",
        field="team.0.name",
    ),
]


def error_responses(*codes: int, scope: str = "read", approval: bool = False) -> dict:
    """The error answers of an agency route, with examples; scope (and approval) name what
    the 403's scope.missing example lacks."""
    catalogue = {
        400: (
            "A body member or the Idempotency-Key cannot be used; `field` names it.",
            [
                error_example(
                    "invalid_field",
                    "invalid_field",
                    "Unknown member 'colour'; the known members are ...",
                    field="colour",
                ),
                error_example(
                    "refused.idempotency_key_required",
                    "refused.idempotency_key_required",
                    "Every write needs an Idempotency-Key header.",
                    field="Idempotency-Key",
                ),
            ],
        ),
        401: (
            "No token, not a token of this service, or revoked.",
            [
                error_example(
                    "unauthenticated",
                    "unauthenticated",
                    "Send a valid token in the Authorization header.",
                )
            ],
        ),
        402: (
            "The agency is not on the Agency plan or above.",
            [
                error_example(
                    "tier.upgrade_required",
                    "tier.upgrade_required",
                    "This needs the Agency plan or above.",
                )
            ],
        ),
        403: (
            "token.not_agency, scope.missing (with requiredScope), or refused.token_in_browser.",
            [
                error_example(
                    "token.not_agency",
                    "token.not_agency",
                    "This route needs an agency token (agy_...).",
                ),
                error_example(
                    "scope.missing",
                    "scope.missing",
                    f"This agency token lacks the {scope} scope.",
                    requiredScope=scope,
                    **({"approval": "request"} if approval else {}),
                ),
            ],
        ),
        404: (
            "No such id or key in this agency.",
            [error_example("not_found", "not_found", "No plan has that id.")],
        ),
        409: (
            "refused.idempotency_in_progress, or refused.plan_state.",
            [
                error_example(
                    "refused.idempotency_in_progress",
                    "refused.idempotency_in_progress",
                    "A write with this Idempotency-Key is still running.",
                ),
                error_example(
                    "refused.plan_state",
                    "refused.plan_state",
                    "A plan that is applied cannot be applied.",
                ),
            ],
        ),
        422: (
            "The Idempotency-Key was used for a different request.",
            [
                error_example(
                    "refused.idempotency_key_reused",
                    "refused.idempotency_key_reused",
                    "This Idempotency-Key was used for a different request.",
                )
            ],
        ),
    }
    # Every write, and only a write, reads a body (and may answer 422 for a reused key).
    body_examples = _BODY_EXAMPLES if 422 in codes else None
    return openapi.error_responses(
        AgencyErrorSerializer, catalogue, codes, body_examples=body_examples
    )
