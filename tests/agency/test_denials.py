"""Every agency route refuses the wrong token kind, a missing scope, the wrong tier and
another agency's objects, with the exact status and reason, and changes nothing."""

from types import SimpleNamespace

import pytest
from django.utils import timezone

from agency.links import connect_link_create
from agency.models import Blueprint, ConnectLink, Plan
from agency.services import blueprint_put, plan_create
from audit.models import AuditEvent
from audit.services import SYSTEM
from core.models import IdempotencyRecord
from integrations.models import Connection
from workspaces.models import Member, Workspace

from .conftest import ALL_SCOPES, new_key

pytestmark = pytest.mark.django_db


def _plan(agency, slug):
    return plan_create(
        agency=agency,
        actor=SYSTEM,
        parsed={
            "blueprint": None,
            "workspace": {"name": "N", "slug": slug, "currency": "USD", "timezone": "UTC"},
            "settings": {},
            "team": [],
            "programmes": [],
            "integrations": [],
        },
    )


def _objects(agency, workspace, slug):
    plan = _plan(agency, slug)
    blueprint_put(
        agency=agency,
        actor=SYSTEM,
        key="base",
        parsed={"name": "Base", "settings": {}, "team": [], "programmes": [], "integrations": []},
    )
    link, _ = connect_link_create(
        agency=agency,
        workspace=workspace,
        integrations=["stripe"],
        expires_in_hours=72,
        actor=SYSTEM,
    )
    return plan, link


@pytest.fixture
def world(make_agency, make_workspace, make_member, agency_token, workspace_token, session_token):
    agency = make_agency(tier="agency")
    workspace = make_workspace(agency=agency)
    plan, link = _objects(agency, workspace, "plan-ours")
    other = make_agency(tier="agency")
    other_workspace = make_workspace(agency=other)
    other_plan, other_link = _objects(other, other_workspace, "plan-theirs")
    # An agency that drafted a plan and then moved down to the starter tier.
    starter = make_agency(tier="agency")
    starter_workspace = make_workspace(agency=starter)
    starter_plan = _plan(starter, "plan-starter")
    starter.tier = "starter"
    starter.save(update_fields=["tier"])
    owner = make_member(workspace, "owner")
    return SimpleNamespace(
        agency=agency,
        workspace=workspace,
        plan=plan,
        link=link,
        other_workspace=other_workspace,
        other_plan=other_plan,
        other_link=other_link,
        starter_plan=starter_plan,
        starter_workspace=starter_workspace,
        full=agency_token(agency),
        starter=agency_token(starter),
        workspace_token=workspace_token(workspace, scopes=("read", "data:write")),
        session=session_token(owner),
        missing={
            scope: agency_token(agency, scopes=[s for s in ALL_SCOPES if s != scope])
            for scope in ALL_SCOPES
        },
    )


def _routes(w):
    ws = w.workspace.pk
    return [
        ("GET", "/api/v1/agency/workspaces", "read", None),
        ("POST", "/api/v1/plans", "config:plan", {"workspace": {"id": str(ws)}}),
        ("GET", f"/api/v1/plans/{w.plan.pk}", "config:plan", None),
        ("POST", f"/api/v1/plans/{w.plan.pk}/apply", "config:apply", {}),
        ("POST", f"/api/v1/plans/{w.plan.pk}/request-approval", "config:plan", {}),
        ("GET", "/api/v1/templates", "read", None),
        ("GET", "/api/v1/templates/base", "read", None),
        ("PUT", "/api/v1/templates/base", "config:plan", {"name": "Changed"}),
        (
            "POST",
            f"/api/v1/workspaces/{ws}/connect-links",
            "connect:links",
            {"integrations": ["zoom"]},
        ),
        ("GET", f"/api/v1/workspaces/{ws}/connect-links/{w.link.pk}", "connect:links", None),
        ("POST", f"/api/v1/workspaces/{ws}/connect-links/{w.link.pk}/revoke", "connect:links", {}),
    ]


def _state():
    return (
        Plan.objects.filter(state="drafted").count(),
        list(Plan.objects.order_by("pk").values_list("state", "updated_at")),
        list(Blueprint.objects.order_by("pk").values_list("name", "updated_at")),
        list(ConnectLink.objects.order_by("pk").values_list("revoked_at", flat=True)),
        Connection.objects.count(),
        Workspace.objects.count(),
        Member.objects.count(),
        AuditEvent.objects.count(),
    )


def _send(api, token, method, path, body):
    client = api(token)
    if method == "GET":
        return client.get(path)
    return getattr(client, method.lower())(
        path, body, format="json", HTTP_IDEMPOTENCY_KEY=new_key()
    )


ROUTE_IDS = [
    "listAgencyWorkspaces",
    "createPlan",
    "getPlan",
    "applyPlan",
    "requestPlanApproval",
    "listTemplates",
    "getTemplate",
    "putTemplate",
    "createConnectLink",
    "getConnectLink",
    "revokeConnectLink",
]


