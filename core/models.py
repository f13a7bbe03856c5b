"""Rows every app stands on: the claimed idempotency keys."""

from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """A claimed Idempotency-Key and, once the write committed, the answer it gave.

    The scope is the workspace or agency and the principal; the fingerprint is the
    method, the path and the canonical JSON body.
    """

    scope = models.CharField(max_length=200)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    # The stored answer, Fernet-encrypted JSON (answers may carry a secret).
    response = models.BinaryField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_scope_key"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]
        # The table keeps the name it was created under.
        db_table = "tokens_idempotencyrecord"
