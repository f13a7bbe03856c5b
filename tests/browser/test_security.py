"""Every page under the content security policy (no violation, no script error: the `page`
fixture fails on any), and signing in over plain http with DEBUG off."""

from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model

from tests.test_settings import FERNET_A, loaded

from .conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PASSWORD, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_page(page, path):
    response = page.goto(path)
    assert response.status == 200, path
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    return response


def test_the_public_pages_and_the_sign_in_page(page):
    for path in ("/", "/accounts/login/"):
        open_page(page, path)
    sign_in(page, "nobody@example.test", "wrong-password")
    assert page.is_visible("text=That email and password do not match an account.")


def test_ten_failed_sign_ins_lock_the_form_with_a_message(page, make_user):
    person = make_user("ann@northwind.test")
    page.goto("/accounts/login/")
    for _ in range(9):
        sign_in(page, person.email, "wrong-password")
        assert page.is_visible("text=That email and password do not match an account.")
    sign_in(page, person.email, "wrong-password")
    page.goto("/accounts/login/")
    sign_in(page, person.email)
    assert page.text_content("#locked-out").strip() == (
        "Too many failed sign-ins for this account or from this address: signing in is "
        "locked for 15 minutes. Wait 15 minutes, then try again."
    )
    assert urlsplit(page.url).path == "/accounts/login/"
    shot(page, "login-locked.png")


@pytest.mark.parametrize(
    ("path", "title"),
    [("/api/docs/", "Read-Only Figures API"), ("/api/docs/agent/", "Agent and Agency API")],
)
def test_swagger_ui_renders(page, path, title):
    open_page(page, path)
    page.wait_for_selector(".swagger-ui .info .title")
    assert title in page.text_content(".swagger-ui .info .title")
    page.wait_for_selector(".opblock")
    assert page.locator(".opblock").count() > 5


def test_redoc_renders(page):
    open_page(page, "/api/redoc/")
    page.wait_for_selector("#redoc-container h1")
    assert "Read-Only Figures API" in page.text_content("#redoc-container h1")


def test_the_admin(page, transactional_db):
    get_user_model().objects.create_superuser(
        username="root", email="root@example.test", password=PASSWORD
    )
    open_page(page, "/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    assert urlsplit(page.url).path == "/admin/"
    page.wait_for_selector("#site-name")
    open_page(page, "/admin/workspaces/workspace/add/")
    page.wait_for_selector("#workspace_form")


def test_connect_link_made_copied_and_opened(
    page, make_agency, make_workspace, make_user, browser_errors
):
    agency = make_agency(name="Northwind Agency")
    workspace = make_workspace(agency=agency, name="Northwind One")
    person = make_user("ops@northwind.test")
    agency.users.add(person)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])

    page.goto(f"/agency/{agency.pk}/")
    sign_in(page, person.email)
    page.select_option("#link-workspace", str(workspace.pk))
    page.locator("input[name=integrations]").first.check()
    # The answer is a new page whose script binds the copy button: wait until it is loaded.
    with page.expect_navigation():
        page.click("#make-link-button")
    url = page.input_value("#link-url")
    assert page.is_hidden("#copy-done")
    page.click("#copy-url")
    page.wait_for_selector("#copy-done", state="visible")
    assert page.evaluate("navigator.clipboard.readText()") == url

    connect = page.goto(urlsplit(url).path)
    assert connect.status == 200
    assert "frame-ancestors 'none'" in connect.headers["content-security-policy"]


def test_the_minted_token_copy_button(page, make_workspace, make_member, make_user):
    workspace = make_workspace(name="Northwind Sales")
    owner = make_member(workspace, "owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.save()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/settings/{workspace.pk}/tokens/")
    sign_in(page, "olive@northwind.test")
    page.fill("#id_name", "Reporting")
    with page.expect_navigation():
        page.click("#mint")
    plaintext = page.text_content("#minted-token").strip()
    page.click("#copy-token")
    page.wait_for_selector("#copy-status:has-text('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == plaintext


def test_plain_http_with_debug_off_signs_in(chromium, live_server, settings, make_user):
    """A production-like run on a loopback host: DEBUG off and an http BASE_URL (the one
    plain http address production settings take). Its cookies are not Secure, so a browser
    keeps them over http and the sign-in form's CSRF check passes."""
    port = urlsplit(live_server.url).port
    base_url = f"http://localhost:{port}"
    derived = loaded(
        DEBUG="false",
        SECRET_KEY="a-long-and-varied-secret-key-for-the-browser-tests-0123456789",
        FIELD_ENCRYPTION_KEY=FERNET_A,
        BASE_URL=base_url,
    )
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["localhost"]
    settings.CSRF_TRUSTED_ORIGINS = [base_url]
    for name in ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_SSL_REDIRECT"):
        setattr(settings, name, derived[name])
    settings.SECURE_HSTS_SECONDS = derived["SECURE_HSTS_SECONDS"]
    person = make_user("ann@loopback.test")

    browser = chromium.browser_type.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP localhost 127.0.0.1"],
    )
    try:
        context = browser.new_context(viewport=DESKTOP, base_url=base_url)
        page = context.new_page()
        page.goto("/accounts/login/")
        sign_in(page, person.email)
        assert page.url == f"{base_url}/"
        cookies = {cookie["name"]: cookie for cookie in context.cookies()}
        assert cookies["sessionid"]["secure"] is False
        assert cookies["csrftoken"]["secure"] is False
    finally:
        browser.close()
