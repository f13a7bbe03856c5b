"""The Goals page, the board's goals and rank, and the overview's goals and leaderboards,
read as a browser gets them (a signed-in session, the page's own form)."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from core.times import local_today
from tests.figures.conftest import Records
from workspaces.models import Goal

from .conftest import check_against_api, resolve, shown_figures, signed_in

pytestmark = pytest.mark.django_db


def _this_month(ws):
    return local_today(ws).replace(day=1)


def _goal_or_rank(figure) -> bool:
    return figure.get("data-api", "").startswith(("/api/v1/goals", "/api/v1/leaderboard"))


def _goals_url(team):
    return f"/app/{team['workspace'].pk}/goals/"


def test_an_owner_sets_the_months_goals_in_the_table(team):
    ws, closer = team["workspace"], team["closer"]
    client = signed_in(team["owner"])
    page = client.get(_goals_url(team))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'name="target-{closer.pk}-calls.taken"' in html
    assert 'name="target-workspace-payments.cash_collected"' in html
    month = f"{_this_month(ws):%Y-%m}"
    saved = client.post(
        _goals_url(team),
        {
            "month": month,
            f"target-{closer.pk}-calls.taken": "20",
            "target-workspace-payments.cash_collected": "15,000.50",
            "target-workspace-leads.created": "",
        },
    )
    assert saved.status_code == 302
    got = sorted(
        (goal.metric, goal.member_id, goal.target)
        for goal in Goal.objects.filter(workspace=ws, month=_this_month(ws))
    )
    assert got == sorted(
        [("calls.taken", closer.pk, 20), ("payments.cash_collected", None, 1500050)]
    )
    assert AuditEvent.objects.filter(workspace=ws, action="goals.replaced").count() == 1
    again = client.get(saved["Location"]).content.decode()
    assert "are saved: 2 goals" in again
    assert 'value="15000.5"' in again


def test_a_bad_cell_is_named_beside_it_and_nothing_is_saved(team):
    ws, closer = team["workspace"], team["closer"]
    client = signed_in(team["manager"])
    answer = client.post(
        _goals_url(team),
        {
            "month": f"{_this_month(ws):%Y-%m}",
            f"target-{closer.pk}-calls.taken": "2.5",
            "target-workspace-leads.created": "40",
        },
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert f'id="target-{closer.pk}-calls.taken-error"' in html
    assert "Write a whole number of zero or more" in html
    assert not Goal.objects.exists()


def test_last_months_goals_are_filled_in_to_start_from(team):
    ws, closer = team["workspace"], team["closer"]
    last = (_this_month(ws) - timedelta(days=1)).replace(day=1)
    Goal.objects.create(workspace=ws, month=last, metric="calls.taken", member=closer, target=18)
    html = signed_in(team["owner"]).get(_goals_url(team) + "?copy=last").content.decode()
    assert 'id="copied-note"' in html
    assert f'name="target-{closer.pk}-calls.taken" value="18"' in html
    assert not Goal.objects.filter(month=_this_month(ws)).exists()


def test_closers_and_setters_are_refused_the_goals_page(team):
    for role in ("closer", "setter"):
        assert signed_in(team[role]).get(_goals_url(team)).status_code == 403


def test_the_board_shows_the_members_goals_and_rank(team, api, workspace_token):
    ws, closer = team["workspace"], team["closer"]
    rec = Records(ws)
    rec.call(timezone.now() - timedelta(minutes=5), closer=closer, attendance="showed")
    Goal.objects.create(
        workspace=ws, month=_this_month(ws), metric="calls.taken", member=closer, target=0
    )
    other = Records(ws)
    other.call(timezone.now() - timedelta(minutes=6), closer=team["owner"], attendance="showed")
    html = signed_in(closer).get(f"/app/{ws.pk}/board/").content.decode()
    assert 'id="my-goals"' in html
    assert 'class="goal pace-not_started"' in html  # a target of 0 expects nothing
    assert 'id="my-rank">1 of 1<' in html
    assert 'id="leaderboard-closer"' in html
    # Every goal and rank figure on the page is the API's (a closer's page names no
    # address: their session does not read these operations; a read token does).
    token = workspace_token(ws)
    answers = {
        "goal.": api(token).get(f"/api/v1/goals?month={_this_month(ws):%Y-%m}").json(),
        "rank": api(token).get("/api/v1/leaderboard").json(),
    }
    shown = [
        f for f in shown_figures(html) if f["data-path"].startswith(("data.goals", "data.members"))
    ]
    assert len(shown) == 8  # the goal's four figures, the closer's row's four
    for figure in shown:
        assert figure["data-api"] == ""
        answer = answers["goal." if figure["data-path"].startswith("data.goals") else "rank"]
        assert json.loads(figure["data-value"]) == resolve(answer, figure["data-path"])["value"]
    # The workspace hides the leaderboard: only the member's own row is shown.
    ws.leaderboard_visible = False
    ws.save(update_fields=["leaderboard_visible"])
    html = signed_in(closer).get(f"/app/{ws.pk}/board/").content.decode()
    assert html.count("<tr data-member=") == 1


def test_the_overview_shows_the_workspace_goals_and_both_leaderboards(team, api, workspace_token):
    ws, closer, setter = team["workspace"], team["closer"], team["setter"]
    rec = Records(ws)
    rec.call(
        timezone.now() - timedelta(minutes=5), closer=closer, setter=setter, attendance="showed"
    )
    Goal.objects.create(workspace=ws, month=_this_month(ws), metric="calls.taken", target=300)
    html = signed_in(team["owner"]).get(f"/app/{ws.pk}/").content.decode()
    assert 'id="workspace-goals"' in html
    assert 'id="leaderboard-closer"' in html and 'id="leaderboard-setter"' in html
    assert 'class="goal pace-behind"' in html
    token = workspace_token(ws)
    figures = [f for f in shown_figures(html) if _goal_or_rank(f)]
    # The goal's four figures, the closer's four and the setter's three.
    assert check_against_api(figures, lambda url: api(token).get(url)) == 11
