"""The webhook endpoints: POST /hooks/<provider>/<connection id>.

A delivery is verified with the provider's signature scheme and the connection's own
secret, stored once, and answered at once; the worker applies it. A refused delivery
stores nothing: only the connection's refused counter moves.
"""

import json
import logging

from django.conf import settings
from django.db import transaction
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from core.errors import ApiError, MethodNotAllowed, NotFound
from core.metrics import WEBHOOKS
from core.parsers import storable_json
from core.throttling import rate_require

from . import services
from .base import SignatureRefused
from .models import Connection
from .providers import provider_get

logger = logging.getLogger(__name__)


class InvalidSignature(ApiError):
    status_code = 400
    reason = "invalid_signature"


class StaleSignature(ApiError):
    status_code = 400
    reason = "stale_signature"


class ConnectionGone(ApiError):
    status_code = 410
    reason = "connection_disconnected"
    default_message = (
        "This connection was disconnected: remove the webhook endpoint at the provider."
    )


def _answer(error: ApiError) -> JsonResponse:
    response = JsonResponse(error.body(), status=error.status_code)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@csrf_exempt
def receive(request, provider: str, connection_id):
    # Counted under the provider's key only when there is such a provider (an address
    # cannot make up labels).
    label = provider if provider_get(provider) is not None else "unknown"
    try:
        answer = _receive(request, provider, connection_id)
    except ApiError as error:
        WEBHOOKS.labels(label, "refused").inc()
        return _answer(error)
    if answer.get("received"):
        # (A provider's challenge of the endpoint stores nothing and is not counted.)
        WEBHOOKS.labels(label, "duplicate" if answer.get("duplicate") else "received").inc()
    return JsonResponse(answer)


def _receive(request, provider_key: str, connection_id) -> dict:
    if request.method != "POST":
        raise MethodNotAllowed("A webhook endpoint answers POST only.")
    provider = provider_get(provider_key)
    connection = _connection(provider, provider_key, connection_id)
    secret = services.connection_signing_secret(connection)
    _verify(request, provider, connection, secret)
    payloads = _payloads(provider, connection, request.body)
    # A provider's check that the endpoint is ours (Zoom's URL validation): answered from
    # the payload and the secret, and nothing is stored.
    answer = (
        provider.challenge(payloads[0], secret)
        if provider.challenge is not None and len(payloads) == 1
        else None
    )
    if answer is not None:
        return answer
    if _store(provider, connection, payloads) == 0:
        return {"received": True, "duplicate": True}
    return {"received": True}


def _connection(provider, provider_key: str, connection_id) -> Connection:
    """The connection the address names, if it can still receive deliveries."""
    # A provider that receives no webhooks has no endpoint.
    connection = (
        next(iter(Connection.objects.filter(pk=connection_id, provider=provider_key)[:1]), None)
        if provider is not None and provider.receives_webhooks
        else None
    )
    if connection is None:
        raise NotFound("No connection at this address.")
    if connection.state == Connection.State.DISCONNECTED:
        raise ConnectionGone()
    return connection


def _verify(request, provider, connection: Connection, secret) -> None:
    """Check the delivery's signature; a refused one counts on the connection."""
    try:
        if not secret:
            raise SignatureRefused("This connection has no webhook signing secret.")
        request_line = {}
        if provider.verify_with_request:
            # The URL as the provider called it: the public address, not the one behind
            # a proxy.
            request_line = {
                "method": request.method,
                "url": f"{settings.BASE_URL}{request.get_full_path()}",
            }
        try:
            provider.verify(
                body=request.body, headers=request.headers, secret=secret, **request_line
            )
        except (TypeError, ValueError, OverflowError) as error:
            # A header no signature scheme can read (text that is not ASCII, a number
            # too large): refused like any signature that does not match.
            raise SignatureRefused("The signature headers cannot be read.") from error
    except SignatureRefused as refused:
        _refusal_count(connection)
        raise (StaleSignature if refused.stale else InvalidSignature)(refused.message) from None


def _refusal_count(connection: Connection) -> None:
    """A refused delivery counts on the connection (its rate of refusals, then its counter).
    Past RATE_LIMIT_REFUSED_DELIVERIES it answers 429 with Retry-After and the counter is
    left alone: a sender over the limit writes nothing. An accepted delivery never counts."""
    rate_require("refused", f"connection:{connection.pk}")
    services.delivery_refuse(connection=connection)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _payloads(provider, connection: Connection, body: bytes) -> list:
    """The delivery's events as JSON objects; a body that has none is refused."""
    try:
        # What no database stores (a NUL, half a surrogate pair) is kept escaped: a signed
        # delivery is stored rather than refused for days of retries.
        payload = storable_json(json.loads(body, parse_constant=_no_constant))
    except (ValueError, RecursionError):
        # Not JSON (NaN and Infinity are not JSON numbers), or nested deeper than the
        # decoder goes.
        payload = None
    split = provider.split
    if split is not None:
        # A provider that batches events sends several in one delivery: each is stored
        # once, by its own id.
        payloads = split(payload)
    else:
        payloads = [payload] if isinstance(payload, dict) else None
    if not payloads:
        _refusal_count(connection)
        message = "The body is not a JSON object" + (" or array of objects." if split else ".")
        raise ApiError(message, reason="invalid_body", field="body")
    return payloads


def _store(provider, connection: Connection, payloads: list) -> int:
    """Store each event once and queue it for the worker; the number newly stored."""
    described = [provider.describe(item) for item in payloads]
    if not all(item.event_id for item in described):
        _refusal_count(connection)
        raise ApiError("The event carries no id.", reason="invalid_body", field="body")
    stored = 0
    with transaction.atomic():
        for item, item_payload in zip(described, payloads, strict=True):
            event = services.event_receive(
                connection=connection, described=item, payload=item_payload, source="webhook"
            )
            if event is not None:
                stored += 1
        if stored:
            services.events_apply_soon(connection.pk)
    return stored
