"""The exception handler: each kind of exception, the answer it becomes."""

import pytest
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from django.test import override_settings
from rest_framework import exceptions as drf_exceptions

from core.errors import Conflict, RateLimited, exception_handler

NOT_JSON = "The body is not valid JSON: send a JSON object."


@pytest.mark.parametrize(
    ("exc", "status", "body"),
    [
        (Http404(), 404, {"reason": "not_found", "message": "Nothing with that id exists here."}),
        (
            PermissionDenied(),
            403,
            {"reason": "forbidden", "message": "This token may not do that."},
        ),
        (
            drf_exceptions.AuthenticationFailed("Expired."),
            401,
            {"reason": "unauthenticated", "message": "Expired."},
        ),
        (
            drf_exceptions.ParseError(),
            400,
            {"reason": "invalid_body", "message": NOT_JSON, "field": "body"},
        ),
        (
            drf_exceptions.UnsupportedMediaType("text/plain"),
            400,
            {
                "reason": "invalid_body",
                "message": "Send the body as application/json.",
                "field": "body",
            },
        ),
        (
            drf_exceptions.ValidationError({"lead": {"email": ["Enter a valid email."]}}),
            400,
            {
                "reason": "invalid_field",
                "message": "lead.email: Enter a valid email.",
                "field": "lead.email",
            },
        ),
        (
            drf_exceptions.ValidationError(["Give one of them."]),
            400,
            {"reason": "invalid_field", "message": "Give one of them.", "field": "body"},
        ),
        (
            drf_exceptions.MethodNotAllowed("PUT"),
            405,
            {"reason": "method_not_allowed", "message": 'Method "PUT" not allowed.'},
        ),
        (
            drf_exceptions.NotFound("Gone."),
            404,
            {"reason": "not_found", "message": "Nothing with that id exists here."},
        ),
        (drf_exceptions.PermissionDenied("No."), 403, {"reason": "forbidden", "message": "No."}),
        (drf_exceptions.APIException("Broken."), 500, {"reason": "error", "message": "Broken."}),
        (Conflict("Taken."), 409, {"reason": "conflict", "message": "Taken."}),
    ],
)
def test_each_exception_becomes_its_error(exc, status, body):
    response = exception_handler(exc, {})
    reason, message, extra = body.pop("reason"), body.pop("message"), body
    assert response.status_code == status
    assert response.data == {"error": {"reason": reason, "message": message}, **extra}
    assert "Retry-After" not in response.headers


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=2 * 1024 * 1024)
def test_a_body_too_large_names_the_limit():
    response = exception_handler(RequestDataTooBig(), {})
    assert (response.status_code, response.data) == (
        400,
        {
            "error": {
                "reason": "invalid_body",
                "message": "The body is larger than the limit of 2 MiB (2097152 bytes); "
                "send less at once.",
            },
            "field": "body",
        },
    )


@override_settings(BASE_URL="https://figures.example.com")
def test_a_401_says_where_the_resource_metadata_is():
    response = exception_handler(drf_exceptions.NotAuthenticated(), {})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == (
        'Bearer resource_metadata="https://figures.example.com/.well-known/oauth-protected-resource"'
    )


@pytest.mark.parametrize(
    ("exc", "retry_after"),
    [
        (drf_exceptions.Throttled(2.1), "3"),
        (drf_exceptions.Throttled(), "1"),
        (RateLimited("Slow down.", retry_after=7), "7"),
    ],
)
def test_over_the_rate_says_when_to_retry(exc, retry_after):
    response = exception_handler(exc, {})
    assert (response.status_code, response.data["error"]["reason"]) == (429, "rate_limited")
    assert response.headers["Retry-After"] == retry_after


def test_any_other_exception_is_left_to_the_500_handler():
    assert exception_handler(ValueError("bug"), {}) is None
