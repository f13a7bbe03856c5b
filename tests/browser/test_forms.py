"""Forms people can finish, in Chromium at a laptop's width (1366 px) and a phone's (390
px): a refused form sums its errors up at the top and puts the focus on the first field in
error; a closer files a missed EOD day from the board on a phone. No header is set by the
test, and the browser reports no console error and no refusal of the content policy."""

from datetime import timedelta

import pytest

from figures.period import local_today
from workspaces.models import EodReport

from .conftest import PASSWORD, PHONE, BrowserErrors, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}


class ConsoleErrors(BrowserErrors):
    """Every console error too, besides the policy's refusals and uncaught errors; a page
    answered 400 (a refused form) is the one the test expects."""

    def _console(self, message):
        if message.type == "error" and "status of 400" not in message.text:
            self.messages.append(f"{message.location.get('url', '')}: {message.text}")


def _owner(make_workspace, make_member, make_user):
    workspace = make_workspace(name="Northwind Sales", timezone="America/New_York")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    make_member(workspace, "closer", name="Cole Closer")
    make_member(workspace, "sdr", name="Sadie Dialer")
    return workspace, owner


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_refused_form_focuses_its_first_error_and_sums_them_up(
    chromium, live_server, make_workspace, make_member, make_user, settings, viewport
):
    settings.BASE_URL = live_server.url
    workspace, _owner_member = _owner(make_workspace, make_member, make_user)
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = ConsoleErrors(context)
    page = context.new_page()
    phone = viewport is PHONE
    try:
        page.goto(f"/settings/{workspace.pk}/members/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/settings/{workspace.pk}/members/")
        assert "SDR" in page.text_content("#member-list")
        shot(page, "members-phone.png" if phone else "members.png")

        page.fill("#id_email", "not an email")
        with page.expect_navigation():
            page.click("#send-invitation")
        summary = page.locator("#error-summary")
        assert summary.is_visible()
        assert summary.locator("h2").text_content() == "There is a problem"
        assert summary.locator("a").all_text_contents() == ["Email: Enter a valid email address."]
        # The focus is on the field in error, which says so to assistive technology.
        assert page.evaluate("document.activeElement.id") == "id_email"
        email = page.locator("#id_email")
        assert email.get_attribute("aria-invalid") == "true"
        assert email.get_attribute("aria-describedby") == "id_email_error"
        assert page.text_content("#id_email_error") == "Error: Enter a valid email address."
        assert email.input_value() == "not an email"
        shot(page, "form-errors-phone.png" if phone else "form-errors.png")

        # The summary's link brings the focus back to its field.
        page.focus("#send-invitation")
        summary.locator("a").click()
        assert page.evaluate("document.activeElement.id") == "id_email"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []


