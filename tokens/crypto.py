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


# Columns that hold values encrypted here, by model ("app_label.Model") -> (what the
# rotation counts them as, the column names). Apps above this one register theirs when
# they load (AppConfig.ready), so the rotation reaches them without importing them.
ENCRYPTED_COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {}


def encrypted_columns_register(model_label: str, *, counted_as: str, columns: tuple[str, ...]):
    ENCRYPTED_COLUMNS[model_label] = (counted_as, tuple(columns))
