"""Schemathesis hooks of `make fuzz` (loaded through scripts/fuzz.toml).

Generated cases repeat the same few Idempotency-Key values, so most writes would answer the
first write's 422 `refused.idempotency_key_reused` and never reach validation or the
services. A key of valid length gets a unique suffix; a key of invalid length is sent as
generated, to be refused.

A webhook endpoint's generated address keeps its scheme, path and query but its host is
replaced by one that resolves nowhere: the run's deliveries (made in the web process) must
never go to a generated public address, which would also hold each request for the
delivery's timeout. Addresses with no host are sent as generated, to be refused.
"""

import uuid
from urllib.parse import urlsplit, urlunsplit

import schemathesis

MIN_LENGTH, MAX_LENGTH = 8, 200
HEADER = "Idempotency-Key"
ENDPOINTS = "/api/v1/webhook-endpoints"
NOWHERE = "hooks.example.com"


def _nowhere(url):
    """The address with its host replaced by one that resolves nowhere (or as it is)."""
    if not isinstance(url, str):
        return url
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return url
    if not host:
        return url
    return urlunsplit((parts.scheme, NOWHERE, parts.path, parts.query, parts.fragment))


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers or {}
    key = headers.get(HEADER)
    if isinstance(key, str) and MIN_LENGTH <= len(key) <= MAX_LENGTH:
        headers[HEADER] = f"{key[: MAX_LENGTH - 33]}-{uuid.uuid4().hex}"
    body = case.body
    if case.path.startswith(ENDPOINTS) and isinstance(body, dict) and "url" in body:
        body["url"] = _nowhere(body["url"])
