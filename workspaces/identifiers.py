"""What the ad platforms know a lead by: its phone number, Meta's click and browser ids and
Google's click ids, read and normalised for the lead writers, and masked for display.

A phone is kept in E.164 (`+4915112345678`), read with the `phonenumbers` library; a number
written without its country code is read in the workspace's country (its `country`, else
the country of its time zone). Meta's click id is kept in its cookie form,
`fb.1.<milliseconds>.<fbclid>`: given a bare `fbclid`, the form is built with the lead's
creation time, as Meta's own pixel builds it at the click.
"""

from __future__ import annotations

import re
from datetime import datetime

import phonenumbers
from babel.core import get_global

from .services.base import RecordInvalid

# The identifiers a lead may carry, as the import and the providers name them.
CLICK_IDS = ("fbc", "fbp", "gclid", "gbraid", "wbraid")
IDENTIFIERS = ("phone", *CLICK_IDS)
IDENTIFIER_NAMES = {
    "phone": "Phone",
    "fbc": "Meta click",
    "fbp": "Meta browser",
    "gclid": "Google click",
    "gbraid": "Google app click (gbraid)",
    "wbraid": "Google web-to-app click (wbraid)",
}
_FBC = re.compile(r"fb\.[0-9]\.[0-9]{1,16}\.\S{1,400}", re.ASCII)
_TOKEN = re.compile(r"[\x21-\x7e]{1,200}", re.ASCII)


def workspace_country(workspace) -> str:
    """The workspace's country, else its time zone's (Babel's zone territories), else ""."""
    if workspace.country:
        return workspace.country
    return get_global("zone_territories").get(workspace.timezone, "")


def phone_e164(text: str, *, country: str) -> str:
    """The number in E.164, or RecordInvalid naming `phone` when it is not one."""
    text = (text or "").strip()
    if not text:
        return ""
    try:
        number = phonenumbers.parse(text, country or None)
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_valid_number(number):
        where = f" in {country}" if country else ""
        raise RecordInvalid(
            "phone",
            f"{text!r} is not a phone number{where}: write it with its country code, "
            "like +44 20 7946 0958.",
        )
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def fbc_of(*, fbclid: str, fbc: str, created_at: datetime) -> str:
    """Meta's click id in its cookie form: `fbc` as given, or built from a bare `fbclid`
    and the lead's creation time; RecordInvalid naming the member that is not one."""
    fbc, fbclid = (fbc or "").strip(), (fbclid or "").strip()
    if fbc:
        if not _FBC.fullmatch(fbc):
            raise RecordInvalid("fbc", "Write Meta's click cookie as fb.1.<milliseconds>.<fbclid>.")
        return fbc
    if not fbclid:
        return ""
    if not _TOKEN.fullmatch(fbclid):
        raise RecordInvalid("fbclid", "A click id is 1 to 200 visible characters.")
    return f"fb.1.{int(created_at.timestamp() * 1000)}.{fbclid}"


def token_of(value: str, *, field: str) -> str:
    """A browser or click id (fbp, gclid, gbraid, wbraid) as given, trimmed."""
    value = (value or "").strip()
    if value and not _TOKEN.fullmatch(value):
        raise RecordInvalid(field, "An id of 1 to 200 visible characters, without spaces.")
    return value


def identifiers_read(*, workspace, created_at: datetime, values: dict) -> dict:
    """{phone, fbc, fbp, gclid, gbraid, wbraid} normalised from a lead's values (which may
    name `fbclid` instead of `fbc`); a member not given reads ""."""
    return {
        "phone": phone_e164(values.get("phone", ""), country=workspace_country(workspace)),
        "fbc": fbc_of(
            fbclid=values.get("fbclid", ""), fbc=values.get("fbc", ""), created_at=created_at
        ),
        **{name: token_of(values.get(name, ""), field=name) for name in CLICK_IDS[1:]},
    }


def masked(value: str) -> str:
    """A phone or click id as the app and the journey show it: its last four characters."""
    if not value:
        return ""
    return "…" + value[-4:] if len(value) > 4 else "…"
