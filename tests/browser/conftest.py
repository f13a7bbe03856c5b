"""Real-browser tests: Debian's chromium driven by Playwright against the live server.

Run `make browser-deps` to install chromium; without it these tests skip and say why.
Screenshots of each page are written to docs/screenshots/ (a fixed list, overwritten).
"""

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS_DIR = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS = frozenset(
    {
        "login.png",
        "login-locked.png",
        "oauth-consent.png",
        "oauth-refused.png",
        "workspace-tokens.png",
        "workspace-token-minted.png",
        "workspace-token-revoke.png",
        "workspace-tokens-revoked.png",
        "workspace-tokens-phone.png",
        "workspace-apps.png",
        "agency-tokens.png",
        "agency-console-waiting.png",
        "agency-console-applied.png",
        "overview.png",
        "overview-phone.png",
        "overview-null-figure.png",
        "board-closer.png",
        "board-closer-phone.png",
        "lead-journey.png",
        "lead-journey-phone.png",
        "agency-console-phone.png",
        "records-calls.png",
        "overview-spend.png",
        "overview-spend-phone.png",
        "records-payments.png",
        "records-payments-phone.png",
        "records-sorted-filtered.png",
        "records-cards-phone.png",
        "acquisition.png",
        "acquisition-phone.png",
        "first-run.png",
        "integrations.png",
        "integrations-held.png",
        "integrations-zoom.png",
        "integrations-hubspot.png",
        "webinar-pitch.png",
        "connect-link.png",
        "invitation-set-password.png",
        "password-reset.png",
        "agency-client-overview.png",
        "members.png",
        "members-phone.png",
        "form-errors.png",
        "form-errors-phone.png",
        "workspace-settings.png",
        "webhooks.png",
        "webhook-log.png",
        "board-work.png",
        "form-post-call.png",
        "import-preview.png",
        "import-preview-phone.png",
        "import-result.png",
        "import-result-phone.png",
        "import-errors.png",
    }
)
PASSWORD = "correct-horse-battery"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="module")
def chromium():
    if not CHROMIUM.exists():
        pytest.skip(
            "Debian's chromium is not installed at /usr/bin/chromium: run make browser-deps"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="the playwright package is not installed: run make install",
        exc_type=ImportError,
    )
    # Playwright's synchronous API keeps an event loop in this thread; the test's own
    # database reads are still synchronous, so Django is told they are safe here.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_api.sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class BrowserErrors:
    """What the browser reports while a test runs: content-security-policy violations (the
    console's "Refused to ..." errors) and uncaught script errors. A page test fails on any."""

    def __init__(self, context):
        self.messages = []
        context.on("console", self._console)
        context.on("weberror", lambda error: self.messages.append(f"script: {error.error}"))

    def _console(self, message):
        if message.type == "error" and (
            "Content Security Policy" in message.text or "Refused to" in message.text
        ):
            self.messages.append(f"{message.location.get('url', '')}: {message.text}")


@pytest.fixture
def browser_errors():
    return {}


@pytest.fixture
def page(chromium, live_server, browser_errors):
    context = chromium.new_context(viewport=DESKTOP, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    browser_errors["messages"] = errors.messages
    page = context.new_page()
    yield page
    context.close()
    assert errors.messages == [], "the browser reported errors:\n" + "\n".join(errors.messages)


def shot(page, name: str) -> None:
    assert name in SCREENSHOTS, f"{name} is not in the fixed list of screenshots"
    SCREENSHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS_DIR / name), full_page=True)


def sign_in(page, email: str, password: str = PASSWORD) -> None:
    page.fill("#id_username", email)
    page.fill("#id_password", password)
    # The form's answer is a new page: wait for it, so what follows reads that page and
    # not the one the click left (a busy machine answers later than a quiet one).
    with page.expect_navigation():
        page.click("#sign-in")


def call_api(live_server, path: str, token: str) -> tuple[int, dict]:
    """A server-side call (no Origin, no Sec-Fetch-Site), as an integration makes it."""
    request = urllib.request.Request(
        live_server.url + path, headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def post_form(live_server, path: str, data: dict) -> tuple[int, dict]:
    body = urllib.parse.urlencode(data).encode()
    request = urllib.request.Request(live_server.url + path, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def make_user(transactional_db):
    def make(email):
        return get_user_model().objects.create_user(username=email, email=email, password=PASSWORD)

    return make
