"""Display config, the workspace list and the member's own board."""

from datetime import timedelta

import pytest
from django.utils import timezone

from workspaces.models import Call, EodReport, Lead, Payment, Sale

pytestmark = pytest.mark.django_db

BRANDING = {
    "logo": "https://cdn.example.test/logo.png",
    "colours": {"primary": "#112233"},
    "labels": {"calls.close_rate": "Close %"},
    "modules": ["calls", "eod"],
    "programmes": [{"name": "Mastermind", "price": 6000}],
}


def test_display_answers_the_workspace_branding(team, api, django_assert_max_num_queries):
    team.workspace.branding = BRANDING
    team.workspace.timezone = "Europe/London"
    team.workspace.save()
    expected = {
        "workspace_id": str(team.workspace.pk),
        "name": "Northwind",
        **BRANDING,
        "currency": "USD",
        "timezone": "Europe/London",
    }
    with django_assert_max_num_queries(3):
        response = api(team.read_token).get("/api/v1/display")
    assert response.status_code == 200
    assert response.json() == expected
    named = api(team.agency_read).get(f"/api/v1/workspaces/{team.workspace.pk}/display")
    assert named.json() == expected
    other = api(team.agency_read).get(f"/api/v1/workspaces/{team.other.pk}/display")
    assert other.json()["name"] == "Southwind"
    assert other.json()["currency"] == "EUR"


def test_display_with_empty_branding_has_every_member(team, api):
    team.workspace.branding = {}
    team.workspace.save()
    response = api(team.sessions["owner"]).get("/api/v1/display")
    assert response.json() == {
        "workspace_id": str(team.workspace.pk),
        "name": "Northwind",
        "logo": "",
        "colours": {},
        "labels": {},
        "modules": [],
        "programmes": [],
        "currency": "USD",
        "timezone": "UTC",
    }


def test_workspaces_lists_the_tokens_own_workspace(team, api):
    for token in (team.read_token, team.sessions["manager"]):
        response = api(token).get("/api/v1/workspaces")
        assert response.status_code == 200
        assert response.json() == {
            "workspaces": [
                {
                    "id": str(team.workspace.pk),
                    "name": "Northwind",
                    "slug": team.workspace.slug,
                    "currency": "USD",
                    "timezone": "UTC",
                }
            ]
        }


def test_board_answers_the_members_own_figures(team, api, django_assert_max_num_queries):
    ws = team.workspace
    closer = team.members["closer"]
    other = team.members["setter"]
    now = timezone.now()
    today = now.date()
    lead = Lead.objects.create(workspace=ws, name="L", email="l@x.test", created_at=now)

    def call(member, days_ago, attendance, outcome=""):
        return Call.objects.create(
            workspace=ws,
            lead=lead,
            booked_at=now - timedelta(days=days_ago + 1),
            scheduled_for=now - timedelta(days=days_ago),
            closer=member,
            attendance=attendance,
            outcome=outcome,
        )

    won = call(closer, 2, "showed", "closed")
    call(closer, 3, "no_show")
    call(other, 2, "showed", "closed")  # someone else's: not on this board
    sale = Sale.objects.create(
        workspace=ws,
        lead=lead,
        call=won,
        closer=closer,
        closed_at=now - timedelta(days=2),
        contract_value=250000,
    )
    Payment.objects.create(
        workspace=ws, sale=sale, paid_at=now - timedelta(days=2), amount=100000, closer=closer
    )
    EodReport.objects.create(
        workspace=ws, member=closer, date=today - timedelta(days=1), submitted_at=now, fields={}
    )

    with django_assert_max_num_queries(25):
        response = api(team.sessions["closer"]).get(
            f"/api/v1/me/board?from={(today - timedelta(days=6)).isoformat()}&to={today}"
        )
    assert response.status_code == 200, response.json()
    body = response.json()
    data = body["data"]
    assert body["workspace"]["id"] == str(ws.pk)
    assert body["period"] == {
        "from": (today - timedelta(days=6)).isoformat(),
        "to": today.isoformat(),
    }
    assert data["member"]["id"] == str(closer.pk)
    assert data["member"]["role"] == "closer"
    assert data["calls"]["booked"]["value"] == 2
    assert data["calls"]["taken"]["value"] == 1
    assert data["calls"]["no_show"]["value"] == 1
    assert data["calls"]["closed"]["value"] == 1
    assert data["calls"]["show_rate"]["value"] == 0.5
    assert data["payments"]["cash_collected"]["value"] == 1000
    assert data["payments"]["revenue_booked"]["value"] == 2500
    assert data["eod"]["submitted"]["value"] == 1
    assert data["commission"]["owed"]["value"] is None
    assert data["commission"]["owed"]["unavailable"]["code"] == "not-computed"


def test_board_refuses_a_bad_period(team, api):
    response = api(team.sessions["setter"]).get("/api/v1/me/board?from=2026-02-30")
    assert response.status_code == 400
    assert response.json()["field"] == "from"


def test_display_answers_a_plan_applied_programme_price_in_major_units(team, api):
    team.workspace.branding = {"programmes": [{"name": "Accelerator", "price_minor": 199950}]}
    team.workspace.save()
    response = api(team.read_token).get("/api/v1/display")
    assert response.json()["programmes"] == [
        {"name": "Accelerator", "price": 1999.5, "currency": "USD"}
    ]
