"""The return address a plan gives a new workspace's embedded app is a page, not a 404."""

import pytest

from .conftest import browser_client

pytestmark = pytest.mark.django_db


def test_the_default_return_address_of_a_plans_app_is_a_page():
    page = browser_client().get("/app/callback?code=abc&state=xyz")
    assert page.status_code == 200
    assert "You are signed in" in page.content.decode()
    assert page["Referrer-Policy"] == "no-referrer"
    refused = browser_client().get("/app/callback?error=access_denied")
    assert "The sign-in did not finish" in refused.content.decode()
