"""A closer files a call's outcome from their board in Chromium, by clicking what the page
shows; the API's board then counts it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from workspaces.models import Call
from workspaces.services import call_upsert, lead_upsert

from .conftest import DESKTOP, PASSWORD, PHONE, BrowserErrors, call_api, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_closer_files_an_outcome_from_the_board(
    chromium, live_server, make_workspace, make_member, session_token, viewport
):
    workspace = make_workspace(name="Northwind Sales", timezone="UTC")
    closer = make_member(workspace, "closer", name="Cole Closer")
    token = session_token(closer)
    now = timezone.now()
    lead, _ = lead_upsert(
        workspace=workspace, external_id="l1", name="Dana Reyes", created_at=now - timedelta(days=2)
    )
    call, _ = call_upsert(
        workspace=workspace,
        external_id="c1",
        lead=lead,
        booked_at=now - timedelta(days=1),
        scheduled_for=now - timedelta(hours=2),
        closer=closer,
    )
    status, before = call_api(live_server, "/api/v1/me/board", token)
    assert status == 200
    assert before["data"]["calls"]["awaiting_outcome"]["value"] == 1

    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(15_000)
    errors = BrowserErrors(context)
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        sign_in(page, closer.email, PASSWORD)
        page.wait_for_url(f"**/app/{workspace.pk}/board/")
        assert page.is_visible("text=Dana Reyes")
        if viewport is DESKTOP:
            shot(page, "board-work.png")
        page.click("text=File outcome")
        page.select_option("#id_attendance", "showed")
        page.select_option("#id_outcome", "follow_up")
        page.fill("#id_notes", "Call back on Friday.")
        if viewport is DESKTOP:
            shot(page, "form-post-call.png")
        page.click("#file")
        page.wait_for_url(f"**/app/{workspace.pk}/board/")
        assert page.is_visible("text=Post-call form filed.")
        assert page.is_visible("#no-awaiting-calls")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
    assert errors.messages == []
    assert Call.objects.get(pk=call.pk).outcome == "follow_up"
    status, after = call_api(live_server, "/api/v1/me/board", token)
    assert after["data"]["calls"]["awaiting_outcome"]["value"] == 0
    assert after["data"]["calls"]["taken"]["value"] == 1
