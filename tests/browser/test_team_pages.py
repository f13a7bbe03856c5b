"""An owner runs the team in the app, in Chromium: invites a setter, changes a role, and
sets a commission rule, by clicking what the page shows (no header set by the test)."""

import pytest

from workspaces.models import CommissionRule, Invitation, Member

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_owner_invites_a_setter_and_changes_a_role(
    chromium, live_server, make_workspace, make_member, make_user, settings, viewport
):
    settings.BASE_URL = live_server.url
    workspace = make_workspace(name="Northwind Sales")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    closer = make_member(workspace, "closer", name="Cole Closer")
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/members/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/settings/{workspace.pk}/members/")
        page.fill("#id_email", "sam@northwind.test")
        page.fill("#id_name", "Sam Setter")
        page.select_option("#id_role", "setter")
        page.click("text=Send invitation")
        assert page.is_visible("text=Invitation sent to sam@northwind.test.")
        row = page.locator("tr[data-email='sam@northwind.test'] .invitation-state")
        assert row.text_content().strip() == "Sent"

        page.select_option(f"#role-{closer.pk}", "manager")
        page.click(f"#save-role-{closer.pk}")
        assert page.is_visible("text=Cole Closer's role is now Manager.")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        page.click("#subnav-workspace")
        page.fill(f"#id_rule-{closer.pk}-percent", "10")
        page.click(f"#save-rule-{closer.pk}")
        assert page.is_visible("text=Saved the commission rule of Cole Closer.")
        if viewport is DESKTOP:
            shot(page, "workspace-settings.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
    assert Invitation.objects.get().role == "setter"
    assert Member.objects.get(pk=closer.pk).role == "manager"
    assert str(CommissionRule.objects.get(member=closer).rate) == "0.1000"
