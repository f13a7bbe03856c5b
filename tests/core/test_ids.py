import uuid

import pytest

from core.ids import parse_uuid

ID = "4b0c7f0e-2f7e-4a55-9d2b-6c7f1e2a9b10"


def test_text_and_uuids_are_read():
    assert parse_uuid(ID) == uuid.UUID(ID)
    assert parse_uuid(ID.upper()) == uuid.UUID(ID)
    assert parse_uuid(uuid.UUID(ID)) == uuid.UUID(ID)


@pytest.mark.parametrize("value", [None, "", "not-a-uuid", 12, ID[:-1], [ID], {"id": ID}])
def test_anything_else_is_none(value):
    assert parse_uuid(value) is None
