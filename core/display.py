"""How a page writes dates, times, money, numbers and rates: one format for every page.

A page of a workspace activates the workspace's display (display_activate): its time
zone, which Django's own date filters then use too, and its locale, Babel's name of the
way people there write numbers and money (`en`: $118,624.98; `de`: 69.500,00 €). Dates are
written `26 Oct 2026` and times `14:05` whatever the locale, and the page names the zone
once. Outside a workspace (a page with no workspace, an agency's pages) the zone is UTC
and the locale `en`, and the page says so the same way.

DisplayMiddleware resets both at the start and end of every request, so nothing a page
activated outlives it.
"""

from __future__ import annotations

import re
import zoneinfo
from contextvars import ContextVar
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.localedata import locale_identifiers
from babel.numbers import NumberPattern, parse_pattern
from django.utils import timezone

from .times import parse_iso

DEFAULT_LOCALE = "en"
TIME_FORMAT = "%H:%M"
SECONDS_FORMAT = "%H:%M:%S"
MINUS = "\u2212"  # the minus sign, as pages print it
TIMES = "\u00d7"  # the multiplication sign of a multiple (4.3 times)

# The request's locale: a context variable, which Django's threads and tasks each keep
# apart, read once per figure written.
_locale: ContextVar[str] = ContextVar("display_locale", default=DEFAULT_LOCALE)


def locale_valid(value: str) -> str | None:
    """The locale as Babel names it ("de_DE"), or None when Babel knows no such locale."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = Locale.parse(value.strip().replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    name = str(parsed)
    return name if name in _known_locales() else None


def _known_locales() -> frozenset[str]:
    known = getattr(_known_locales, "cache", None)
    if known is None:
        known = frozenset(locale_identifiers())
        _known_locales.cache = known
    return known


def display_activate(*, zone_name: str, locale: str = DEFAULT_LOCALE) -> None:
    """Write this request's dates in zone_name and its numbers as locale writes them."""
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    timezone.activate(zone)
    _locale.set(locale_valid(locale) or DEFAULT_LOCALE)


def display_activate_workspace(workspace) -> None:
    display_activate(zone_name=workspace.timezone, locale=workspace.locale)


def display_reset() -> None:
    timezone.deactivate()
    _locale.set(DEFAULT_LOCALE)


def display_locale() -> str:
    return _locale.get()


def display_zone_name() -> str:
    return timezone.get_current_timezone_name()


class DisplayMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        display_reset()
        try:
            return self.get_response(request)
        finally:
            display_reset()


# Dates and times ---------------------------------------------------------------------


def _moment(value) -> datetime | date | None:
    """A datetime (aware, moved to the active zone), a date, or an ISO 8601 string of
    either; None for anything else. A date alone ("2026-11-20", as the API writes a day of
    the workspace's calendar) stays that date: it is never read as midnight UTC, which
    west of UTC is the evening before."""
    if isinstance(value, str):
        try:
            value = date.fromisoformat(value)
        except ValueError:
            value = parse_iso(value, naive_is_utc=True)
            if value is None:
                return None
    if isinstance(value, datetime):
        if timezone.is_naive(value):
            value = timezone.make_aware(value, zoneinfo.ZoneInfo("UTC"))
        return timezone.localtime(value)
    if isinstance(value, date):
        return value
    return None


def workspace_day_text(day: date) -> str:
    """A day of the workspace's calendar, 20 Nov 2026: the one function every date a page
    shows is written by (a moment's day, a chart point's day, a period's first and last).
    A date is a calendar day already, so no zone moves it."""
    return f"{day.day} {day.strftime('%b %Y')}"


def day_text(value) -> str:
    """26 Oct 2026: a date (or "2026-10-26") as it is, a moment's day in the active zone."""
    moment = _moment(value)
    if moment is None:
        return ""
    return workspace_day_text(moment.date() if isinstance(moment, datetime) else moment)


def clock_text(value) -> str:
    """14:05 in the active zone."""
    moment = _moment(value)
    return moment.strftime(TIME_FORMAT) if isinstance(moment, datetime) else ""


def moment_text(value) -> str:
    """26 Oct 2026, 14:05 in the active zone (a date alone: its day)."""
    moment = _moment(value)
    if moment is None:
        return ""
    if isinstance(moment, datetime):
        return f"{workspace_day_text(moment.date())}, {moment.strftime(TIME_FORMAT)}"
    return workspace_day_text(moment)


def moment_seconds_text(value) -> str:
    """26 Oct 2026, 14:05:09 in the active zone: a moment as moment_text writes it, to the
    second (the CSV exports' times)."""
    moment = _moment(value)
    if not isinstance(moment, datetime):
        return moment_text(value)
    return f"{workspace_day_text(moment.date())}, {moment.strftime(SECONDS_FORMAT)}"


