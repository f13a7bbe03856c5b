"""The rules for a workspace's embedded-app origins and its logo, wherever they are set
(the settings pages, an agency's plans and blueprints): one rule each, in one place."""

import re
from urllib.parse import urlsplit

from core.errors import InvalidField

# Plain http is for a developer's own machine only: anywhere else a network attacker
# could speak for the origin.
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
ORIGIN_PATTERN = re.compile(
    r"(https?)://([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::([0-9]{1,5}))?", re.ASCII
)
DEFAULT_PORTS = {"http": 80, "https": 443}
LOGO_MAX_LENGTH = 2000


def origin_normalise(value, *, field: str = "origins") -> str:
    """An origin as a browser sends it in its Origin header: scheme://host[:port] with a
    lowercase host and no default port, path, query, fragment or user; https, or http on
    a loopback host. Anything else is InvalidField naming the field."""
    if not isinstance(value, str):
        raise InvalidField(
            field, f"{field} must be an origin string, e.g. https://app.example.com."
        )
    shown = value.strip()
    origin = shown.rstrip("/").lower()
    match = ORIGIN_PATTERN.fullmatch(origin)
    if match is None:
        raise InvalidField(
            field,
            f"{shown!r} is not an origin: write scheme://host or scheme://host:port, "
            "with no path, e.g. https://app.example.com.",
        )
    scheme, host, port = match.groups()
    if port is not None:
        if not 0 < int(port) < 65536:
            raise InvalidField(field, f"{shown!r} has a port out of range.")
        if int(port) == DEFAULT_PORTS[scheme]:
            origin = f"{scheme}://{host}"
    if scheme == "http" and host not in LOOPBACK_HOSTS:
        raise InvalidField(
            field, f"{shown!r} must use https (plain http is for localhost and 127.0.0.1 only)."
        )
    return origin


def logo_url(value, *, field: str = "logo") -> str:
    """A logo is an https URL of an image, or empty for none."""
    if not isinstance(value, str):
        raise InvalidField(field, f"{field} must be a string (an https URL, or empty).")
    url = value.strip()
    if not url:
        return ""
    problem = None
    if len(url) > LOGO_MAX_LENGTH:
        problem = f"has at most {LOGO_MAX_LENGTH} characters"
    elif not url.isascii() or any(char.isspace() or ord(char) < 32 for char in url):
        problem = "must be a URL without spaces or control characters (percent-encode them)"
    else:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError:
            parts = None
        if parts is None or parts.scheme.lower() != "https" or not parts.hostname:
            problem = "must be an https URL, e.g. https://cdn.example.com/logo.png"
        elif parts.username is not None or parts.password is not None:
            problem = "must not carry a user name or password"
    if problem:
        raise InvalidField(field, f"{field} {problem}.")
    return url


def logo_is_safe(value) -> bool:
    """Whether a stored logo may be shown (anything stored before the rule answers empty)."""
    try:
        return bool(logo_url(value))
    except InvalidField:
        return False
