"""A typed client for the sales figures service.

    from salesfigures import Client
    client = Client("svc_…", base_url="https://figures.example.com")
    figures = client.list_payment_figures()
    print(figures.data.cash_collected.as_decimal())

See docs/client.md in the service's repository.
"""

from . import errors, models
from ._version import __version__
from .client import DEFAULT_BASE_URL, AgencyClient, AsyncAgencyClient, AsyncClient, Client
from .errors import (
    ApiError,
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    IdempotencyInProgress,
    IdempotencyKeyRequired,
    IdempotencyKeyReused,
    InsufficientScope,
    InvalidBody,
    InvalidField,
    InvalidParameter,
    NotFound,
    PagingError,
    RateLimited,
    SalesFiguresError,
    ServerError,
    Unauthenticated,
    Unavailable,
    UnexpectedAnswer,
    Unprocessable,
    UpgradeRequired,
    WebhookVerificationError,
)
from .models import as_decimal, to_rows
from .webhooks import verify_webhook

__all__ = [
    "DEFAULT_BASE_URL",
    "AgencyClient",
    "ApiError",
    "AsyncAgencyClient",
    "AsyncClient",
    "BadRequest",
    "Client",
    "Conflict",
    "ConnectionFailed",
    "Forbidden",
    "IdempotencyInProgress",
    "IdempotencyKeyRequired",
    "IdempotencyKeyReused",
    "InsufficientScope",
    "InvalidBody",
    "InvalidField",
    "InvalidParameter",
    "NotFound",
    "PagingError",
    "RateLimited",
    "SalesFiguresError",
    "ServerError",
    "Unauthenticated",
    "Unavailable",
    "UnexpectedAnswer",
    "Unprocessable",
    "UpgradeRequired",
    "WebhookVerificationError",
    "__version__",
    "as_decimal",
    "errors",
    "models",
    "to_rows",
    "verify_webhook",
]
