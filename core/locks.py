"""Transaction-level advisory locks on PostgreSQL, named by a string: the one way the apps
make concurrent writes that name the same thing wait for (or skip) each other. SQLite runs
one writer at a time, so there they do nothing."""

import hashlib

from django.db import connection


def advisory_key(name: str) -> int:
    """The signed 64-bit key of pg_advisory_xact_lock for a name: its SHA-256's first 8 bytes."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def lock(name: str) -> None:
    """Wait until no other transaction holds the lock on name; held until this one ends."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [advisory_key(name)])


def try_lock(name: str) -> bool:
    """Take the lock on name if no other transaction holds it; False when one does."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [advisory_key(name)])
        return bool(cursor.fetchone()[0])
