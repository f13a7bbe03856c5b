"""The two served API descriptions: one generator setting each, shared by the views,
`make openapi` (which writes the committed copies in docs/openapi/) and the tests."""

from django.conf import settings
from drf_spectacular.plumbing import _load_enum_name_overrides

FIGURES = {
    "TITLE": "Read-Only Figures API",
    "DESCRIPTION": (
        "Live, read-only access to one workspace's sales figures. Every figures operation is "
        "a GET with a bearer token (a workspace API token `svc_…`, or the session token of an "
        "owner, admin or manager). Every answer except whoami is an envelope whose `notes` "
        "list what could not be answered; a figure that cannot be drawn honestly has "
        "`value: null` and `unavailable`. Errors: `{error: {reason, message}}`. "
        "Events: the workspace's events are listed by `GET /api/v1/events` for 30 days, and "
        "pushed to its webhook endpoints (`/api/v1/webhook-endpoints`, signed by the Standard "
        "Webhooks scheme), which the Agent and Agency API describes (`/openapi/agent.json`; "
        "each event type's payload is a callback of createWebhookEndpoint). Every operation "
        "here is a GET, and a tool of the MCP server at `/mcp`."
    ),
    "SECURITY": [{"bearer": []}],
}

AGENT = {
    "TITLE": "Agent and Agency API",
    "DESCRIPTION": (
        "Display config, member board, change log, forms and drafts for embedded apps and "
        "agents (workspace API tokens and members' session tokens), and the agency API: "
        "agency workspaces, plans, blueprints and connect links (agency tokens `agy_…`), "
        "and the workspace's webhook endpoints (`/api/v1/webhook-endpoints`: each event type's "
        "payload is a callback of createWebhookEndpoint). "
        "Every POST and PUT needs an `Idempotency-Key` header (8 to 200 characters); a retry "
        "with the same key answers the first answer with `Idempotent-Replayed: true` (a "
        "webhook endpoint's PATCH and DELETE are idempotent as they are). "
        "Errors: `{error: {reason, message}}`."
    ),
    "SECURITY": [{"bearer": []}, {"agencyBearer": []}],
}


def nullable_references(result, generator, request, public):
    """A nullable member whose schema is a reference, written so that null validates.

    The generator writes `{"allOf": [{"$ref": …}], "nullable": true}`; OpenAPI 3.0.3 gives
    `nullable` no effect without a `type` beside it, so a strict validator (and a client
    generated from the description) refuses the null that the answer holds. This writes
    `{"oneOf": [{"$ref": …}, {"$ref": "#/components/schemas/NullEnum"}]}` instead, the form
    the generator itself uses for nullable choices.
    """

    def rewrite(node):
        if isinstance(node, dict):
            refs = node.get("allOf")
            if (
                node.get("nullable") is True
                and "type" not in node
                and isinstance(refs, list)
                and len(refs) == 1
                and "$ref" in refs[0]
            ):
                rest = {k: v for k, v in node.items() if k not in ("allOf", "nullable")}
                node = {"oneOf": [refs[0], {"$ref": "#/components/schemas/NullEnum"}], **rest}
                rewrite.used = True
            return {key: rewrite(value) for key, value in node.items()}
        if isinstance(node, list):
            return [rewrite(value) for value in node]
        return node

    rewrite.used = False
    result = rewrite(result)
    if rewrite.used:
        schemas = result.setdefault("components", {}).setdefault("schemas", {})
        schemas.setdefault("NullEnum", {"enum": [None]})
        result["components"]["schemas"] = dict(sorted(schemas.items()))
    return result


def closed_request_bodies(result, generator, request, public):
    """Request bodies name every member they take: the API answers 400 naming any other
    (docs/agent-api.md), so each request object says `additionalProperties: false`. Free-form
    members (a draft's or a report's `fields`) keep their own open schema."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if (
            name.endswith("Request")
            and schema.get("type") == "object"
            and "properties" in schema
            and "additionalProperties" not in schema
        ):
            schema["additionalProperties"] = False
    return result


def empty_query_values(result, generator, request, public):
    """Every query parameter left empty (`?to=`) is read as left out: each says so."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    parameter["allowEmptyValue"] = True
    return result


def unavailable_answers(result, generator, request, public):
    """Any operation may answer 503 `unavailable` with Retry-After while the database cannot
    be reached (docs/errors.md)."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            responses = operation.get("responses") if isinstance(operation, dict) else None
            if responses is None:
                continue
            responses["503"] = {
                "description": "The database cannot be reached for a moment (a restart or a "
                "failover); nothing was written. Retry after Retry-After seconds.",
                "headers": {
                    # Present when the request's counter was reached before the failure.
                    "RateLimit-Policy": {"$ref": "#/components/headers/RateLimit-Policy"},
                    "RateLimit": {"$ref": "#/components/headers/RateLimit"},
                    "Retry-After": {"$ref": "#/components/headers/Retry-After"},
                },
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/Error"},
                        "examples": {
                            "Unavailable": {
                                "value": {
                                    "error": {
                                        "reason": "unavailable",
                                        "message": "The service cannot reach its database "
                                        "right now; retry after 5 seconds.",
                                    }
                                }
                            }
                        },
                    }
                },
            }
    return result


def enum_names_of_this_description(result, generator, request, public):
    """Each description names its choice sets with its own ENUM_NAME_OVERRIDES: the
    generator keeps the first overrides it loads for the whole process, whichever
    description loaded them (drf-spectacular issue 1244), so they are loaded again here,
    just before the enumerations are named."""
    _load_enum_name_overrides.cache_clear()
    return result


_HOOKS = [
    "config.openapi.enum_names_of_this_description",
    "drf_spectacular.hooks.postprocess_schema_enums",
    "config.openapi.nullable_references",
    "config.openapi.closed_request_bodies",
    "config.openapi.empty_query_values",
    "config.openapi.unavailable_answers",
]
FIGURES["POSTPROCESSING_HOOKS"] = _HOOKS
AGENT["POSTPROCESSING_HOOKS"] = _HOOKS

# The agent description carries the events' payloads (the callbacks of
# createWebhookEndpoint) beside the agent API's own bodies, whose members share names
# (attendance, payment_plan, origin, kind) with other choice sets: the agent API's sets keep their
# names, and a payload's set is named after its payload (CallEventDataAttendanceEnum). A
# provider names one set wherever it is a member (integrations, provider).
AGENT["ENUM_NAME_OVERRIDES"] = {
    **settings.SPECTACULAR_SETTINGS.get("ENUM_NAME_OVERRIDES", {}),
    "AttendanceEnum": "workspaces.models.Call.Attendance",
    "PaymentPlanEnum": "workspaces.models.Sale.PaymentPlan",
    "OriginEnum": "workspaces.models.Sale.Origin",
    "KindEnum": "agentapi.models.ChangeLogEntry.Kind",
    "IntegrationsEnum": "agency.serializers.INTEGRATION_KEYS",
    # The Field's sets keep the names they had before the goals' own `metric` and `unit`.
    "MetricEnum": "figures.schema.FIELD_METRICS",
    "UnitEnum": "figures.schema.FIELD_UNITS",
}
