"""The one error shape of both APIs.

Code raises an ApiError (or one of DRF's own exceptions); the exception handler below is
the only place that turns it into ``{"error": {"reason", "message"}, ...extra}``.
"""

import logging
import math

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings

logger = logging.getLogger(__name__)


class ApiError(Exception):
    status_code = 400
    reason = "invalid_request"
    default_message = "The request cannot be used."

    def __init__(self, message: str | None = None, *, reason: str | None = None, **extra):
        self.message = message or self.default_message
        if reason:
            self.reason = reason
        self.extra = {key: value for key, value in extra.items() if value is not None}
        super().__init__(self.message)

    def body(self) -> dict:
        return {"error": {"reason": self.reason, "message": self.message}, **self.extra}


class Unauthenticated(ApiError):
    status_code = 401
    reason = "unauthenticated"
    default_message = (
        "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'."
    )


class Forbidden(ApiError):
    status_code = 403
    reason = "forbidden"
    default_message = "This token may not do that."


class NotFound(ApiError):
    status_code = 404
    reason = "not_found"
    default_message = "Nothing with that id exists here."


class InvalidParameter(ApiError):
    """A query parameter that cannot be used; ``field`` names it."""

    status_code = 400
    reason = "invalid_parameter"

    def __init__(self, field: str, message: str, **extra):
        super().__init__(message, field=field, **extra)


class InvalidField(ApiError):
    """A body member that cannot be used; ``field`` names it, dotted when nested."""

    status_code = 400
    reason = "invalid_field"

    def __init__(self, field: str, message: str, **extra):
        super().__init__(message, field=field, **extra)


class BodyTooLarge(ApiError):
    """A body over DATA_UPLOAD_MAX_MEMORY_SIZE, refused before it is read."""

    status_code = 400
    reason = "invalid_body"

    def __init__(self):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        size = f"{limit // 1024 // 1024} MiB" if limit % (1024 * 1024) == 0 else f"{limit} bytes"
        super().__init__(
            f"The body is larger than the limit of {size} ({limit} bytes); send less at once.",
            field="body",
        )


class MethodNotAllowed(ApiError):
    status_code = 405
    reason = "method_not_allowed"


class PaymentRequired(ApiError):
    status_code = 402
    reason = "tier.upgrade_required"
    default_message = "This needs the Agency plan or above. Upgrade the agency's plan to use it."


class Conflict(ApiError):
    status_code = 409
    reason = "conflict"


class Unprocessable(ApiError):
    status_code = 422
    reason = "unprocessable"


class RateLimited(ApiError):
    """Over the request rate; retry_after is in seconds."""

    status_code = 429
    reason = "rate_limited"

    def __init__(self, message: str, *, retry_after: int, **extra):
        super().__init__(message, **extra)
        self.retry_after = retry_after


def first_field_error(detail, prefix: str = "") -> tuple[str, str] | None:
    """The first (dotted field, message) of a DRF error detail, skipping valid items."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key in ("non_field_errors", api_settings.NON_FIELD_ERRORS_KEY):
                name = prefix
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            found = first_field_error(value, name)
            if found is not None:
                return found
        return None
    if isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list):
                found = first_field_error(value, f"{prefix}.{index}" if prefix else str(index))
                if found is not None:
                    return found
            else:
                return prefix, str(value)
        return None
    return prefix, str(detail)


def exception_handler(exc, context):
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = Forbidden()
    elif isinstance(exc, RequestDataTooBig):
        exc = BodyTooLarge()

    if isinstance(exc, ApiError):
        error = exc
    elif isinstance(exc, drf_exceptions.NotAuthenticated | drf_exceptions.AuthenticationFailed):
        error = Unauthenticated(str(exc.detail) if exc.detail else None)
    elif isinstance(exc, drf_exceptions.ParseError):
        error = ApiError(
            "The body is not valid JSON: send a JSON object.", reason="invalid_body", field="body"
        )
    elif isinstance(exc, drf_exceptions.UnsupportedMediaType):
        error = ApiError("Send the body as application/json.", reason="invalid_body", field="body")
    elif isinstance(exc, drf_exceptions.ValidationError):
        field, message = first_field_error(exc.detail) or ("", "is not valid.")
        error = InvalidField(field or "body", f"{field}: {message}" if field else message)
    elif isinstance(exc, drf_exceptions.MethodNotAllowed):
        error = MethodNotAllowed(str(exc.detail))
    elif isinstance(exc, drf_exceptions.NotFound):
        error = NotFound()
    elif isinstance(exc, drf_exceptions.PermissionDenied):
        error = Forbidden(str(exc.detail))
    elif isinstance(exc, drf_exceptions.Throttled):
        error = RateLimited(str(exc.detail), retry_after=math.ceil(exc.wait or 1))
    elif isinstance(exc, drf_exceptions.APIException):
        error = ApiError(str(exc.detail), reason="error")
        error.status_code = exc.status_code
    else:
        return None  # Django's 500 handler below answers without a stack trace.

    headers = {}
    if error.status_code == 401:
        headers["WWW-Authenticate"] = (
            f'Bearer resource_metadata="{settings.BASE_URL}/.well-known/oauth-protected-resource"'
        )
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(error.retry_after)
    return Response(error.body(), status=error.status_code, headers=headers)