@pytest.mark.parametrize("index", range(len(ROUTE_IDS)), ids=ROUTE_IDS)
@pytest.mark.parametrize("kind", ["workspace_token", "session"])
def test_workspace_and_session_tokens_are_not_agency_tokens(world, api, index, kind):
    method, path, _, body = _routes(world)[index]
    before = _state()
    response = _send(api, getattr(world, kind), method, path, body)
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "token.not_agency"
    assert _state() == before


@pytest.mark.parametrize("index", range(len(ROUTE_IDS)), ids=ROUTE_IDS)
def test_a_missing_scope_is_named(world, api, index):
    method, path, scope, body = _routes(world)[index]
    before = _state()
    response = _send(api, world.missing[scope], method, path, body)
    assert response.status_code == 403
    body = response.json()
    assert body["error"]["reason"] == "scope.missing"
    assert body["requiredScope"] == scope
    if scope == "config:apply":
        assert body["approval"] == "request"
    else:
        assert "approval" not in body
    assert _state() == before


def test_a_read_only_token_applying_is_told_to_request_approval(world, api):
    response = _send(
        api, world.missing["config:apply"], "POST", f"/api/v1/plans/{world.plan.pk}/apply", {}
    )
    assert response.json() == {
        "error": {
            "reason": "scope.missing",
            "message": "This agency token lacks the config:apply scope.",
        },
        "requiredScope": "config:apply",
        "approval": "request",
    }


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("POST", "/api/v1/plans", {"workspace": {"name": "S", "slug": "s-new", "currency": "USD"}}),
        ("POST", "/api/v1/plans/{starter_plan}/apply", {}),
        ("PUT", "/api/v1/templates/base", {"name": "Base"}),
    ],
    ids=["createPlan", "applyPlan", "putTemplate"],
)
def test_starter_tier_is_told_to_upgrade(world, api, method, path, body):
    before = _state()
    response = _send(
        api, world.starter, method, path.format(starter_plan=world.starter_plan.pk), body
    )
    assert response.status_code == 402
    assert response.json()["error"]["reason"] == "tier.upgrade_required"
    assert _state() == before
    # A business refusal is kept under its key, so a retry answers the same.
    assert list(IdempotencyRecord.objects.values_list("status_code", flat=True)) == [402]


def test_starter_tier_on_another_agencys_plan_is_404_first(world, api):
    response = _send(api, world.starter, "POST", f"/api/v1/plans/{world.plan.pk}/apply", {})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("GET", "/api/v1/plans/{other_plan}", None),
        ("GET", "/api/v1/plans/not-a-uuid", None),
        ("POST", "/api/v1/plans/{other_plan}/apply", {}),
        ("POST", "/api/v1/plans/{other_plan}/request-approval", {}),
        ("GET", "/api/v1/templates/unknown", None),
        ("POST", "/api/v1/workspaces/{other_ws}/connect-links", {"integrations": ["stripe"]}),
        ("POST", "/api/v1/workspaces/not-a-uuid/connect-links", {"integrations": ["stripe"]}),
        ("GET", "/api/v1/workspaces/{other_ws}/connect-links/{other_link}", None),
        ("GET", "/api/v1/workspaces/{ws}/connect-links/{other_link}", None),
        ("POST", "/api/v1/workspaces/{other_ws}/connect-links/{other_link}/revoke", {}),
        ("POST", "/api/v1/workspaces/{ws}/connect-links/{other_link}/revoke", {}),
    ],
)
def test_another_agencys_objects_are_not_found(world, api, method, path, body):
    path = path.format(
        other_plan=world.other_plan.pk,
        other_ws=world.other_workspace.pk,
        other_link=world.other_link.pk,
        ws=world.workspace.pk,
    )
    before = _state()
    response = _send(api, world.full, method, path, body)
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "not_found"
    assert _state() == before


def test_another_agencys_blueprint_is_not_found(world, api, make_agency, agency_token):
    stranger = agency_token(make_agency(tier="agency"))
    response = api(stranger).get("/api/v1/templates/base")
    assert response.status_code == 404
    assert api(stranger).get("/api/v1/templates").json() == {"blueprints": []}


def test_an_archived_workspace_is_not_found(world, api):
    Workspace.objects.filter(pk=world.workspace.pk).update(archived_at=timezone.now())
    response = _send(
        api,
        world.full,
        "POST",
        f"/api/v1/workspaces/{world.workspace.pk}/connect-links",
        {"integrations": ["stripe"]},
    )
    assert response.status_code == 404


def test_writes_need_an_idempotency_key(world, api):
    before = _state()
    response = api(world.full).post("/api/v1/plans", {"workspace": {"id": "x"}}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "refused.idempotency_key_required"
    assert _state() == before


def test_an_agency_token_from_a_web_page_is_refused(world, api):
    client = api(world.full, HTTP_ORIGIN="https://evil.example")
    response = client.get("/api/v1/agency/workspaces")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.token_in_browser"