def utc_clock_text(value) -> str:
    """03:35 UTC: a moment's time of day in UTC and labelled so (a moment of today, UTC's)."""
    moment = _moment(value)
    if not isinstance(moment, datetime):
        return ""
    return f"{moment.astimezone(UTC).strftime(TIME_FORMAT)} UTC"


def utc_moment_text(value) -> str:
    """5 Dec 2026, 03:35 UTC: a moment in UTC and labelled so, whatever zone the request
    activated. How emails state times: read anywhere and later, they name the zone with
    the time (the page that sends one may have its workspace's zone active)."""
    moment = _moment(value)
    if not isinstance(moment, datetime):
        return ""
    moment = moment.astimezone(UTC)
    return f"{workspace_day_text(moment.date())}, {moment.strftime(TIME_FORMAT)} UTC"


# Numbers, money and rates ------------------------------------------------------------


def _decimal(value) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


# Babel's format_decimal, format_currency and format_percent parse the locale and the
# pattern on every call, several times the cost of writing the number; a page writes a
# thousand numbers. The parsed locales and patterns are kept, and applied as those
# functions apply them (Babel's defaults: quantized to the pattern, grouped, Latin digits).
@lru_cache(maxsize=128)
def _babel_locale(locale: str) -> Locale:
    return Locale.parse(locale)


@lru_cache(maxsize=128)
def _pattern(format: str) -> NumberPattern:
    return parse_pattern(format)


# A page writes the same few values many times (zeros, small counts, a rate of 100%):
# each text is kept per value, type and locale (and currency), as Babel wrote it. A zero
# is written as 0 whatever its sign (Babel writes -0.0 as "-0"), so equal values, which
# share a text, always read the same.
_TEXTS_MAX = 4096


def _unsigned_zero(value):
    return 0 if value == 0 else value


def number_text(value, locale: str | None = None) -> str:
    """1,234 (en) or 1.234 (de); two decimals at most."""
    return _number_text(_unsigned_zero(value), locale or display_locale())


@lru_cache(maxsize=_TEXTS_MAX, typed=True)
def _number_text(value, locale: str) -> str:
    return _pattern("#,##0.##").apply(_decimal(value), _babel_locale(locale))


def money_text(value, currency: str, locale: str | None = None) -> str:
    """$118,624.98 (en, USD) or 69.500,00 € (de, EUR): the currency's own decimals."""
    return _money_text(_unsigned_zero(value), currency, locale or display_locale())


@lru_cache(maxsize=_TEXTS_MAX, typed=True)
def _money_text(value, currency: str, locale: str) -> str:
    parsed = _babel_locale(locale)
    return parsed.currency_formats["standard"].apply(_decimal(value), parsed, currency=currency)


@lru_cache(maxsize=128)
def _percent_pattern(locale: str) -> str:
    """The locale's own percent pattern with one decimal: #,##0.0% (en), #,##0.0 % (de)."""
    pattern = _babel_locale(locale).percent_formats[None].pattern
    one_decimal = re.sub(r"0(?=[^0-9#,.]*%)", "0.0", pattern)
    if one_decimal == pattern:  # the sign before the number (tr: %#,##0)
        one_decimal = re.sub(r"0(?=[^0-9#,.]*$)", "0.0", pattern)
    return one_decimal


def rate_text(value, locale: str | None = None) -> str:
    """A fraction as a percentage with one decimal: 42.3% (en), 42,3 % (de)."""
    return _rate_text(_unsigned_zero(value), locale or display_locale())


@lru_cache(maxsize=_TEXTS_MAX, typed=True)
def _rate_text(value, locale: str) -> str:
    return _pattern(_percent_pattern(locale)).apply(_decimal(value), _babel_locale(locale))


def multiple_text(value, locale: str | None = None, *, signed: bool = False) -> str:
    """A return as people write it, a multiple with one decimal and the multiplication sign
    (TIMES): "4.3" then the sign (en), "4,3" then the sign (de); signed (a change of a
    multiple): a plus, minus or plus-minus sign before it."""
    magnitude = _pattern("#,##0.0").apply(
        abs(_decimal(value)), _babel_locale(locale or display_locale())
    )
    if not signed:
        return f"{magnitude}{TIMES}"
    sign = "+" if value > 0 else (MINUS if value < 0 else "±")
    return f"{sign}{magnitude}{TIMES}"


def points_text(points, locale: str | None = None) -> str:
    """A change of a rate in percentage points, signed with a plus, minus
    or plus-minus sign: +1.5 pp."""
    sign = "+" if points > 0 else (MINUS if points < 0 else "±")
    magnitude = _pattern("#,##0.0").apply(
        abs(_decimal(points)), _babel_locale(locale or display_locale())
    )
    return f"{sign}{magnitude} pp"
