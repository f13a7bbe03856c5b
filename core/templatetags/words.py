"""{{ member.role|named:"role" }} writes a code as its display name (core/words.py):
"sdr" -> "SDR", "follow_up" -> "Follow-up"."""

import zoneinfo

from django import template
from django.utils import timezone

from core import choices, display, words

register = template.Library()


@register.filter
def named(value, kind: str) -> str:
    return words.word(kind, value)


@register.simple_tag
def zone_city() -> str:
    """The page's time zone as people know it, by its city and its offset from UTC now:
    "New York, UTC-05:00" (empty for UTC, which needs no city)."""
    name = display.display_zone_name()
    if name == "UTC" or name not in zoneinfo.available_timezones():
        return ""
    offset = timezone.now().astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
    return f"{choices.zone_city(name)}, {choices.offset_text(offset)}"
