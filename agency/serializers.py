"""Request bodies of the agency API (parsed by hand, so every 400 names its dotted field)
and the answer shapes, as the served OpenAPI description shows them."""

import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema_field
from rest_framework import serializers

from core.errors import InvalidField
from tokens.services import redirect_uri_check
from workspaces.models import Member
from workspaces.validators import logo_url, origin_normalise

KEY_PATTERN = re.compile(r"[a-z0-9-]{1,64}")
SLUG_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")

PLAN_MEMBERS = ("blueprint", "workspace", "settings", "team", "programmes", "integrations")
BLUEPRINT_MEMBERS = ("name", "settings", "team", "programmes", "integrations")
NEW_WORKSPACE_MEMBERS = ("name", "slug", "currency", "timezone")
TEAM_MEMBERS = ("email", "name", "role")
PROGRAMME_MEMBERS = ("name", "price")
CONNECT_LINK_MEMBERS = ("integrations", "expires_in_hours")
SETTINGS_MEMBERS = (
    "name",
    "timezone",
    "working_days",
    "logo",
    "colours",
    "labels",
    "modules",
    "embedded_origins",
    "embedded_redirect_uri",
)


def _object(value, field: str) -> dict:
    if not isinstance(value, dict):
        raise InvalidField(field or "body", f"{field or 'The body'} must be a JSON object.")
    return value


def _no_unknown(value: dict, allowed, prefix: str = "") -> None:
    for name in value:
        if name not in allowed:
            field = f"{prefix}.{name}" if prefix else str(name)
            raise InvalidField(
                field, f"Unknown member {field!r}; the known members are {', '.join(allowed)}."
            )