def test_a_closer_files_a_missed_eod_day_from_the_board_on_a_phone(
    chromium, live_server, make_workspace, make_member
):
    workspace = make_workspace(
        name="Northwind Sales", timezone="Europe/Berlin", working_days=[0, 1, 2, 3, 4, 5, 6]
    )
    closer = make_member(workspace, "closer", name="Cole Closer")
    today = local_today(workspace)
    yesterday = today - timedelta(days=1)
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = ConsoleErrors(context)
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        sign_in(page, closer.email, PASSWORD)
        page.wait_for_url(f"**/app/{workspace.pk}/board/")
        button = page.locator(f"#file-eod-{yesterday.isoformat()}")
        assert button.is_visible()
        # A button a thumb can press: the row's width on a phone, and 44 px high.
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 300
        with page.expect_navigation():
            button.click()
        assert page.input_value("#id_date") == yesterday.isoformat()
        assert page.is_hidden("#eod-replaces")
        page.fill("#id_dials", "-1")
        with page.expect_navigation():
            page.click("#file")
        assert page.evaluate("document.activeElement.id") == "id_dials"
        assert page.locator("#error-summary a").all_text_contents() == ["Dials: Enter 0 or more."]
        page.fill("#id_dials", "60")
        page.fill("#id_conversations", "9")
        with page.expect_navigation():
            page.click("#file")
        page.wait_for_url(f"**/app/{workspace.pk}/board/")
        assert page.locator(f"#file-eod-{yesterday.isoformat()}").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # Opening the same day again says filing replaces it, before anything is sent.
        page.goto(f"/app/{workspace.pk}/file/eod/?date={yesterday.isoformat()}")
        assert page.is_visible("#eod-replaces")
        assert page.text_content("#file") == "Replace the report"
        page.fill("#id_date", today.isoformat())
        assert page.is_hidden("#eod-replaces")
        assert page.text_content("#file") == "File"
        page.fill("#id_date", yesterday.isoformat())
        assert page.is_visible("#eod-replaces")
    finally:
        context.close()
    assert errors.messages == []
    report = EodReport.objects.get(member=closer)
    assert (report.date, report.fields) == (yesterday, {"dials": 60, "conversations": 9})


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_an_owner_picks_a_time_zone_by_its_city(
    chromium, live_server, make_workspace, make_member, make_user, viewport
):
    workspace, _owner_member = _owner(make_workspace, make_member, make_user)
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = ConsoleErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/workspace/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.wait_for_url(f"**/settings/{workspace.pk}/workspace/")
        zone = page.locator("#id_timezone")
        assert zone.input_value() == "America/New_York"
        assert zone.get_attribute("list") == "timezone-options"
        option = page.locator("#timezone-options option[value='Asia/Tokyo']")
        assert option.text_content() == "Tokyo · UTC+09:00 · Asia/Tokyo"
        assert page.locator("#id_currency option:checked").text_content() == "US Dollar (USD)"
        assert page.locator("#id_primary_colour").get_attribute("type") == "color"
        zone.fill("Tokyo")
        page.select_option("#id_locale", "en_GB")
        with page.expect_navigation():
            page.click("#save-settings")
        assert page.is_visible("text=Saved: time zone, language and region.")
        assert page.locator("#id_timezone").input_value() == "Asia/Tokyo"
        assert page.text_content("#page-zone") == (
            "Dates and times are in Asia/Tokyo time (Tokyo, UTC+09:00)."
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []


def test_a_shown_once_token_is_copied_with_its_button(
    chromium, live_server, make_workspace, make_member, make_user
):
    workspace, _owner_member = _owner(make_workspace, make_member, make_user)
    context = chromium.new_context(viewport=LAPTOP, base_url=live_server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.set_default_timeout(15_000)
    errors = ConsoleErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/settings/{workspace.pk}/tokens/")
        sign_in(page, "olive@northwind.test", PASSWORD)
        page.fill("#id_name", "Reporting dashboard")
        with page.expect_navigation():
            page.click("#mint")
        shown = page.text_content("#minted-token").strip()
        page.click("#copy-token")
        page.wait_for_function("document.getElementById('copy-status').textContent !== ''")
        assert page.text_content("#copy-status") == "Copied."
        assert page.evaluate("navigator.clipboard.readText()") == shown
    finally:
        context.close()
    assert errors.messages == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_an_agency_makes_a_plan_from_the_form_not_json(
    chromium, live_server, make_agency, make_user, viewport
):
    agency = make_agency(tier="agency", name="Northwind Agency")
    person = make_user("ops@northwind.test")
    agency.users.add(person)
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = ConsoleErrors(context)
    page = context.new_page()
    try:
        page.goto(f"/agency/{agency.pk}/")
        sign_in(page, person.email)
        assert page.is_hidden("#plan-form")
        page.click("#plan-form-details summary")
        page.fill("#id_name", "Acme Coaching")
        page.fill("#id_slug", "Acme Coaching")
        page.select_option("#id_currency", "EUR")
        page.fill("#id_timezone", "Berlin")
        page.fill("#id_team-0-email", "ann@acme.example")
        page.fill("#id_team-0-name", "Ann Closer")
        page.fill("#id_programme-0-name", "Mastermind")
        page.fill("#id_programme-0-price", "4997.50")
        page.check("#id_connect_0")
        with page.expect_navigation():
            page.click("#make-plan-button")
        assert page.evaluate("document.activeElement.id") == "id_slug"
        assert page.locator("#error-summary a").all_text_contents() == [
            "Short name in addresses: Use lowercase letters, digits and hyphens, like "
            "acme-coaching."
        ]
        assert page.input_value("#id_team-0-email") == "ann@acme.example"
        page.fill("#id_slug", "acme-coaching")
        with page.expect_navigation():
            page.click("#make-plan-button")
        assert page.is_visible("text=Plan made: check its changes below, then approve it")
        waiting = page.text_content("#plans-waiting")
        assert "Create workspace Acme Coaching" in waiting
        assert "Invite closer ann@acme.example" in waiting
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
