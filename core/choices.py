"""What the settings pages offer to pick instead of asking for codes: time zones by city
with their UTC offset, locales with a sample of how they write money and dates, and
currencies by name (Babel's names, in English, the pages' language)."""

import zoneinfo
from datetime import date, datetime
from functools import lru_cache

import phonenumbers
from babel import Locale
from babel.core import get_global
from babel.dates import format_date, get_timezone_location
from babel.numbers import format_currency, get_currency_name
from django.utils import timezone

from core.money import CURRENCY_EXPONENTS

# The locales offered first; the workspace's own is offered too, whichever it is.
COMMON_LOCALES = (
    "en",
    "en_US",
    "en_GB",
    "en_AU",
    "en_CA",
    "en_IE",
    "en_IN",
    "en_NZ",
    "en_ZA",
    "de",
    "de_AT",
    "de_CH",
    "fr",
    "fr_BE",
    "fr_CA",
    "fr_CH",
    "es",
    "es_MX",
    "es_AR",
    "it",
    "nl",
    "nl_BE",
    "pt",
    "pt_BR",
    "pt_PT",
    "sv",
    "da",
    "nb",
    "fi",
    "pl",
    "cs",
    "ja",
    "ko",
    "zh",
    "ar",
    "he",
    "tr",
    "id",
    "hi",
)
SAMPLE_AMOUNT = 1234.5
SAMPLE_DAY = date(2026, 11, 28)


def offset_text(offset) -> str:
    """UTC+05:30, UTC-05:00, UTC+00:00."""
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return "UTC+00:00"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def zone_city(name: str) -> str:
    """The city a time zone is named after, as people know it ("New York")."""
    if name == "UTC":
        return "Coordinated Universal Time"
    city = get_timezone_location(name, locale="en", return_city=True)
    return city.rsplit("/", 1)[-1].replace("_", " ")


def _zone_names() -> list[str]:
    canonical = set(get_global("zone_territories")) & zoneinfo.available_timezones()
    return sorted({name for name in canonical if not name.startswith("Etc/")} | {"UTC"})


@lru_cache(maxsize=4)
def _zones_on(day: date) -> tuple[tuple[str, str, str], ...]:
    """Each zone with its city and its offset on that day, by offset then city."""
    now = datetime.combine(day, datetime.min.time()).replace(tzinfo=zoneinfo.ZoneInfo("UTC"))
    rows = []
    for name in _zone_names():
        offset = now.astimezone(zoneinfo.ZoneInfo(name)).utcoffset()
        rows.append((offset, zone_city(name), name))
    rows.sort()
    return tuple((name, city, offset_text(offset)) for offset, city, name in rows)


def timezone_choices(today: date | None = None) -> list[tuple[str, str]]:
    """(IANA name, "New York · UTC-05:00 · America/New_York") for every zone people live in."""
    day = today or timezone.now().date()
    return [(name, f"{city} · {offset} · {name}") for name, city, offset in _zones_on(day)]


def zone_from_text(text: str) -> str | None:
    """The IANA name typed, or the zone of the city typed ("new york"), else None."""
    value = (text or "").strip()
    if value in zoneinfo.available_timezones():
        return value
    wanted = value.casefold()
    for name, city, _offset in _zones_on(timezone.now().date()):
        if wanted and wanted == city.casefold():
            return name
    return None


def locale_label(identifier: str, currency: str) -> str:
    """English (United Kingdom) — £1,234.50 · 28 Nov 2026."""
    locale = Locale.parse(identifier)
    money = format_currency(SAMPLE_AMOUNT, currency, locale=locale)
    day = format_date(SAMPLE_DAY, "medium", locale=locale)
    return f"{locale.get_display_name('en')} — {money} · {day}"


def locale_choices(current: str, currency: str) -> list[tuple[str, str]]:
    identifiers = list(COMMON_LOCALES)
    if current and current not in identifiers:
        identifiers.insert(0, current)
    return [(identifier, locale_label(identifier, currency)) for identifier in identifiers]


def currency_choices() -> list[tuple[str, str]]:
    """(ISO code, "US Dollar (USD)") of every currency the service holds, by name."""
    rows = [
        (code, f"{get_currency_name(code, locale='en')} ({code})") for code in CURRENCY_EXPONENTS
    ]
    return sorted(rows, key=lambda row: row[1].casefold())


def country_choices(zone_country: str) -> list[tuple[str, str]]:
    """("", "From the time zone (…)") then (ISO 3166 alpha-2, "Germany") of every country,
    by name: where a phone number written without its country code is read."""
    names = Locale("en").territories
    countries = sorted(
        ((code, names.get(code, code)) for code in phonenumbers.SUPPORTED_REGIONS),
        key=lambda row: row[1].casefold(),
    )
    zone_name = names.get(zone_country, "")
    first = f"From the time zone ({zone_name})" if zone_name else "From the time zone"
    return [("", first), *countries]
