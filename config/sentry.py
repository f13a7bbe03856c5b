"""Errors to Sentry through `sentry-sdk`, when SENTRY_DSN is set.

No personal data is sent (no cookies, headers' values, user or client address), and no
secret carried in a path, nor a credential a library wrote into a message, reaches Sentry:
an event's URL, its query string, its breadcrumbs' messages, its exceptions' texts and its
log message are redacted as the log lines are (config/log_filters.py).
"""

import os

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration

from config.log_filters import redact


def _redacted(event, _hint):
    request = event.get("request") or {}
    for key in ("url", "query_string"):
        if isinstance(request.get(key), str):
            request[key] = redact(request[key])
    request.pop("cookies", None)
    request.pop("data", None)
    if isinstance(event.get("transaction"), str):
        event["transaction"] = redact(event["transaction"])
    for crumb in (event.get("breadcrumbs") or {}).get("values", []):
        if isinstance(crumb.get("message"), str):
            crumb["message"] = redact(crumb["message"])
    # An exception's text may be a provider library's, with a credential in it.
    for exception in (event.get("exception") or {}).get("values", []):
        if isinstance(exception.get("value"), str):
            exception["value"] = redact(exception["value"])
    logentry = event.get("logentry") or {}
    for key in ("message", "formatted"):
        if isinstance(logentry.get(key), str):
            logentry[key] = redact(logentry[key])
    return event


def sentry_init(dsn: str) -> None:
    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(transaction_style="url"), CeleryIntegration()],
        send_default_pii=False,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        before_send=_redacted,
    )
