"""Settings read from the environment: the keys production must set, and transport
security derived from BASE_URL's scheme (whatever DEBUG is)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FERNET_A = "knoEw2Z9JKzYgcKtQUdyvDyGT6Sexd20ebh34wzYlIA="
FERNET_B = "G5tV81y3TbuduK1hKCx7in1uleDMXY7FRb9U2zYv16U="
DEV_SECRET_KEY = "embedded-development-key-not-for-production-0123456789-laptops-only"
DEV_FERNET = "6xabldhMlyfZWKTQu847pakV0y0tHtCgUEFIw_IwL3M="
NAMES = [
    "DEBUG",
    "SECRET_KEY",
    "FIELD_ENCRYPTION_KEYS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_PROXY_SSL_HEADER",
]
READ = (
    "import json, django; from django.conf import settings; django.setup(); "
    f"print(json.dumps({{name: getattr(settings, name) for name in {NAMES!r}}}))"
)


def load(**env) -> subprocess.CompletedProcess:
    """Import config.settings in a fresh process with only the given environment."""
    clean = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [sys.executable, "-c", READ],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def loaded(**env) -> dict:
    result = load(**env)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def refusal(**env) -> str:
    result = load(**env)
    assert result.returncode != 0
    return result.stderr.strip().splitlines()[-1]


KEY = "a-long-and-varied-secret-key-for-the-settings-tests-0123456789"

NO_SECRET_KEY = (
    "django.core.exceptions.ImproperlyConfigured: SECRET_KEY must be set (a long random "
    'string, e.g. `python -c "import secrets; print(secrets.token_urlsafe(50))"`); on a '
    "laptop, use DJANGO_SETTINGS_MODULE=config.settings_dev."
)
NO_ENCRYPTION_KEY = (
    "django.core.exceptions.ImproperlyConfigured: FIELD_ENCRYPTION_KEY must be set: one or "
    "more Fernet keys, comma-separated, the newest first "
    '(`python -c "from cryptography.fernet import Fernet; '
    'print(Fernet.generate_key().decode())"`).'
)


@pytest.mark.parametrize("debug", [None, "false", "true"])
def test_without_a_secret_key_the_service_refuses_to_start(debug):
    env = {} if debug is None else {"DEBUG": debug}
    assert refusal(**env) == NO_SECRET_KEY


@pytest.mark.parametrize("debug", [None, "false", "true"])
def test_without_an_encryption_key_the_service_refuses_to_start(debug):
    env = {"SECRET_KEY": KEY} if debug is None else {"SECRET_KEY": KEY, "DEBUG": debug}
    assert refusal(**env) == NO_ENCRYPTION_KEY


def test_debug_is_off_unless_set():
    values = loaded(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL="https://f.example")
    assert values["DEBUG"] is False


WEAK_KEY = (
    "django.core.exceptions.ImproperlyConfigured: SECRET_KEY is too weak: it needs at least "
    '50 characters, with more than 5 different characters (e.g. `python -c "import secrets; '
    'print(secrets.token_urlsafe(50))"`).'
)


@pytest.mark.parametrize("key", ["s" * 50, "abcd" * 13, "abcde" * 12, "short-but-varied-key-0123"])
@pytest.mark.parametrize("debug", ["false", "true"])
def test_a_weak_secret_key_is_refused(key, debug):
    assert refusal(SECRET_KEY=key, DEBUG=debug, FIELD_ENCRYPTION_KEY=FERNET_A) == WEAK_KEY


def test_six_different_characters_are_enough():
    key = "abcdef" * 9
    assert (
        loaded(SECRET_KEY=key, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL="https://f.ex")["SECRET_KEY"]
        == key
    )


@pytest.mark.parametrize("debug", [None, "false"])
def test_without_debug_the_development_secret_key_is_refused(debug):
    env = {} if debug is None else {"DEBUG": debug}
    assert refusal(
        SECRET_KEY=DEV_SECRET_KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL="https://f.ex", **env
    ) == (
        "django.core.exceptions.ImproperlyConfigured: SECRET_KEY is the public development key "
        'of config/settings_dev.py: set a key of your own (e.g. `python -c "import secrets; '
        'print(secrets.token_urlsafe(50))"`).'
    )


def test_without_debug_a_django_insecure_key_is_refused():
    key = "django-insecure-" + "k3y-0f-djang0s-pr0ject-t3mplate-f0r-dev-0nly-8x7w"
    assert refusal(SECRET_KEY=key, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL="https://f.ex") == (
        "django.core.exceptions.ImproperlyConfigured: SECRET_KEY is one of Django's "
        "development keys (django-insecure-…): set a key of your own (e.g. `python -c "
        '"import secrets; print(secrets.token_urlsafe(50))"`).'
    )
    # With DEBUG on (a laptop), both are keys like any other.
    assert loaded(SECRET_KEY=key, FIELD_ENCRYPTION_KEY=FERNET_A, DEBUG="true")["DEBUG"] is True
    assert loaded(SECRET_KEY=DEV_SECRET_KEY, FIELD_ENCRYPTION_KEY=DEV_FERNET, DEBUG="true")[
        "FIELD_ENCRYPTION_KEYS"
    ] == [DEV_FERNET]


@pytest.mark.parametrize(("keys", "position"), [(DEV_FERNET, 1), (f"{FERNET_A},{DEV_FERNET}", 2)])
def test_without_debug_the_development_encryption_key_is_refused_anywhere_in_the_list(
    keys, position
):
    assert refusal(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=keys, BASE_URL="https://f.ex") == (
        f"django.core.exceptions.ImproperlyConfigured: FIELD_ENCRYPTION_KEY: key {position} is "
        "the public development key of config/settings_dev.py: set a key of your own "
        '(`python -c "from cryptography.fernet import Fernet; '
        'print(Fernet.generate_key().decode())"`), and keep the development key out of the list.'
    )


@pytest.mark.parametrize(
    "spelling",
    [
        DEV_FERNET.replace("_", "/").replace("-", "+"),  # the `+/` alphabet
        DEV_FERNET[:10] + "." + DEV_FERNET[10:],  # a character outside the alphabet
        DEV_FERNET + "==",  # more padding
    ],
)
def test_the_development_encryption_key_is_refused_however_it_is_spelled(spelling):
    assert refusal(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=spelling, BASE_URL="https://f.ex") == (
        "django.core.exceptions.ImproperlyConfigured: FIELD_ENCRYPTION_KEY: key 1 is "
        "the public development key of config/settings_dev.py: set a key of your own "
        '(`python -c "from cryptography.fernet import Fernet; '
        'print(Fernet.generate_key().decode())"`), and keep the development key out of the list.'
    )


@pytest.mark.parametrize(
    "weak",
    [
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  # 32 zero bytes
        "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=",  # "A" 32 times
        "YWJjZGVhYmNkZWFiY2RlYWJjZGVhYmNkZWFiY2RlYWI=",  # "abcde" over and over
    ],
)
@pytest.mark.parametrize("debug", ["false", "true"])
def test_an_encryption_key_of_five_or_fewer_byte_values_is_refused(weak, debug):
    assert refusal(
        SECRET_KEY=KEY,
        FIELD_ENCRYPTION_KEY=f"{FERNET_A},{weak}",
        BASE_URL="https://f.ex",
        DEBUG=debug,
    ) == (
        "django.core.exceptions.ImproperlyConfigured: FIELD_ENCRYPTION_KEY: key 2 is too weak: "
        'its 32 bytes take 5 or fewer different values. Make one with `python -c "from '
        'cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`.'
    )


NOT_AN_ADDRESS = (
    "django.core.exceptions.ImproperlyConfigured: BASE_URL must be the service's public "
    "address, e.g. https://figures.example.com."
)
NOT_HTTPS = (
    "django.core.exceptions.ImproperlyConfigured: BASE_URL must be https (e.g. "
    "https://figures.example.com): plain http only for a loopback host (e.g. "
    "http://127.0.0.1:8000)."
)


@pytest.mark.parametrize(
    ("base_url", "message"),
    [
        ("ftp://figures.example.com", NOT_AN_ADDRESS),
        ("figures.example.com", NOT_AN_ADDRESS),
        ("https://", NOT_AN_ADDRESS),
        ("https://figures.example.com:https", NOT_AN_ADDRESS),
        ("javascript:alert(1)", NOT_AN_ADDRESS),
        ("http://figures.example.com", NOT_HTTPS),
        ("http://10.0.3.7:8000", NOT_HTTPS),
        ("http://127.0.0.1.example.com", NOT_HTTPS),
        (
            "https://figures.example.com/?next=1",
            "django.core.exceptions.ImproperlyConfigured: BASE_URL must be the service's "
            "public address alone (no query, fragment or user).",
        ),
    ],
)
def test_without_debug_the_base_url_must_be_https_or_loopback_http(base_url, message):
    assert refusal(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL=base_url) == message


@pytest.mark.parametrize(
    "base_url",
    [
        "https://figures.example.com",
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
        "http://127.0.0.2",
    ],
)
def test_https_and_loopback_http_base_urls_are_taken(base_url):
    values = loaded(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL=base_url)
    assert values["DEBUG"] is False


def test_with_debug_a_plain_http_base_url_may_name_any_host():
    values = loaded(
        SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, DEBUG="true", BASE_URL="http://box.test"
    )
    assert values["DEBUG"] is True
    assert (
        refusal(
            SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, DEBUG="true", BASE_URL="ftp://box.test"
        )
        == NOT_AN_ADDRESS
    )


def test_without_debug_the_base_url_must_be_set():
    assert refusal(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A) == (
        "django.core.exceptions.ImproperlyConfigured: BASE_URL must be set: the service's "
        "public address, e.g. https://figures.example.com (links, OAuth tokens and HTTPS "
        "follow it)."
    )
    # With DEBUG on (a laptop), it is the local address.
    values = loaded(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, DEBUG="true")
    assert values["DEBUG"] is True


def test_an_encryption_key_that_is_not_a_fernet_key_is_refused():
    assert refusal(SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=f"{FERNET_A}, not-a-key") == (
        "django.core.exceptions.ImproperlyConfigured: FIELD_ENCRYPTION_KEY: key 2 is not a "
        "Fernet key (32 url-safe base64-encoded bytes)."
    )


def test_the_encryption_key_is_a_list_newest_first():
    values = loaded(
        SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=f" {FERNET_B} ,{FERNET_A}", BASE_URL="https://f.ex"
    )
    assert values["DEBUG"] is False
    assert values["FIELD_ENCRYPTION_KEYS"] == [FERNET_B, FERNET_A]


@pytest.mark.parametrize(
    ("debug", "base_url"),
    [("false", "http://127.0.0.1:8000"), ("true", "http://staging.example.test:8000")],
)
def test_a_plain_http_base_url_has_no_https_redirect_hsts_or_secure_cookies(debug, base_url):
    values = loaded(DEBUG=debug, SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL=base_url)
    assert {name: values[name] for name in NAMES[3:8]} == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


@pytest.mark.parametrize("debug", ["false", "true"])
def test_an_https_base_url_turns_on_the_redirect_hsts_and_secure_cookies(debug):
    values = loaded(
        DEBUG=debug,
        SECRET_KEY=KEY,
        FIELD_ENCRYPTION_KEY=FERNET_A,
        BASE_URL="https://figures.example.com",
    )
    assert {name: values[name] for name in NAMES[3:8]} == {
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
    }


def test_the_development_settings_turn_debug_on_and_set_public_keys():
    values = loaded(DJANGO_SETTINGS_MODULE="config.settings_dev")
    assert values["DEBUG"] is True
    assert values["SECRET_KEY"] == DEV_SECRET_KEY
    assert values["FIELD_ENCRYPTION_KEYS"] == [DEV_FERNET]


# --- The headers, in the running service -----------------------------------------------


@pytest.fixture
def https(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True


def test_https_redirects_plain_http_and_sends_hsts(client, https, db):
    response = client.get("/accounts/login/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/accounts/login/"
    secure = client.get("/accounts/login/", secure=True)
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


@pytest.mark.parametrize(
    ("proxies", "header"),
    [
        (None, None),
        ("0", None),
        ("1", ["HTTP_X_FORWARDED_PROTO", "https"]),
        ("2", ["HTTP_X_FORWARDED_PROTO", "https"]),
    ],
)
def test_x_forwarded_proto_is_read_only_behind_proxies(proxies, header):
    env = {"NUM_PROXIES": proxies} if proxies is not None else {}
    values = loaded(
        SECRET_KEY=KEY, FIELD_ENCRYPTION_KEY=FERNET_A, BASE_URL="https://f.example", **env
    )
    assert values["SECURE_PROXY_SSL_HEADER"] == header


def test_facing_the_clients_a_forwarded_https_is_not_believed(client, https, db, settings):
    # The tests' settings: NUM_PROXIES 0, as a service that faces its clients.
    assert settings.NUM_PROXIES == 0
    response = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/accounts/login/"
    assert not response.has_header("Strict-Transport-Security")


def test_behind_the_proxy_a_forwarded_https_request_is_not_redirected(client, https, db, settings):
    settings.NUM_PROXIES = 1
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    response = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"


@pytest.mark.parametrize(
    ("base_url", "debug", "schemes"),
    [
        ("https://figures.example.com", "false", ["https"]),
        ("https://figures.example.com", "true", ["https", "http"]),
        # A production-like run on plain http (loopback): its own demo app redirects there.
        ("http://127.0.0.1:8000", "false", ["https", "http"]),
    ],
)
def test_plain_http_redirect_uris_only_where_the_service_runs_on_plain_http(
    base_url, debug, schemes
):
    read = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps(settings.OAUTH2_PROVIDER['ALLOWED_REDIRECT_URI_SCHEMES']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", read],
        cwd=ROOT,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": debug,
            "SECRET_KEY": KEY,
            "FIELD_ENCRYPTION_KEY": FERNET_A,
            "BASE_URL": base_url,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == schemes
