"""Symmetric encryption for secrets the service must keep readable (Fernet)."""

import base64
import hashlib
import json
from functools import cache

from cryptography.fernet import Fernet
from django.conf import settings
from rest_framework.utils.encoders import JSONEncoder


@cache
def _fernet() -> Fernet:
    key = settings.FIELD_ENCRYPTION_KEY
    if not key:
        # Embedded default: a key derived from SECRET_KEY, so nothing needs setting up.
        digest = hashlib.sha256(("field-encryption:" + settings.SECRET_KEY).encode()).digest()
        key = base64.urlsafe_b64encode(digest).decode()
    return Fernet(key)


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
