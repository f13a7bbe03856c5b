"""The header every page shares, in Chromium at desktop and phone widths: the skip link
moves to the main content, the phone's Menu button opens and closes the navigation,
Settings opens on the workspace's settings, and signing out says so. No header is set by
the test, and the browser reports no console error at all."""

import pytest

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_skip_link_the_menu_and_signing_out(
    chromium, live_server, make_workspace, make_member, make_user, viewport
):
    workspace = make_workspace(name="Northwind Sales")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    console_errors = []
    context.on(
        "console",
        lambda message: console_errors.append(message.text) if message.type == "error" else None,
    )
    page = context.new_page()
    phone = viewport is PHONE
    try:
        page.goto("/accounts/login/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/app/{workspace.pk}/")
        assert page.title() == "Overview · Northwind Sales · Sales Figures"
        assert page.locator("nav[aria-label='Main']").count() == 1

        # The first Tab reaches the skip link, shown once focused; Enter moves to the content.
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "skip-link"
        assert page.is_visible("#skip-link")
        box = page.locator("#skip-link").bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0
        page.keyboard.press("Enter")
        page.wait_for_url(f"**/app/{workspace.pk}/#main")
        assert page.evaluate("document.activeElement.id") == "main"

        button = page.locator("#menu-button")
        if phone:
            # The menu is folded: the button opens it, Escape folds it again.
            assert button.is_visible()
            assert button.get_attribute("aria-expanded") == "false"
            assert not page.is_visible("#nav-settings")
            button.click()
            assert button.get_attribute("aria-expanded") == "true"
            assert page.is_visible("#nav-settings")
            assert page.is_visible("#sign-out")
            page.keyboard.press("Escape")
            assert button.get_attribute("aria-expanded") == "false"
            assert not page.is_visible("#nav-settings")
            assert page.evaluate("document.activeElement.id") == "menu-button"
            button.click()
        else:
            assert not button.is_visible()
        assert page.get_attribute("#nav-overview", "aria-current") == "page"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        # Settings opens on the workspace's own settings, the first of its sections.
        with page.expect_navigation():
            page.click("#nav-settings")
        assert page.url.endswith(f"/settings/{workspace.pk}/workspace/")
        assert page.title() == "Workspace settings · Northwind Sales · Sales Figures"
        assert page.get_attribute("#nav-settings", "aria-current") == "page"
        assert page.get_attribute("#subnav-workspace", "aria-current") == "page"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        if phone:
            assert not page.is_visible("#sign-out")
            button.click()
        with page.expect_navigation():
            page.click("#sign-out")
        page.wait_for_url("**/accounts/login/")
        assert page.title() == "Sign in · Sales Figures"
        assert page.locator("main [role=status]").text_content().strip() == "You are signed out."
    finally:
        context.close()
    assert errors.messages == []
    assert console_errors == []
