"""A writer's transaction: its own when its caller has none, the caller's otherwise."""

from functools import wraps

from django.db import transaction


def in_transaction(writer):
    """Run the writer inside a transaction, so that what it writes (a record and the event
    it records) commits together. A caller already in a transaction keeps it as it is: no
    savepoint is added, and an error the caller catches leaves its transaction usable."""

    @wraps(writer)
    def wrapper(*args, **kwargs):
        if transaction.get_connection().in_atomic_block:
            return writer(*args, **kwargs)
        with transaction.atomic():
            return writer(*args, **kwargs)

    return wrapper
