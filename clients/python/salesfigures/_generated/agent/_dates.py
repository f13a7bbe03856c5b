"""ISO 8601 dates and times, read with the standard library."""

import datetime
import re

_FRACTION = re.compile(r"\.(\d+)")


def isoparse(value: str) -> datetime.datetime:
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    text = _FRACTION.sub(lambda m: "." + (m.group(1) + "000000")[:6], text, count=1)
    return datetime.datetime.fromisoformat(text)
