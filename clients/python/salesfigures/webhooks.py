"""Checking a webhook delivery: its Standard Webhooks signature, then its body as the
typed event (the same object as an entry of `GET /api/v1/events`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import WebhookVerificationError
from .models import model

try:  # the `webhooks` extra: pip install "salesfigures[webhooks]"
    from standardwebhooks import Webhook
    from standardwebhooks import WebhookVerificationError as _Refused
except ImportError:  # pragma: no cover - the extra is not installed
    Webhook = None
    _Refused = Exception


def verify_webhook(secret: str, headers: Mapping[str, str], body: bytes | str) -> Any:
    """The delivery's event, once its signature verifies with the endpoint's secret
    (`whsec_…`, given once when the endpoint was made).

    `headers` are the request's headers (any case); `body` the raw body, exactly as
    received: parse nothing before. Raises WebhookVerificationError for a missing or wrong
    signature, a timestamp more than five minutes from this machine's clock, or a body that
    is not an event. Deduplicate on the event's `id` (the `webhook-id` header): a delivery
    can come more than once."""
    if Webhook is None:
        raise ImportError(
            'verify_webhook needs the standardwebhooks package: pip install "salesfigures[webhooks]"'
        )
    lowered = {str(key).lower(): str(value) for key, value in headers.items()}
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    try:
        payload = Webhook(secret).verify(raw, lowered)
    except _Refused as error:
        raise WebhookVerificationError(f"The delivery does not verify: {error}.") from error
    except ValueError as error:  # not JSON, or a secret that is not base64
        raise WebhookVerificationError(f"The delivery cannot be read: {error}.") from error
    try:
        return model("Event").from_dict(payload)
    except (KeyError, TypeError, ValueError) as error:
        raise WebhookVerificationError(f"The delivery is not an event: {error}.") from error
