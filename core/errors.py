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


# Seconds a client is asked to wait when the database cannot be reached.
UNAVAILABLE_RETRY_AFTER = 5


class Unavailable(ApiError):
    """The database cannot be reached for a moment (a restart, a failover, no free
    connection): nothing was written, and the client retries after retry_after seconds."""

    status_code = 503
    reason = "unavailable"
    default_message = (
        "The service cannot reach its database right now; retry after "
        f"{UNAVAILABLE_RETRY_AFTER} seconds."
    )
    retry_after = UNAVAILABLE_RETRY_AFTER


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


def _unauthenticated(exc) -> ApiError:
    return Unauthenticated(str(exc.detail) if exc.detail else None)


def _not_json(exc) -> ApiError:
    return ApiError(
        "The body is not valid JSON: send a JSON object.", reason="invalid_body", field="body"
    )


def _not_json_type(exc) -> ApiError:
    return ApiError("Send the body as application/json.", reason="invalid_body", field="body")


def _invalid_field(exc) -> ApiError:
    field, message = first_field_error(exc.detail) or ("", "is not valid.")
    return InvalidField(field or "body", f"{field}: {message}" if field else message)


def _throttled(exc) -> ApiError:
    return RateLimited(str(exc.detail), retry_after=math.ceil(exc.wait or 1))


def _other_drf_error(exc) -> ApiError:
    error = ApiError(str(exc.detail), reason="error")
    error.status_code = exc.status_code
    return error


# The error for an exception: the first entry whose class it is an instance of makes it.
# DRF's APIException, the parent of DRF's other exceptions, comes last.
ERRORS = (
    (ApiError, lambda exc: exc),
    (Http404, lambda exc: NotFound()),
    (PermissionDenied, lambda exc: Forbidden()),
    (RequestDataTooBig, lambda exc: BodyTooLarge()),
    ((drf_exceptions.NotAuthenticated, drf_exceptions.AuthenticationFailed), _unauthenticated),
    (drf_exceptions.ParseError, _not_json),
    (drf_exceptions.UnsupportedMediaType, _not_json_type),
    (drf_exceptions.ValidationError, _invalid_field),
    (drf_exceptions.MethodNotAllowed, lambda exc: MethodNotAllowed(str(exc.detail))),
    (drf_exceptions.NotFound, lambda exc: NotFound()),
    (drf_exceptions.PermissionDenied, lambda exc: Forbidden(str(exc.detail))),
    (drf_exceptions.Throttled, _throttled),
    (drf_exceptions.APIException, _other_drf_error),
)


def api_error(exc: Exception) -> ApiError | None:
    """The ApiError that answers an exception; None for one that is the server's fault."""
    for classes, make in ERRORS:
        if isinstance(exc, classes):
            return make(exc)
    return None


def error_headers(error: ApiError) -> dict:
    """The headers an error answer carries: WWW-Authenticate with a 401, Retry-After when
    the client is to wait."""
    headers = {}
    if error.status_code == 401:
        headers["WWW-Authenticate"] = (
            f'Bearer resource_metadata="{settings.BASE_URL}/.well-known/oauth-protected-resource"'
        )
    if isinstance(error, (RateLimited, Unavailable)):
        headers["Retry-After"] = str(error.retry_after)
    return headers


def exception_handler(exc, context):
    error = api_error(exc)
    if error is None:
        return None  # Django's 500 handler below answers without a stack trace.
    return Response(error.body(), status=error.status_code, headers=error_headers(error))