def _text(value, field: str, *, max_length: int = 200, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise InvalidField(field, f"{field} must be a non-empty string.")
    value = value.strip()
    if len(value) > max_length:
        raise InvalidField(field, f"{field} has at most {max_length} characters.")
    return value


def _list(value, field: str) -> list:
    if not isinstance(value, list):
        raise InvalidField(field, f"{field} must be a JSON array.")
    return value


def _string_list(value, field: str, *, max_length: int = 200) -> list[str]:
    items = _list(value, field)
    for index, item in enumerate(items):
        _text(item, f"{field}.{index}", max_length=max_length)
    return [item.strip() for item in items]


def _string_map(value, field: str) -> dict:
    value = _object(value, field)
    for key, item in value.items():
        if not isinstance(item, str):
            raise InvalidField(f"{field}.{key}", f"{field}.{key} must be a string.")
    return value


def _parse_settings(value, field: str = "settings") -> dict:
    value = _object(value, field)
    _no_unknown(value, SETTINGS_MEMBERS, field)
    clean = {}
    for key, item in value.items():
        name = f"{field}.{key}"
        if key in {"name", "timezone"}:
            clean[key] = _text(item, name, max_length=200 if key == "name" else 64)
        elif key == "working_days":
            days = _list(item, name)
            if not days or any(
                not isinstance(day, int) or isinstance(day, bool) or not 0 <= day <= 6
                for day in days
            ):
                raise InvalidField(
                    name, f"{name} lists weekday numbers, 0 (Monday) to 6 (Sunday), at least one."
                )
            clean[key] = sorted(set(days))
        elif key == "logo":
            clean[key] = logo_url(item, field=name)
        elif key in {"colours", "labels"}:
            clean[key] = _string_map(item, name)
        elif key == "modules":
            clean[key] = _string_list(item, name, max_length=64)
        elif key == "embedded_origins":
            # The rule of the settings page: the same origins, normalised the same way.
            origins = [
                origin_normalise(origin, field=f"{name}.{index}")
                for index, origin in enumerate(_list(item, name))
            ]
            clean[key] = list(dict.fromkeys(origins))
        elif key == "embedded_redirect_uri":
            # The rule of the settings page's redirect URIs: exact, and https in production.
            clean[key] = redirect_uri_check(item, field=name)
    return clean


def _parse_team(value, field: str = "team") -> list[dict]:
    team = []
    for index, entry in enumerate(_list(value, field)):
        name = f"{field}.{index}"
        entry = _object(entry, name)
        _no_unknown(entry, TEAM_MEMBERS, name)
        email = _text(entry.get("email"), f"{name}.email", max_length=254)
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidField(f"{name}.email", f"{name}.email is not an email address.") from None
        role = entry.get("role")
        if role not in Member.Role.values:
            raise InvalidField(
                f"{name}.role", f"{name}.role must be one of {', '.join(Member.Role.values)}."
            )
        team.append(
            {
                "email": email.lower(),
                "name": _text(entry.get("name"), f"{name}.name"),
                "role": role,
            }
        )
    return team


def _parse_programmes(value, field: str = "programmes") -> list[dict]:
    programmes = []
    for index, entry in enumerate(_list(value, field)):
        name = f"{field}.{index}"
        entry = _object(entry, name)
        _no_unknown(entry, PROGRAMME_MEMBERS, name)
        price = entry.get("price")
        if isinstance(price, bool) or not isinstance(price, str | int | float):
            raise InvalidField(f"{name}.price", f"{name}.price must be a decimal amount.")
        try:
            amount = Decimal(str(price).strip())
        except InvalidOperation:
            raise InvalidField(f"{name}.price", f"{name}.price must be a decimal amount.") from None
        if not amount.is_finite() or amount < 0:
            raise InvalidField(f"{name}.price", f"{name}.price must be zero or more.")
        programmes.append({"name": _text(entry.get("name"), f"{name}.name"), "price": str(amount)})
    return programmes


def _parse_shape(data: dict) -> dict:
    """The members a plan and a blueprint share."""
    return {
        "settings": _parse_settings(data["settings"]) if "settings" in data else {},
        "team": _parse_team(data["team"]) if "team" in data else [],
        "programmes": _parse_programmes(data["programmes"]) if "programmes" in data else [],
        "integrations": (
            _string_list(data["integrations"], "integrations", max_length=40)
            if "integrations" in data
            else []
        ),
    }


def _parse_workspace(value) -> dict:
    value = _object(value, "workspace")
    if "id" in value:
        _no_unknown(value, ("id",), "workspace")
        return {"id": _text(value["id"], "workspace.id", max_length=64)}
    _no_unknown(value, NEW_WORKSPACE_MEMBERS, "workspace")
    slug = _text(value.get("slug"), "workspace.slug", max_length=64)
    if not SLUG_PATTERN.fullmatch(slug):
        raise InvalidField(
            "workspace.slug",
            "workspace.slug is 1 to 64 lowercase letters, digits and hyphens, "
            "not starting or ending with a hyphen.",
        )
    return {
        "name": _text(value.get("name"), "workspace.name"),
        "slug": slug,
        "currency": _text(value.get("currency"), "workspace.currency", max_length=3).upper(),
        "timezone": _text(value.get("timezone") or "UTC", "workspace.timezone", max_length=64),
    }


def parse_plan_body(data) -> dict:
    """A plan body as asked for: the blueprint key (or None), then the workspace and shape."""
    data = _object(data, "")
    _no_unknown(data, PLAN_MEMBERS)
    blueprint = data.get("blueprint")
    if blueprint is not None and (
        not isinstance(blueprint, str) or not KEY_PATTERN.fullmatch(blueprint)
    ):
        raise InvalidField("blueprint", "blueprint is a blueprint key: [a-z0-9-], 1 to 64.")
    if "workspace" not in data:
        raise InvalidField(
            "workspace",
            "Name the workspace: {'id': ...} to change one of the agency's workspaces, or "
            "{'name', 'slug', 'currency', 'timezone'} to create one.",
        )
    return {"blueprint": blueprint, "workspace": _parse_workspace(data["workspace"])} | (
        _parse_shape(data)
    )


def parse_blueprint_key(key: str) -> str:
    if not KEY_PATTERN.fullmatch(key or ""):
        raise InvalidField("key", "A blueprint key is 1 to 64 of a-z, 0-9 and '-'.")
    return key


def parse_blueprint_body(data) -> dict:
    data = _object(data, "")
    if "workspace" in data:
        raise InvalidField("workspace", "A blueprint has no workspace: the plan names it.")
    _no_unknown(data, BLUEPRINT_MEMBERS)
    return {"name": _text(data.get("name"), "name")} | _parse_shape(data)


def merge_plan_bodies(blueprint: dict, plan: dict) -> dict:
    """The blueprint's shape, then the plan's on top (same email, name or key: the plan's)."""

    def by(items, key):
        merged = {item[key]: item for item in items}
        return list(merged.values())

    return {
        "workspace": plan["workspace"],
        "settings": {**blueprint.get("settings", {}), **plan["settings"]},
        "team": by([*blueprint.get("team", []), *plan["team"]], "email"),
        "programmes": by([*blueprint.get("programmes", []), *plan["programmes"]], "name"),
        "integrations": list(
            dict.fromkeys([*blueprint.get("integrations", []), *plan["integrations"]])
        ),
    }


def parse_connect_link_body(data, known_integrations) -> dict:
    data = _object(data, "")
    _no_unknown(data, CONNECT_LINK_MEMBERS)
    keys = _string_list(data.get("integrations"), "integrations", max_length=40)
    if not keys:
        raise InvalidField("integrations", "Offer at least one integration.")
    for index, key in enumerate(keys):
        if key not in known_integrations:
            raise InvalidField(
                f"integrations.{index}",
                f"Unknown integration {key!r}; choose from {', '.join(known_integrations)}.",
            )
    hours = data.get("expires_in_hours", 72)
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 720:
        raise InvalidField("expires_in_hours", "expires_in_hours is a whole number, 1 to 720.")
    return {"integrations": list(dict.fromkeys(keys)), "expires_in_hours": hours}


# --- Answer shapes, for the OpenAPI description ----------------------------------------

STATES = ["drafted", "waiting_for_approval", "approved", "refused", "applied"]
INTEGRATION_KEYS = ["stripe", "calendly", "zoom", "hubspot"]


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
    "Team emails that already have an account in the service: never linked and given no "
    "token; each person becomes a member with the role only when they accept the "
    "invitation after signing in."
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


class PlanResultSerializer(serializers.Serializer):
    changes = PlanChangeSerializer(many=True)
    workspace_id = serializers.UUIDField(required=False, allow_null=True)
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


class PlanSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    state = serializers.ChoiceField(choices=STATES)
    blueprint = serializers.CharField(allow_null=True)
    refused_reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    applied_at = serializers.DateTimeField(allow_null=True)
    result = PlanResultSerializer()


class PlanAppliedSerializer(PlanSerializer):
    result = PlanAppliedResultSerializer()


class PlanWorkspaceSerializer(serializers.Serializer):
    id = serializers.UUIDField(required=False, help_text="To change one of the agency's.")
    name = serializers.CharField(required=False)
    slug = serializers.CharField(required=False)
    currency = serializers.CharField(required=False, help_text="ISO 4217.")
    timezone = serializers.CharField(required=False, help_text="IANA; default UTC.")


class PlanSettingsSerializer(serializers.Serializer):
    name = serializers.CharField(required=False)
    timezone = serializers.CharField(required=False)
    working_days = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        min_length=1,
        required=False,
        help_text="Weekday numbers, 0 (Monday) to 6 (Sunday).",
    )
    logo = serializers.CharField(
        required=False, help_text="An https URL of the logo image, or empty for none."
    )
    colours = serializers.DictField(child=serializers.CharField(), required=False)
    labels = serializers.DictField(child=serializers.CharField(), required=False)
    modules = serializers.ListField(child=serializers.CharField(), required=False)
    embedded_origins = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Origins of the embedded apps, as the settings page takes them: "
        "https://host[:port] (http on localhost or 127.0.0.1 only), no path; kept with the "
        "host in lowercase and without a trailing slash or default port.",
    )
    embedded_redirect_uri = serializers.URLField(required=False)


