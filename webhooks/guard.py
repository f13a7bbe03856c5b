"""Where the service may send a webhook: a guard against server-side request forgery.

An endpoint's URL is https (http only on loopback), at most 2,000 characters, without
credentials, and every address its host resolves to is public: a private, loopback,
link-local, shared, reserved or multicast address is refused. An IPv6 address that carries
an IPv4 address (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 address it carries; the
forms no public network routes (IPv4-compatible, IPv4-translated, local-use NAT64) are
refused. Loopback is allowed only
while ``WEBHOOK_ALLOW_LOOPBACK`` is on (by default, when ``DEBUG`` is), so a developer
can point an endpoint at a local receiver.

The check runs when an endpoint is saved and again before every attempt, because a
name's addresses can change; the attempt then connects to the address it checked, so a
second, different answer of the DNS cannot slip in between. A name that does not
resolve when it is saved is accepted (its attempts fail until it does).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

MAX_URL_LENGTH = 2000


class UrlRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UrlUnresolved(UrlRefused):
    """The host has no address now: refused for an attempt, accepted when saved."""


@dataclass(frozen=True)
class Target:
    url: str
    host: str
    port: int
    # The address to connect to, checked (None for a name not checked by resolving).
    address: str | None

    @property
    def pinned_url(self) -> str:
        """The URL with its host replaced by the checked address."""
        parts = urlsplit(self.url)
        address = f"[{self.address}]" if ":" in self.address else self.address
        netloc = f"{address}:{self.port}"
        return parts._replace(netloc=netloc).geturl()

    @property
    def host_header(self) -> str:
        parts = urlsplit(self.url)
        return parts.netloc


def _resolve(host: str, port: int) -> list[str]:
    """The host's addresses (the system's resolver); empty when it has none."""
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        return []
    return list(dict.fromkeys(answer[4][0] for answer in answers))


def _loopback_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_LOOPBACK", settings.DEBUG))


# IPv6 forms that carry an IPv4 address: the other end is that IPv4 host, so the address
# is judged by the IPv4 address it carries.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # NAT64's well-known prefix (RFC 6052)
# IPv6 forms no public network routes, whose IPv4 address is not judged: refused whatever
# they carry.
_NOT_ROUTED = (
    ipaddress.ip_network("::/96"),  # IPv4-compatible, deprecated (RFC 4291 2.5.5.1)
    ipaddress.ip_network("::ffff:0:0:0/96"),  # IPv4-translated, SIIT (RFC 2765)
    ipaddress.ip_network("64:ff9b:1::/48"),  # NAT64 for local use (RFC 8215)
)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4
    (2002::/16) address carries; None for any other address."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.sixtofour


def _address_refusal(address: str) -> str | None:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        ip = _embedded_ipv4(ip) or ip
    if ip.is_loopback:
        return None if _loopback_allowed() else "a loopback address"
    if any(ip in network for network in _NOT_ROUTED):
        return "a reserved address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_private or not ip.is_global:
        return "a private address"
    if ip.is_reserved:
        return "a reserved address"
    return None


def url_parse(url: str) -> tuple[str, str, int]:
    """The URL's scheme, host and port, or UrlRefused saying what is wrong with it."""
    if not isinstance(url, str) or not url:
        raise UrlRefused("Give the endpoint's URL, https://…")
    if len(url) > MAX_URL_LENGTH:
        raise UrlRefused(f"The URL is longer than {MAX_URL_LENGTH} characters.")
    if not url.isascii() or any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise UrlRefused("The URL holds spaces or characters a URL cannot hold; encode them.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UrlRefused("That is not a URL the service can call.") from None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if scheme not in ("https", "http") or not host:
        raise UrlRefused("The URL must start with https:// and name a host.")
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("The URL must not hold a user name or password.")
    if parts.fragment:
        raise UrlRefused("The URL must not hold a fragment (#…).")
    return scheme, host, port or (443 if scheme == "https" else 80)


def url_check(url: str, *, unresolved_ok: bool = False) -> Target:
    """The target of a URL the service may call, its address checked; UrlRefused if not."""
    scheme, host, port = url_parse(url)
    addresses = _resolve(host, port)
    if scheme == "http" and not (
        addresses and _loopback_allowed() and all(_is_loopback(a) for a in addresses)
    ):
        raise UrlRefused(
            "The URL must start with https:// (http reaches only a local receiver, in development)."
        )
    if not addresses:
        if unresolved_ok:
            return Target(url=url, host=host, port=port, address=None)
        raise UrlUnresolved(f"The host {host} could not be resolved.")
    for address in addresses:
        refusal = _address_refusal(address)
        if refusal is not None:
            raise UrlRefused(
                f"The host {host} resolves to {refusal}; webhooks go to public addresses only."
            )
    return Target(url=url, host=host, port=port, address=addresses[0])


def _is_loopback(address: str) -> bool:
    return ipaddress.ip_address(address).is_loopback
