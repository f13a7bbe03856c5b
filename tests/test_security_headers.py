"""The content security policy and the other security headers of the pages."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "frame-ancestors": "'none'",
}


def policy_of(response) -> dict:
    directives = (part.strip() for part in response["Content-Security-Policy"].split(";"))
    return dict(part.split(" ", 1) for part in directives if part)


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/docs/", "/api/docs/agent/"])
def test_pages_answer_the_strict_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert policy_of(response) == POLICY
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Permissions-Policy"] == (
        "accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), "
        "geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), "
        "publickey-credentials-get=(), serial=(), usb=(), xr-spatial-tracking=()"
    )


def test_the_apis_json_answers_carry_no_permissions_policy(client):
    response = client.get("/api/v1/whoami")
    assert response.status_code == 401
    assert "Permissions-Policy" not in response


def test_the_admin_sign_in_answers_the_strict_policy(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert policy_of(response) == POLICY


def test_swagger_ui_loads_its_start_up_script_from_its_own_address(client):
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in page
    assert "<script>" not in page and "<style>" not in page
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"] == "application/javascript"
    assert 'url: "/api/v1/openapi.json",' in script.content.decode()


def test_redoc_alone_allows_inline_styles_its_worker_and_its_logo(client):
    response = client.get("/api/redoc/")
    assert response.status_code == 200
    assert policy_of(response) == {
        **POLICY,
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data: https://cdn.redoc.ly",
        "worker-src": "blob:",
    }
    assert "<script>" not in response.content.decode()


def test_no_template_has_an_inline_script_or_style():
    found = []
    for template in TEMPLATES.rglob("*.html"):
        if template.relative_to(TEMPLATES).parts[0] == "email":
            # Mail is read in mail clients, which take only inline styles; never served.
            continue
        text = template.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"<style\b", r"\sstyle=", r"\son\w+="):
            found += [f"{template.relative_to(TEMPLATES)}: {m}" for m in re.findall(pattern, text)]
    assert found == []