class PlanTeamMemberSerializer(serializers.Serializer):
    email = serializers.EmailField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=Member.Role.values)


class PlanProgrammeSerializer(serializers.Serializer):
    name = serializers.CharField()
    price = serializers.DecimalField(
        20, 3, min_value=0, help_text="Major units of the workspace currency."
    )


class _ShapeSerializer(serializers.Serializer):
    settings = PlanSettingsSerializer(required=False)
    team = PlanTeamMemberSerializer(many=True, required=False)
    programmes = PlanProgrammeSerializer(many=True, required=False)
    integrations = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        help_text="Integration keys to connect: " + ", ".join(INTEGRATION_KEYS) + ". Any other "
        "key is kept as asked, and a plan lists it as a blocked change (code integration_unknown).",
    )


class PlanBodySerializer(_ShapeSerializer):
    blueprint = serializers.CharField(required=False, help_text="A blueprint key to start from.")
    workspace = PlanWorkspaceSerializer()


class BlueprintBodySerializer(_ShapeSerializer):
    name = serializers.CharField()


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


class ConnectLinkBodySerializer(serializers.Serializer):
    integrations = serializers.ListField(
        child=serializers.ChoiceField(choices=INTEGRATION_KEYS), min_length=1
    )
    expires_in_hours = serializers.IntegerField(min_value=1, max_value=720, default=72)


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
        help_text="Once connected: the connection's own webhook endpoint, "
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


