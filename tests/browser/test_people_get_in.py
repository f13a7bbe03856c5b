"""People get in as a person would, in Chromium: a plan's new closer opens the invitation
email's link, chooses a password and lands on their board; a person who forgot their
password resets it; an agency user opens a client workspace's overview from the console."""

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from rest_framework.test import APIClient

from workspaces.models import Member

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "lantern-orchard-42"


def _link(message, prefix: str) -> str:
    return re.search(rf"https?://[^\s\"<]+{prefix}[^\s\"<]+", message.body).group(0)


def _context(chromium, live_server, viewport):
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    return context, BrowserErrors(context)


def _no_sideways_scroll(page, viewport):
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_plans_new_closer_sets_a_password_and_lands_on_their_board(
    chromium, live_server, settings, make_agency, agency_token, viewport
):
    settings.BASE_URL = live_server.url
    agency = make_agency(tier="agency", name="Northwind Agency")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {agency_token(agency)}")
    plan = {
        "workspace": {
            "name": "Acme Coaching",
            "slug": "acme",
            "currency": "USD",
            "timezone": "America/New_York",
        },
        "team": [{"email": "cy@acme.test", "name": "Cy Closer", "role": "closer"}],
    }
    made = client.post("/api/v1/plans", plan, format="json", HTTP_IDEMPOTENCY_KEY="plan-0001")
    applied = client.post(
        f"/api/v1/plans/{made.json()['id']}/apply",
        {},
        format="json",
        HTTP_IDEMPOTENCY_KEY="apply-0001",
    )
    assert applied.status_code == 200, applied.content
    [invitation] = mail.outbox
    assert invitation.to == ["cy@acme.test"]
    assert invitation.subject == "Northwind Agency invited you to Acme Coaching"
    link = _link(invitation, "/invite/")

    context, errors = _context(chromium, live_server, viewport)
    page = context.new_page()
    try:
        page.goto(link)
        assert page.is_visible("text=Join Acme Coaching")
        page.fill("#id_new_password1", "12345678")
        page.fill("#id_new_password2", "12345678")
        page.click("#join")
        assert page.is_visible("text=This password is too common.")
        page.fill("#id_new_password1", NEW_PASSWORD)
        page.fill("#id_new_password2", NEW_PASSWORD)
        if viewport is DESKTOP:
            shot(page, "invitation-set-password.png")
        page.click("#join")
        member = Member.objects.get(email="cy@acme.test")
        page.wait_for_url(f"**/app/{member.workspace_id}/board/")
        assert page.is_visible("text=Welcome to Acme Coaching.")
        _no_sideways_scroll(page, viewport)
    finally:
        context.close()
    assert errors.messages == []
    member.user.refresh_from_db()
    assert member.user.check_password(NEW_PASSWORD)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_forgotten_password_is_reset_from_the_sign_in_page(
    chromium, live_server, settings, make_user, viewport
):
    settings.BASE_URL = live_server.url
    person = make_user("ann@northwind.test")
    context, errors = _context(chromium, live_server, viewport)
    page = context.new_page()
    try:
        page.goto("/")
        page.click("#home-sign-in")
        page.click("text=Forgotten your password?")
        page.fill("#id_email", "ann@northwind.test")
        page.click("text=Send the link")
        assert page.is_visible("text=Check your email")
        [message] = mail.outbox
        page.goto(_link(message, "/accounts/reset/"))
        page.fill("#id_new_password1", NEW_PASSWORD)
        page.fill("#id_new_password2", NEW_PASSWORD)
        if viewport is DESKTOP:
            shot(page, "password-reset.png")
        page.click("text=Save the password")
        assert page.is_visible("text=Your password is saved")
        page.click("#sign-in-again")
        sign_in(page, "ann@northwind.test", NEW_PASSWORD)
        page.wait_for_url(f"{live_server.url}/")
        _open_menu(page, viewport)
        assert page.is_visible("#sign-out")
        _no_sideways_scroll(page, viewport)
    finally:
        context.close()
    assert errors.messages == []
    person.refresh_from_db()
    assert person.check_password(NEW_PASSWORD)
    assert not person.check_password(PASSWORD)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_agency_user_opens_a_client_overview_from_the_console(
    chromium, live_server, make_agency, make_workspace, make_user, viewport
):
    agency = make_agency(tier="agency", name="Northwind Agency")
    workspace = make_workspace(agency=agency, name="Acme Coaching", slug="acme")
    person = make_user("ops@northwind.test")
    agency.users.add(person)
    context, errors = _context(chromium, live_server, viewport)
    page = context.new_page()
    try:
        _console_to_overview(page, live_server, agency, workspace, person, viewport)
    finally:
        context.close()
    assert errors.messages == []


def _open_menu(page, viewport):
    """On a phone the header's navigation is folded behind its Menu button."""
    if viewport is PHONE:
        page.click("#menu-button")


def _console_to_overview(page, live_server, agency, workspace, person, viewport):
    page.goto("/accounts/login/")
    sign_in(page, person.email)
    # Their one place is the console.
    page.wait_for_url(f"**/agency/{agency.pk}/")
    page.click(f"#open-{workspace.pk}")
    page.wait_for_url(f"**/agency/{agency.pk}/workspaces/{workspace.pk}/")
    page.wait_for_selector("#headline", state="visible")
    assert page.text_content("#nav-overview").strip() == "Acme Coaching"
    if viewport is DESKTOP:
        shot(page, "agency-client-overview.png")
    _no_sideways_scroll(page, viewport)
    _open_menu(page, viewport)
    page.click("#nav-console")
    assert urlsplit(page.url).path == f"/agency/{agency.pk}/"
    _no_sideways_scroll(page, viewport)
