"""Goals as a person sets and reads them: the Goals page reached from the header, a cell
typed and saved, the board's pace bar and rank, at desktop and phone width."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from core.times import local_today
from tests.figures.conftest import Records
from workspaces.models import Goal

from .conftest import DESKTOP, PHONE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def team(make_workspace, make_member, make_user):
    workspace = make_workspace(name="Northwind Sales")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    closer = make_member(workspace, "closer", name="Cleo Closer", user=False)
    closer.user = make_user("cleo@northwind.test")
    closer.email = "cleo@northwind.test"
    closer.save()
    Records(workspace).call(
        timezone.now() - timedelta(minutes=10), closer=closer, attendance="showed"
    )
    return workspace, owner, closer


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_owner_sets_a_goal_and_the_closer_sees_its_pace(page, team, viewport):
    workspace, owner, closer = team
    page.set_viewport_size(viewport)
    page.goto(f"/app/{workspace.pk}/")
    sign_in(page, owner.email)
    # The header's link at desktop width; on a phone, the overview's own.
    with page.expect_navigation():
        page.click("#nav-goals" if viewport == DESKTOP else "#goals-page")
    assert urlsplit(page.url).path == f"/app/{workspace.pk}/goals/"
    page.fill(f"[id='target-{closer.pk}-calls.taken']", "1000")
    with page.expect_navigation():
        page.click("#save-goals")
    assert "are saved: 1 goal." in page.text_content("main")
    (goal,) = Goal.objects.filter(workspace=workspace)
    assert (goal.member_id, goal.metric, goal.target) == (closer.pk, "calls.taken", 1000)
    assert goal.month == local_today(workspace).replace(day=1)
    # The closer's board: the goal with its pace, and the rank.
    page.context.clear_cookies()
    page.goto(f"/app/{workspace.pk}/board/")
    sign_in(page, closer.email)
    item = page.locator("#my-goals li[data-metric='calls.taken']")
    assert item.is_visible()
    # One call of a thousand is behind any pace but that of the month's first day's start.
    assert item.locator(".pace-word").text_content() in {"Behind pace", "On pace", "Ahead of pace"}
    assert page.locator(".pace-bar").first.is_visible()
    assert page.text_content("#my-rank") == "1 of 1"
    box = page.locator("#board-goals").bounding_box()
    assert box["width"] <= viewport["width"]
