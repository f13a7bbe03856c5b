"""Who may read the figures routes: every denial on every route, exact status and reason."""

import uuid

import pytest

from audit.models import AuditEvent
from core.times import local_today
from workspaces.models import Goal

pytestmark = pytest.mark.django_db

ROUTES = [
    "/api/v1/calls",
    "/api/v1/outcomes",
    "/api/v1/payments",
    "/api/v1/leads",
    f"/api/v1/leads/{uuid.UUID(int=7)}/journey",
    "/api/v1/speed-to-lead",
    "/api/v1/eod",
    "/api/v1/attribution",
    "/api/v1/commission",
    "/api/v1/funnel",
    "/api/v1/webinar",
    "/api/v1/audit-events",
    "/api/v1/series?metric=calls.booked",
    "/api/v1/acquisition",
    "/api/v1/ad-spend",
    "/api/v1/goals",
    "/api/v1/leaderboard",
]


def reason(response):
    return response.json()["error"]["reason"]


@pytest.fixture
def setup(make_agency, make_workspace):
    agency = make_agency()
    return agency, make_workspace(agency=agency)


@pytest.mark.parametrize("route", ROUTES)
def test_no_token_is_401(route, api, setup):
    response = api().get(route)
    assert response.status_code == 401
    assert reason(response) == "unauthenticated"


@pytest.mark.parametrize("route", ROUTES)
def test_agency_token_is_401(route, api, setup, agency_token):
    agency, _ = setup
    response = api(agency_token(agency)).get(route)
    assert response.status_code == 401
    assert reason(response) == "unauthenticated"
    assert "Agency tokens reach plans" in response.json()["error"]["message"]


@pytest.mark.parametrize("route", ROUTES)
def test_token_without_read_is_403(route, api, setup, workspace_token):
    _, ws = setup
    response = api(workspace_token(ws, scopes=("data:write",))).get(route)
    assert response.status_code == 403
    assert reason(response) == "insufficient_scope"
    assert response.json()["requiredScope"] == "read"


@pytest.mark.parametrize("role", ["closer", "setter", "sdr"])
@pytest.mark.parametrize("route", ROUTES)
def test_reporting_member_session_is_403(route, role, api, setup, make_member, session_token):
    _, ws = setup
    token = session_token(make_member(ws, role))
    before = AuditEvent.objects.count()
    response = api(token).get(route)
    assert response.status_code == 403
    assert reason(response) == "refused.member_scope"
    assert AuditEvent.objects.count() == before


@pytest.mark.parametrize("route", ROUTES)
def test_workspace_token_in_a_browser_is_403(route, api, setup, workspace_token):
    _, ws = setup
    response = api(workspace_token(ws), HTTP_ORIGIN="https://evil.example").get(route)
    assert response.status_code == 403
    assert reason(response) == "refused.token_in_browser"


@pytest.mark.parametrize("role", ["owner", "admin", "manager"])
@pytest.mark.parametrize("route", [r for r in ROUTES if "journey" not in r])
def test_workspace_wide_sessions_read(route, role, api, setup, make_member, session_token, records):
    _, ws = setup
    records(ws).funnel()
    response = api(session_token(make_member(ws, role))).get(route)
    assert response.status_code == 200
    assert response.json()["workspace"] == {"id": str(ws.pk), "currency": "USD"}


@pytest.mark.parametrize("route", [r for r in ROUTES if "journey" not in r])
def test_a_token_reads_only_its_own_workspace(route, api, make_workspace, workspace_token, records):
    mine, theirs = make_workspace(), make_workspace(currency="EUR")
    records(mine).funnel()
    response = api(workspace_token(mine)).get(route)
    assert response.status_code == 200
    assert response.json()["workspace"] == {"id": str(mine.pk), "currency": "USD"}
    assert str(theirs.pk) not in response.content.decode()


def test_another_workspaces_goals_and_members_are_not_answered(
    api, make_workspace, make_member, workspace_token
):
    mine, theirs = make_workspace(), make_workspace()
    stranger = make_member(theirs, "closer", name="Stranger")
    Goal.objects.create(
        workspace=theirs,
        month=local_today(theirs).replace(day=1),
        metric="calls.taken",
        member=stranger,
        target=9,
    )
    client = api(workspace_token(mine))
    assert client.get("/api/v1/goals").json()["data"] == {"goals": []}
    assert client.get("/api/v1/leaderboard").json()["data"] == {"members": []}


def test_another_workspaces_lead_is_404(api, make_workspace, workspace_token, records):
    mine, theirs = make_workspace(), make_workspace()
    lead = records(theirs).lead()
    for path in [f"/api/v1/leads/{lead.pk}/journey", "/api/v1/leads/not-a-uuid/journey"]:
        response = api(workspace_token(mine)).get(path)
        assert response.status_code == 404
        assert reason(response) == "not_found"
