"""The circuit breaker's arithmetic: whether an endpoint is paused, which deliveries wait
for its cool-off, how long a pause lasts and the words that say why.

The breaker counts each endpoint's run of timeouts and 5xx answers and pauses it when the
run reaches WEBHOOK_BREAKER_FAILURES; the counting and the pauses are written by
webhooks.services.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from .models import WebhookEndpoint


def paused(endpoint: WebhookEndpoint, now: datetime) -> bool:
    return endpoint.paused_until is not None and endpoint.paused_until > now


def not_paused(now: datetime) -> Q:
    """The deliveries whose endpoint's circuit breaker is closed, or its cool-off over."""
    return Q(endpoint__paused_until__isnull=True) | Q(endpoint__paused_until__lte=now)


def run_words(failures: int, timeouts: int) -> str:
    if timeouts == failures:
        return f"{failures} timeout{'s' if failures != 1 else ''} in a row"
    if timeouts == 0:
        return f"{failures} server error{'s' if failures != 1 else ''} (5xx) in a row"
    return f"{failures} timeouts or server errors (5xx) in a row"


def breaker_cooloff(pauses: int) -> timedelta:
    """The cool-off of the endpoint's pause after `pauses` earlier ones without a success:
    the setting, doubled each time, capped."""
    seconds = settings.WEBHOOK_BREAKER_COOLOFF_SECONDS * 2 ** min(pauses, 30)
    return timedelta(seconds=min(seconds, settings.WEBHOOK_BREAKER_COOLOFF_MAX_SECONDS))
