"""Pieces every served API description builds its routes from: the error body and its
examples, a route's error answers taken from an app's catalogue, what any body must be,
and the Idempotency-Key header. The apps keep their own wording (catalogues and component
names); this module is the one way they turn it into drf-spectacular objects."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from . import idempotency

# What any body must be (core/parsers.py, core/errors.py), shown on the writes' 400.
BODY_LIMITS_TEXT = (
    " A body over 1 MiB answers `invalid_body`; a body nested deeper than 32 levels, or "
    "with a NUL character (\\u0000) in any text, answers `invalid_field` naming the member."
)


def error_body(reason: str, message: str, **extra) -> dict:
    """The error answer of every API: {"error": {"reason", "message"}, ...extra members}."""
    return {"error": {"reason": reason, "message": message}, **extra}


def error_example(name: str, reason: str, message: str, **extra) -> OpenApiExample:
    return OpenApiExample(name, value=error_body(reason, message, **extra), response_only=True)


def error_responses(
    serializer,
    catalogue: dict[int, tuple[str, list[OpenApiExample]]],
    statuses,
    *,
    body_examples: list[OpenApiExample] | None = None,
    extra: dict | None = None,
) -> dict[int, OpenApiResponse]:
    """The answers of `statuses`, each (description, examples) from the catalogue.

    With body_examples (a route that reads a body), 400 adds BODY_LIMITS_TEXT and those
    examples; extra {status: (description, examples)} replaces a description and puts its
    examples first.
    """
    answers = {}
    for status in statuses:
        description, examples = catalogue[status]
        examples = list(examples)
        if status == 400 and body_examples is not None:
            description += BODY_LIMITS_TEXT
            examples += body_examples
        if extra and status in extra:
            description, more = extra[status]
            examples = more + examples
        answers[status] = OpenApiResponse(serializer, description=description, examples=examples)
    return answers


def idempotency_key_parameter(description: str) -> OpenApiParameter:
    """The Idempotency-Key header every write requires, with core.idempotency's bounds."""
    return OpenApiParameter(
        "Idempotency-Key",
        {
            "type": "string",
            "minLength": idempotency.MIN_LENGTH,
            "maxLength": idempotency.MAX_LENGTH,
        },
        OpenApiParameter.HEADER,
        required=True,
        description=description,
    )


class ErrorDetailSerializer(serializers.Serializer):
    reason = serializers.CharField()
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    """The one error shape of both APIs (component `Error`)."""

    error = ErrorDetailSerializer()
    field = serializers.CharField(
        required=False, help_text="The parameter or body member, dotted when nested."
    )
    requiredScope = serializers.CharField(required=False)  # the wire name
    approval = serializers.ChoiceField(choices=["request"], required=False)


IDEMPOTENCY_KEY = idempotency_key_parameter(
    "8 to 200 printable ASCII characters, unique to the write. A retry with the same key and "
    "the same request answers the first answer again with `Idempotent-Replayed: true` and "
    "does not repeat the write; the same key with another request answers 422 "
    "`refused.idempotency_key_reused`. Keys expire after 24 hours."
)
