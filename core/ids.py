"""Reading ids from requests and bodies: text (or anything) to a UUID, or None when it is
not one, so the caller decides whether that is a 404, a 400 or nothing at all."""

import uuid


def parse_uuid(value) -> uuid.UUID | None:
    """value as a UUID; None for anything that is not one (None, numbers, bad text)."""
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None
