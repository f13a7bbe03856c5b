"""{{ member.role|named:"role" }} writes a code as its display name (core/words.py):
"sdr" -> "SDR", "follow_up" -> "Follow-up"."""

from django import template

from core import words

register = template.Library()


@register.filter
def named(value, kind: str) -> str:
    return words.word(kind, value)
