"""The one set of filters every page writes dates, times, numbers and money with (see
core/display.py): {{ moment|day }} 26 Oct 2026, {{ moment|clock }} 14:05,
{{ moment|moment }} 26 Oct 2026, 14:05, in the page's time zone, which
{% display_zone %} names once ({{ moment|moment_utc }} 26 Oct 2026, 13:05 UTC in emails); {{ amount|money:currency }} and {{ fraction|rate }} as the
page's locale writes them."""

from django import template

from core import display

register = template.Library()


@register.filter
def day(value) -> str:
    return display.day_text(value)


@register.filter
def clock(value) -> str:
    return display.clock_text(value)


@register.filter
def moment(value) -> str:
    return display.moment_text(value)


@register.filter
def moment_utc(value) -> str:
    """5 Dec 2026, 03:35 UTC, whatever the page's zone: how emails state times."""
    return display.utc_moment_text(value)


@register.filter
def money(value, currency: str) -> str:
    if value is None or value == "":
        return "—"
    return display.money_text(value, currency)


@register.filter
def number(value) -> str:
    if value is None or value == "":
        return "—"
    return display.number_text(value)


@register.filter
def rate(value) -> str:
    if value is None or value == "":
        return "—"
    return display.rate_text(value)


@register.simple_tag
def display_zone() -> str:
    """The page's time zone, by its IANA name."""
    return display.display_zone_name()
