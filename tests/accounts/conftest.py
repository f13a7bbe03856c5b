"""The people pages' tests sign in as a browser does, with the tokens tests' helpers."""

import pytest

from tests.tokens.conftest import (  # noqa: F401 (the helpers the modules here import)
    PASSWORD,
    browser_client,
    hidden_fields,
    sign_in,
)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Passwords hashed cheaply: these tests sign in a lot."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
