"""Schemathesis hooks of `make fuzz` (loaded through scripts/fuzz.toml).

Generated cases repeat the same few Idempotency-Key values, so most writes would answer the
first write's 422 `refused.idempotency_key_reused` and never reach validation or the
services. A key of valid length gets a unique suffix; a key of invalid length is sent as
generated, to be refused.
"""

import uuid

import schemathesis

MIN_LENGTH, MAX_LENGTH = 8, 200
HEADER = "Idempotency-Key"


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers or {}
    key = headers.get(HEADER)
    if isinstance(key, str) and MIN_LENGTH <= len(key) <= MAX_LENGTH:
        headers[HEADER] = f"{key[: MAX_LENGTH - 33]}-{uuid.uuid4().hex}"
