import hashlib
import threading

import pytest
from django.db import connection, transaction

from core import locks


def test_the_key_is_the_signed_first_8_bytes_of_the_names_sha256():
    digest = hashlib.sha256(b"eod:x").digest()[:8]
    assert locks.advisory_key("eod:x") == int.from_bytes(digest, "big", signed=True)
    assert -(2**63) <= locks.advisory_key("anything") < 2**63
    assert locks.advisory_key("a") != locks.advisory_key("b")


def test_the_key_of_a_known_name():
    # sha256(b"") begins e3b0c44298fc1c14: bit 63 is set, so the key is negative.
    assert locks.advisory_key("") == -2039914840885289964


@pytest.mark.django_db
def test_sqlite_takes_every_lock():
    if connection.vendor == "postgresql":
        pytest.skip("SQLite only")
    with transaction.atomic():
        locks.lock("one")
        assert locks.try_lock("one") is True


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_lock_is_not_taken_by_another_transaction():
    taken = {}

    def other():
        with transaction.atomic():
            taken["other"] = locks.try_lock("shape:lock")
        connection.close()

    with transaction.atomic():
        locks.lock("shape:lock")
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert taken == {"other": False}
    with transaction.atomic():
        assert locks.try_lock("shape:lock") is True
