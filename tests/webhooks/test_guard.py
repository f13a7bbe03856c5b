"""The request-forgery guard on IPv6 addresses that carry an IPv4 address: the mapped,
NAT64 and 6to4 forms are judged by the IPv4 address they carry; the forms no public
network routes are refused whatever they carry."""

import pytest

from webhooks import guard

HOST = "hooks.example.test"


@pytest.fixture
def resolving_to(monkeypatch, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False  # as in production

    def resolve(address):
        monkeypatch.setattr(guard, "_resolve", lambda host, port: [address])

    return resolve


def _refusal(says):
    return f"The host {HOST} resolves to {says}; webhooks go to public addresses only."


@pytest.mark.parametrize(
    ("address", "says"),
    [
        # IPv4-mapped (::ffff:0:0/96)
        ("::ffff:127.0.0.1", "a loopback address"),
        ("::ffff:10.0.0.1", "a private address"),
        # NAT64's well-known prefix (64:ff9b::/96)
        ("64:ff9b::127.0.0.1", "a loopback address"),
        ("64:ff9b::10.0.0.1", "a private address"),
        ("64:ff9b::169.254.169.254", "a link-local address"),
        ("64:ff9b::100.64.0.1", "a private address"),
        # 6to4 (2002::/16), the IPv4 address in bits 16 to 48
        ("2002:7f00:1::1", "a loopback address"),
        ("2002:a00:1::1", "a private address"),
        ("2002:a9fe:a9fe::", "a link-local address"),
        # IPv4-compatible (::/96), whatever it carries
        ("::127.0.0.1", "a reserved address"),
        ("::10.0.0.1", "a reserved address"),
        ("::93.184.215.14", "a reserved address"),
        # IPv4-translated (::ffff:0:0:0/96), whatever it carries
        ("::ffff:0:127.0.0.1", "a reserved address"),
        ("::ffff:0:10.0.0.1", "a reserved address"),
        ("::ffff:0:93.184.215.14", "a reserved address"),
        # NAT64 for local use (64:ff9b:1::/48), whatever it carries
        ("64:ff9b:1::7f00:1", "a reserved address"),
        ("64:ff9b:1::a00:1", "a reserved address"),
        ("64:ff9b:1::5db8:d70e", "a reserved address"),
        # Unassigned IPv6 space
        ("4000::1", "a reserved address"),
    ],
)
def test_an_address_carrying_a_refused_ipv4_address_is_refused(resolving_to, address, says):
    resolving_to(address)
    with pytest.raises(guard.UrlRefused) as refused:
        guard.url_check(f"https://{HOST}/hook")
    assert refused.value.message == _refusal(says)


@pytest.mark.parametrize(
    "address",
    ["::ffff:93.184.215.14", "64:ff9b::93.184.215.14", "2002:5db8:d70e::1", "2606:2800:21f::1"],
)
def test_an_address_carrying_a_public_ipv4_address_is_accepted_and_called_as_given(
    resolving_to, address
):
    """A NAT64 or 6to4 network reaches the public IPv4 host through its translator: the
    attempt connects to the IPv6 address checked."""
    resolving_to(address)
    target = guard.url_check(f"https://{HOST}/hook")
    assert target.address == address
    assert target.pinned_url == f"https://[{address}]:443/hook"


def test_loopback_carried_by_nat64_follows_the_development_setting(resolving_to, settings):
    resolving_to("64:ff9b::127.0.0.1")
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    assert guard.url_check(f"https://{HOST}/hook").address == "64:ff9b::127.0.0.1"
