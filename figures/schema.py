from drf_spectacular.utils import OpenApiExample, OpenApiResponse, inline_serializer
from rest_framework import serializers

ErrorBody = inline_serializer(
    "Error",
    {
        "error": inline_serializer(
            "ErrorDetail",
            {"reason": serializers.CharField(), "message": serializers.CharField()},
        ),
        "field": serializers.CharField(required=False),
    },
)

ERROR_RESPONSES = {
    400: OpenApiResponse(
        ErrorBody,
        description="A parameter cannot be used; `field` names it.",
        examples=[
            OpenApiExample(
                "invalid_parameter",
                {
                    "error": {
                        "reason": "invalid_parameter",
                        "message": "from must be a date written YYYY-MM-DD.",
                    },
                    "field": "from",
                },
            )
        ],
    ),
    401: OpenApiResponse(
        ErrorBody,
        description="No token, or a token not accepted.",
        examples=[
            OpenApiExample(
                "unauthenticated",
                {
                    "error": {
                        "reason": "unauthenticated",
                        "message": "Send a valid token in the Authorization header: "
                        "'Authorization: Bearer <token>'.",
                    }
                },
            )
        ],
    ),
    403: OpenApiResponse(ErrorBody, description="Refused: see error.reason."),
}
