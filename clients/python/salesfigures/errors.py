"""The exceptions the client raises.

Every error answer of the service is `{"error": {"reason", "message"}, ...}`; the client
raises the class of its `reason` (or, for a reason it does not know, the class of its
status), so code catches what it can act on: `except RateLimited`, `except InvalidParameter`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx


class SalesFiguresError(Exception):
    """Anything the client raises on purpose."""


class ApiError(SalesFiguresError):
    """The service answered with an error (a 4xx or 5xx status)."""

    status: int = 0

    def __init__(
        self,
        message: str,
        *,
        status: int,
        reason: str,
        body: dict[str, Any] | None = None,
        headers: httpx.Headers | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.status = status
        self.reason = reason
        self.body = body or {}
        self.headers = headers if headers is not None else httpx.Headers()
        # The parameter or body member a 400 names, dotted when nested (`instalments.0.amount`).
        self.field: str | None = self.body.get("field")
        self.request_id: str | None = self.headers.get("x-request-id")

    def __str__(self) -> str:
        where = f" ({self.field})" if self.field else ""
        return f"{self.status} {self.reason}{where}: {self.message}"


class BadRequest(ApiError):
    """400: the request cannot be used as it is; `field` names what to fix."""


class InvalidParameter(BadRequest):
    """400 `invalid_parameter`: a query parameter cannot be used; `field` names it."""


class InvalidField(BadRequest):
    """400 `invalid_field`: a body member cannot be used or is unknown; `field` names it."""


class InvalidBody(BadRequest):
    """400 `invalid_body`: the body is not JSON, not an object, or over 1 MiB."""


class IdempotencyKeyRequired(BadRequest):
    """400 `refused.idempotency_key_required`: a write without a usable Idempotency-Key
    (8 to 200 printable ASCII characters)."""


class Unauthenticated(ApiError):
    """401: no token, or one the service does not accept (unknown, revoked, expired)."""


class UpgradeRequired(ApiError):
    """402 `tier.upgrade_required`: the agency's plan does not include this."""


class Forbidden(ApiError):
    """403: the token is known but may not do this (`reason` says why)."""


class InsufficientScope(Forbidden):
    """403 `insufficient_scope` or `scope.missing`: the token lacks the route's scope,
    named by `required_scope` (`approval` is "request" when an owner can approve it)."""

    def __init__(self, message: str, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.required_scope: str | None = self.body.get("requiredScope")
        self.approval: str | None = self.body.get("approval")


class NotFound(ApiError):
    """404: no such id or key for this token (another workspace's ids included)."""


class Conflict(ApiError):
    """409: the record's state does not allow this (a plan already applied, a closed draft)."""


class IdempotencyInProgress(Conflict):
    """409 `refused.idempotency_in_progress`: a write with this key is still running.
    The client retries it by itself; this is raised when the retries run out."""


class Unprocessable(ApiError):
    """422: the request is well formed but refused (`reason` says why)."""


class IdempotencyKeyReused(Unprocessable):
    """422 `refused.idempotency_key_reused`: the key was used for a different request."""


class RateLimited(ApiError):
    """429 `rate_limited`: over the token's request rate. `retry_after` is the seconds to
    wait. The client waits and retries by itself; this is raised when the retries run out
    or the wait is longer than the client's `max_wait`."""

    def __init__(self, message: str, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.retry_after: float | None = retry_after(self.headers)


class ServerError(ApiError):
    """5xx: the service failed; nothing can be assumed about a write without an
    Idempotency-Key (retry it with the same key to be sure)."""


class Unavailable(ServerError):
    """503 `unavailable`: the service cannot reach its database for a moment; nothing was
    written. The client retries by itself; `retry_after` is the seconds it was told to wait."""

    def __init__(self, message: str, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.retry_after: float | None = retry_after(self.headers)


class ConnectionFailed(SalesFiguresError):
    """The service could not be reached, or the connection broke before its answer (after
    the client's retries, for the requests it may retry)."""


class UnexpectedAnswer(SalesFiguresError):
    """An answer the client cannot read (not JSON, or not the documented shape)."""


class PagingError(SalesFiguresError):
    """An iterator cannot page further without skipping records."""


class WebhookVerificationError(SalesFiguresError):
    """A webhook delivery whose signature, timestamp or body does not verify: refuse it."""


_BY_REASON: dict[str, type[ApiError]] = {
    "invalid_parameter": InvalidParameter,
    "invalid_field": InvalidField,
    "invalid_body": InvalidBody,
    "refused.idempotency_key_required": IdempotencyKeyRequired,
    "unauthenticated": Unauthenticated,
    "tier.upgrade_required": UpgradeRequired,
    "insufficient_scope": InsufficientScope,
    "scope.missing": InsufficientScope,
    "not_found": NotFound,
    "refused.idempotency_in_progress": IdempotencyInProgress,
    "refused.idempotency_key_reused": IdempotencyKeyReused,
    "rate_limited": RateLimited,
    "unavailable": Unavailable,
}

_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthenticated,
    402: UpgradeRequired,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    422: Unprocessable,
    429: RateLimited,
    503: Unavailable,
}

_DELTA = re.compile(r"\bt=(\d+)")


def retry_after(headers: httpx.Headers) -> float | None:
    """Seconds to wait, from Retry-After (seconds) or else the RateLimit field's `t`."""
    value = headers.get("retry-after")
    if value is not None and value.strip().isdigit():
        return float(value.strip())
    match = _DELTA.search(headers.get("ratelimit", ""))
    return float(match.group(1)) if match else None


def error_from_response(response: httpx.Response) -> ApiError:
    """The exception for an error answer, by its `reason`, else by its status."""
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict) and isinstance(detail.get("reason"), str):
        reason, message = detail["reason"], str(detail.get("message", ""))
    else:
        body = {}
        reason = f"http_{response.status_code}"
        message = response.reason_phrase or "The service answered with an error."
    cls = _BY_REASON.get(reason)
    if cls is None:
        cls = _BY_STATUS.get(response.status_code)
    if cls is None:
        cls = ServerError if response.status_code >= 500 else ApiError
    return cls(
        message, status=response.status_code, reason=reason, body=body, headers=response.headers
    )
