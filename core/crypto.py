"""Symmetric encryption for secrets the service must keep readable (Fernet).

FIELD_ENCRYPTION_KEY holds one or more keys: the first encrypts, every one decrypts
(`MultiFernet`). To rotate, put a new key first, run `manage.py rotate_field_encryption`,
then drop the old key.
"""

import json
from functools import cache

from cryptography.fernet import Fernet, MultiFernet
from django.conf import settings
from rest_framework.utils.encoders import JSONEncoder


@cache
def _fernet() -> MultiFernet:
    return MultiFernet([Fernet(key) for key in settings.FIELD_ENCRYPTION_KEYS])


def reset_keys() -> None:
    """Forget the keys read from the settings (a test that changes them calls this)."""
    _fernet.cache_clear()


def encrypt_json(value) -> bytes:
    return _fernet().encrypt(
        json.dumps(value, separators=(",", ":"), cls=JSONEncoder).encode("utf-8")
    )


def decrypt_json(blob: bytes):
    return json.loads(_fernet().decrypt(bytes(blob)).decode("utf-8"))


def encrypt_text(value: str) -> bytes:
    return _fernet().encrypt(value.encode("utf-8"))


def decrypt_text(blob: bytes) -> str:
    return _fernet().decrypt(bytes(blob)).decode("utf-8")


def rotate(blob: bytes) -> bytes:
    """The same secret encrypted again with the first key."""
    return _fernet().rotate(bytes(blob))


# The encrypted columns of every app: (model, field names, the count's name). An app that
# stores a secret registers its columns in its AppConfig.ready().
_ENCRYPTED_COLUMNS: list[tuple[type, tuple[str, ...], str]] = []


def encrypted_columns_register(model, *fields: str, label: str) -> None:
    if not any(registered is model for registered, _, _ in _ENCRYPTED_COLUMNS):
        _ENCRYPTED_COLUMNS.append((model, fields, label))


def encrypted_columns_rotate() -> dict[str, int]:
    """Encrypt every registered column again with the first key; the rows rewritten per label.

    The caller holds the transaction (and records what it did)."""
    counts = {}
    for model, fields, label in _ENCRYPTED_COLUMNS:
        counts[label] = 0
        rows = model.objects.select_for_update().only("pk", *fields)
        for row in rows:
            changed = [name for name in fields if getattr(row, name) is not None]
            for name in changed:
                setattr(row, name, rotate(getattr(row, name)))
            if changed:
                row.save(update_fields=changed)
                counts[label] += 1
    return counts
