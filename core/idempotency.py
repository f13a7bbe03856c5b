"""Idempotent writes: one mechanism for every POST and PUT of the service.

The key is scoped to (workspace or agency, principal); the fingerprint is the method,
the path and the canonical JSON body. The key is claimed and the answer stored in the
same transaction as the write itself, so a crash between the two leaves nothing behind
and a retry simply runs again. On PostgreSQL a transaction-level advisory lock on the
key tells a concurrent duplicate that the first is still running (409).
"""

import hashlib
import json

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.response import Response

from core.errors import ApiError, Conflict, Unprocessable

from . import locks
from .crypto import decrypt_json, encrypt_json
from .models import IdempotencyRecord

HEADER = "HTTP_IDEMPOTENCY_KEY"
MIN_LENGTH, MAX_LENGTH = 8, 200
# Answers that are never stored: the retry must run again.
# Answers a retry with the same key must not replay: refusals of the caller, and a rate
# limit (the retry after Retry-After is meant to run).
NOT_STORED = {401, 403, 429}


class IdempotencyKeyRequired(ApiError):
    status_code = 400
    reason = "refused.idempotency_key_required"


def _fingerprint(request) -> str:
    # The whole body, whatever its shape: a list or a string must not pass for an empty
    # object and replay another request's answer.
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    material = f"{request.method}\n{request.path}\n{canonical}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def _key(request) -> str:
    key = request.META.get(HEADER)
    if key is None or key == "":
        raise IdempotencyKeyRequired(
            "Every write needs an Idempotency-Key header (8 to 200 characters, unique to the write).",
            field="Idempotency-Key",
        )
    if not MIN_LENGTH <= len(key) <= MAX_LENGTH:
        raise IdempotencyKeyRequired(
            f"The Idempotency-Key header must be {MIN_LENGTH} to {MAX_LENGTH} characters long.",
            field="Idempotency-Key",
        )
    if not (key.isascii() and key.isprintable()):
        raise IdempotencyKeyRequired(
            "The Idempotency-Key header must be printable ASCII characters, e.g. a UUID.",
            field="Idempotency-Key",
        )
    return key


def _try_lock(scope: str, key: str) -> bool:
    # SQLite runs one writer at a time (BEGIN IMMEDIATE): there it always succeeds.
    return locks.try_lock(f"{scope}\n{key}")


def _replay(record: IdempotencyRecord) -> Response:
    response = Response(decrypt_json(record.response), status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent_write(request, principal, perform) -> Response:
    """Run perform() once per key; perform returns a Response or raises an ApiError."""
    key = _key(request)
    scope = principal.idempotency_scope
    fingerprint = _fingerprint(request)
    with transaction.atomic():
        if not _try_lock(scope, key):
            raise Conflict(
                "A write with this Idempotency-Key is still running; retry in a moment.",
                reason="refused.idempotency_in_progress",
            )
        expired_before = timezone.now() - settings.IDEMPOTENCY_KEY_TTL
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is not None and record.created_at < expired_before:
            record.delete()
            record = None
        if record is not None:
            if record.fingerprint != fingerprint:
                raise Unprocessable(
                    "This Idempotency-Key was used for a different request; use a new key.",
                    reason="refused.idempotency_key_reused",
                )
            if record.completed_at is not None:
                return _replay(record)
            # A claim without an answer cannot outlive its transaction; take it over.
        else:
            record = IdempotencyRecord.objects.create(scope=scope, key=key, fingerprint=fingerprint)

        try:
            with transaction.atomic():
                response = perform()
        except ApiError as error:
            if error.status_code >= 500 or error.status_code in NOT_STORED:
                raise
            if error.reason.startswith("refused.idempotency"):
                raise
            response = Response(error.body(), status=error.status_code)
        if response.status_code >= 500 or response.status_code in NOT_STORED:
            transaction.set_rollback(True)
            return response
        record.status_code = response.status_code
        record.response = encrypt_json(response.data)
        record.completed_at = timezone.now()
        record.save(update_fields=["status_code", "response", "completed_at"])
        return response


def purge_expired(now=None) -> int:
    before = (now or timezone.now()) - settings.IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=before).delete()
    return deleted
