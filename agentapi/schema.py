"""Pieces of the served description of the agent API: errors, the Idempotency-Key header,
and the examples the routes show."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from core import idempotency


class ErrorDetailSerializer(serializers.Serializer):
    reason = serializers.CharField()
    message = serializers.CharField()


class AgentErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()
    field = serializers.CharField(
        required=False, help_text="The parameter or body member, dotted when nested."
    )
    requiredScope = serializers.CharField(required=False)  # noqa: N815 (the wire name)


def _error(reason: str, message: str, **extra) -> dict:
    return {"error": {"reason": reason, "message": message}, **extra}


def _example(name: str, reason: str, message: str, **extra) -> OpenApiExample:
    return OpenApiExample(name, value=_error(reason, message, **extra), response_only=True)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": idempotency.MIN_LENGTH, "maxLength": idempotency.MAX_LENGTH},
    OpenApiParameter.HEADER,
    required=True,
    description="8 to 200 printable ASCII characters, unique to the write. A retry with the same key and "
    "the same request answers the first answer again with `Idempotent-Replayed: true` and "
    "does not repeat the write; the same key with another request answers 422 "
    "`refused.idempotency_key_reused`. Keys expire after 24 hours.",
)

FROM_TO = [
    OpenApiParameter(
        "from",
        OpenApiTypes.DATE,
        OpenApiParameter.QUERY,
        description="First day, YYYY-MM-DD in the workspace timezone (default: to - 29 days).",
    ),
    OpenApiParameter(
        "to",
        OpenApiTypes.DATE,
        OpenApiParameter.QUERY,
        description="Last day, included, YYYY-MM-DD in the workspace timezone (default: today "
        "there).",
    ),
]

WORKSPACE_ID = OpenApiParameter(
    "workspaceId",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="The workspace. A workspace token may name only its own (else 403 "
    "refused.cross_workspace); an agency token names one of its agency's workspaces.",
)

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
        _example(
            "invalid_field",
            "invalid_field",
            "instalments.0.amount: Give an amount in major units of USD with at most 2 "
            "decimals, as a string or a number, e.g. '1234.55'.",
            field="instalments.0.amount",
        ),
        _example(
            "refused.idempotency_key_required",
            "refused.idempotency_key_required",
            "Every write needs an Idempotency-Key header (8 to 200 characters, unique to the "
            "write).",
            field="Idempotency-Key",
        ),
    ],
    401: [
        _example(
            "unauthenticated",
            "unauthenticated",
            "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
        )
    ],
    403: [
        _example(
            "refused.drafts_only",
            "refused.drafts_only",
            "API tokens never file sales records: a member files this with their own session "
            "token. An API token may propose a draft instead (POST /api/v1/forms/drafts).",
        ),
        _example(
            "refused.member_scope",
            "refused.member_scope",
            "A closer reads only their own board and drafts, nothing workspace-wide.",
        ),
        _example(
            "insufficient_scope",
            "insufficient_scope",
            "This token lacks the data:write scope.",
            requiredScope="data:write",
        ),
    ],
    404: [_example("not_found", "not_found", "Nothing with that id exists here.")],
    409: [
        _example(
            "refused.idempotency_in_progress",
            "refused.idempotency_in_progress",
            "A write with this Idempotency-Key is still running; retry in a moment.",
        )
    ],
    422: [
        _example(
            "refused.idempotency_key_reused",
            "refused.idempotency_key_reused",
            "This Idempotency-Key was used for a different request; use a new key.",
        )
    ],
}


# What any body must be (config/parsers.py, config/errors.py), shown on the writes' 400.
BODY_LIMITS_TEXT = (
    " A body over 1 MiB answers `invalid_body`; a body nested deeper than 32 levels, or "
    "with a NUL character (\\u0000) in any text, answers `invalid_field` naming the member."
)
_BODY_EXAMPLES = [
    _example(
        "invalid_body",
        "invalid_body",
        "The body is larger than the limit of 1 MiB (1048576 bytes); send less at once.",
        field="body",
    ),
    _example(
        "invalid_field (NUL)",
        "invalid_field",
        "fields.notes holds a NUL character (\\u0000); remove it.",
        field="fields.notes",
    ),
]


def errors(*statuses, extra: dict | None = None) -> dict:
    """The error answers of a route, with examples; extra adds or replaces examples."""
    # Every write, and only a write, may answer 422 for a reused Idempotency-Key.
    reads_a_body = 422 in statuses
    answers = {}
    for status in statuses:
        examples = list(_EXAMPLES.get(status, []))
        description = _STATUS_TEXT[status]
        if status == 400 and reads_a_body:
            examples += _BODY_EXAMPLES
            description += BODY_LIMITS_TEXT
        if extra and status in extra:
            description, more = extra[status]
            examples = more + examples
        answers[status] = OpenApiResponse(
            AgentErrorSerializer, description=description, examples=examples
        )
    return answers


READ_ERRORS = (400, 401, 403)
WRITE_ERRORS = (400, 401, 403, 409, 422)


def request_example(name: str, value: dict, summary: str = "") -> OpenApiExample:
    return OpenApiExample(name, value=value, summary=summary or name, request_only=True)


def response_example(name: str, value: dict, status: int = 200) -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[str(status)])