class AgencyErrorDetailSerializer(serializers.Serializer):
    reason = serializers.CharField()
    message = serializers.CharField()


class AgencyErrorSerializer(serializers.Serializer):
    error = AgencyErrorDetailSerializer()
    field = serializers.CharField(required=False)
    requiredScope = serializers.CharField(required=False)  # noqa: N815 - the contract's name
    approval = serializers.ChoiceField(choices=["request"], required=False)


def _error(reason: str, message: str, **extra) -> dict:
    return {"error": {"reason": reason, "message": message}, **extra}


def error_responses(*codes: int, scope: str = "read", approval: bool = False) -> dict:
    """The error answers of an agency route, with examples."""
    catalogue = {
        400: OpenApiResponse(
            AgencyErrorSerializer,
            description="A body member or the Idempotency-Key cannot be used; `field` names it.",
            examples=[
                OpenApiExample(
                    "invalid_field",
                    _error(
                        "invalid_field",
                        "Unknown member 'colour'; the known members are ...",
                        field="colour",
                    ),
                ),
                OpenApiExample(
                    "refused.idempotency_key_required",
                    _error(
                        "refused.idempotency_key_required",
                        "Every write needs an Idempotency-Key header.",
                        field="Idempotency-Key",
                    ),
                ),
            ],
        ),
        401: OpenApiResponse(
            AgencyErrorSerializer,
            description="No token, not a token of this service, or revoked.",
            examples=[
                OpenApiExample(
                    "unauthenticated",
                    _error("unauthenticated", "Send a valid token in the Authorization header."),
                )
            ],
        ),
        402: OpenApiResponse(
            AgencyErrorSerializer,
            description="The agency is not on the Agency plan or above.",
            examples=[
                OpenApiExample(
                    "tier.upgrade_required",
                    _error("tier.upgrade_required", "This needs the Agency plan or above."),
                )
            ],
        ),
        403: OpenApiResponse(
            AgencyErrorSerializer,
            description="token.not_agency, scope.missing (with requiredScope), or "
            "refused.token_in_browser.",
            examples=[
                OpenApiExample(
                    "token.not_agency",
                    _error("token.not_agency", "This route needs an agency token (agy_...)."),
                ),
                OpenApiExample(
                    "scope.missing",
                    _error(
                        "scope.missing",
                        f"This agency token lacks the {scope} scope.",
                        requiredScope=scope,
                        **({"approval": "request"} if approval else {}),
                    ),
                ),
            ],
        ),
        404: OpenApiResponse(
            AgencyErrorSerializer,
            description="No such id or key in this agency.",
            examples=[OpenApiExample("not_found", _error("not_found", "No plan has that id."))],
        ),
        409: OpenApiResponse(
            AgencyErrorSerializer,
            description="refused.idempotency_in_progress, or refused.plan_state.",
            examples=[
                OpenApiExample(
                    "refused.idempotency_in_progress",
                    _error(
                        "refused.idempotency_in_progress",
                        "A write with this Idempotency-Key is still running.",
                    ),
                ),
                OpenApiExample(
                    "refused.plan_state",
                    _error("refused.plan_state", "A plan that is applied cannot be applied."),
                ),
            ],
        ),
        422: OpenApiResponse(
            AgencyErrorSerializer,
            description="The Idempotency-Key was used for a different request.",
            examples=[
                OpenApiExample(
                    "refused.idempotency_key_reused",
                    _error(
                        "refused.idempotency_key_reused",
                        "This Idempotency-Key was used for a different request.",
                    ),
                )
            ],
        ),
    }
    if 422 in codes:
        # Every write, and only a write, reads a body (and may answer 422 for a reused key).
        catalogue[400] = OpenApiResponse(
            AgencyErrorSerializer,
            description=catalogue[400].description
            + " A body over 1 MiB answers `invalid_body`; a body nested deeper than 32 levels, "
            "or with a NUL character (\\u0000) in any text, answers `invalid_field` naming "
            "the member.",
            examples=[
                *catalogue[400].examples,
                OpenApiExample(
                    "invalid_body",
                    _error(
                        "invalid_body",
                        "The body is larger than the limit of 1 MiB (1048576 bytes); send less "
                        "at once.",
                        field="body",
                    ),
                ),
                OpenApiExample(
                    "invalid_field (NUL)",
                    _error(
                        "invalid_field",
                        "team.0.name holds a NUL character (\\u0000); remove it.",
                        field="team.0.name",
                    ),
                ),
            ],
        )
    return {code: catalogue[code] for code in codes}
