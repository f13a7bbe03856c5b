"""Every route of the agent API against every kind of caller that must be refused.

Each case asserts the exact status and reason, and that nothing changed."""

import uuid

import pytest
from django.utils import timezone
from oauth2_provider.models import get_access_token_model

from agentapi.models import ChangeLogEntry
from audit.services import SYSTEM
from tokens.models import ApiToken
from tokens.services import token_revoke

from .conftest import new_key, snapshot

pytestmark = pytest.mark.django_db

WS = "{ws}"
OTHER_WS = "{other}"

# (method, path, body): bodies are valid, so only the caller decides the answer.
ROUTES = {
    "display": ("get", "/api/v1/display", None),
    "workspace_display": ("get", f"/api/v1/workspaces/{WS}/display", None),
    "board": ("get", "/api/v1/me/board", None),
    "workspaces": ("get", "/api/v1/workspaces", None),
    "create_change": ("post", "/api/v1/change-log", "change"),
    "create_workspace_change": ("post", f"/api/v1/workspaces/{WS}/change-log", "change"),
    "list_changes": ("get", "/api/v1/change-log", None),
    "list_workspace_changes": ("get", f"/api/v1/workspaces/{WS}/change-log", None),
    "compare": ("get", "/api/v1/change-log/{change}/compare", None),
    "post_call": ("post", "/api/v1/forms/post-call", "post_call"),
    "past_call": ("post", "/api/v1/forms/past-call", "past_call"),
    "dm_close": ("post", "/api/v1/forms/dm-close", "dm_close"),
    "eod": ("post", "/api/v1/forms/eod", "eod"),
    "list_drafts": ("get", "/api/v1/forms/drafts", None),
    "create_draft": ("post", "/api/v1/forms/drafts", "draft"),
}

READS = [name for name, (method, _p, _b) in ROUTES.items() if method == "get"]
WRITES = [name for name, (method, _p, _b) in ROUTES.items() if method == "post"]
FORMS = ["post_call", "past_call", "dm_close", "eod"]
WORKSPACE_WIDE = [
    "display",
    "workspace_display",
    "workspaces",
    "create_change",
    "create_workspace_change",
    "list_changes",
    "list_workspace_changes",
    "compare",
]
AGENCY_ROUTES = [
    "workspace_display",
    "create_workspace_change",
    "list_workspace_changes",
]


@pytest.fixture
def world(team, make_call):
    call = make_call(team.workspace, closer=team.members["closer"])
    change = ChangeLogEntry.objects.create(
        workspace=team.workspace,
        effective_at=timezone.now(),
        kind="price",
        title="Price up",
        what="More",
        created_by_kind="test",
    )
    team.call = call
    team.change = change
    team.bodies = {
        "change": {
            "effective_at": "2026-03-01T00:00:00+00:00",
            "kind": "offer",
            "title": "New bonus",
            "what": "Added a bonus call.",
        },
        "post_call": {
            "submission_id": str(uuid.uuid4()),
            "call_id": str(call.pk),
            "attendance": "no_show",
        },
        "past_call": {
            "submission_id": str(uuid.uuid4()),
            "lead": {"name": "N", "email": "n@example.test"},
            "occurred_at": "2026-01-05T10:00:00+00:00",
            "outcome": "no_sale",
        },
        "dm_close": {
            "submission_id": str(uuid.uuid4()),
            "lead": {"name": "N", "email": "n@example.test"},
            "platform": "instagram",
            "closed_at": "2026-01-05T10:00:00+00:00",
            "contract_value": "10",
        },
        "eod": {"fields": {"dials": 1}},
        "draft": {"form": "eod", "fields": {"fields": {"dials": 3}}},
    }
    return team


def _send(api, world, route, token, **headers):
    method, path, body_name = ROUTES[route]
    path = path.format(ws=world.workspace.pk, other=world.other.pk, change=world.change.pk)
    client = api(token, **headers) if token else api(**headers)
    if method == "get":
        return client.get(path)
    body = dict(world.bodies[body_name])
    if route == "create_draft":
        body["member_id"] = str(world.members["closer"].pk)
    client.credentials(
        **({"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}),
        HTTP_IDEMPOTENCY_KEY=new_key(),
        **headers,
    )
    return client.post(path, body, format="json")


def _refused(api, world, route, token, status, reason, **headers):
    before = snapshot()
    response = _send(api, world, route, token, **headers)
    assert response.status_code == status, (route, response.content)
    assert response.json()["error"]["reason"] == reason, (route, response.json())
    assert snapshot() == before, route
    return response


@pytest.mark.parametrize("route", list(ROUTES))
def test_no_token_is_401(api, world, route):
    response = _refused(api, world, route, None, 401, "unauthenticated")
    assert response["WWW-Authenticate"].startswith("Bearer resource_metadata=")


@pytest.mark.parametrize("route", list(ROUTES))
def test_revoked_token_is_401(api, world, route):
    token_revoke(actor=SYSTEM, token=ApiToken.objects.get(name="writer"))
    _refused(api, world, route, world.write_token, 401, "unauthenticated")


@pytest.mark.parametrize("route", list(ROUTES))
def test_api_token_from_a_web_page_is_refused(api, world, route):
    _refused(
        api,
        world,
        route,
        world.write_token,
        403,
        "refused.token_in_browser",
        HTTP_ORIGIN="https://evil.example.test",
    )


@pytest.mark.parametrize("route", list(ROUTES))
def test_session_from_an_unlisted_origin_is_refused(api, world, route):
    _refused(
        api,
        world,
        route,
        world.sessions["owner"],
        403,
        "refused.origin",
        HTTP_ORIGIN="https://evil.example.test",
    )


@pytest.mark.parametrize("route", [r for r in ROUTES if r not in AGENCY_ROUTES])
def test_agency_token_on_a_workspace_only_route_is_401(api, world, route):
    response = _refused(api, world, route, world.agency_full, 401, "unauthenticated")
    assert "agency tokens reach" in response.json()["error"]["message"].lower()


@pytest.mark.parametrize(
    ("route", "token_name", "required"),
    [
        ("workspace_display", "agency_plan", "read"),
        ("list_workspace_changes", "agency_plan", "read"),
        ("create_workspace_change", "agency_read", "config:plan"),
    ],
)
def test_agency_token_without_the_scope_is_scope_missing(api, world, route, token_name, required):
    response = _refused(api, world, route, getattr(world, token_name), 403, "scope.missing")
    assert response.json()["requiredScope"] == required


@pytest.mark.parametrize("route", AGENCY_ROUTES)
def test_agency_token_naming_another_agencys_workspace_is_not_found(api, world, route):
    _refused(api, world, route, world.foreign_agency_full, 404, "not_found")


@pytest.mark.parametrize("route", AGENCY_ROUTES)
def test_agency_token_naming_an_archived_workspace_is_not_found(api, world, route):
    world.workspace.archived_at = timezone.now()
    world.workspace.save(update_fields=["archived_at"])
    _refused(api, world, route, world.agency_full, 404, "not_found")


@pytest.mark.parametrize("route", AGENCY_ROUTES)
def test_workspace_token_naming_another_workspace_is_cross_workspace(api, world, route):
    _refused(api, world, route, world.other_write_token, 403, "refused.cross_workspace")


@pytest.mark.parametrize("route", AGENCY_ROUTES)
def test_session_naming_another_workspace_is_cross_workspace(api, world, route):
    other_owner_session = world.sessions["owner"]
    method, path, _ = ROUTES[route]
    # The owner of this workspace naming the other one.
    other_path = path.replace(WS, OTHER_WS)
    client = api(other_owner_session, HTTP_IDEMPOTENCY_KEY=new_key())
    target = other_path.format(other=world.other.pk)
    before = snapshot()
    if method == "get":
        response = client.get(target)
    else:
        response = client.post(target, world.bodies["change"], format="json")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.cross_workspace"
    assert snapshot() == before


@pytest.mark.parametrize("route", READS)
def test_token_without_read_is_insufficient_scope(api, world, route):
    response = _refused(api, world, route, world.write_only_token, 403, "insufficient_scope")
    assert response.json()["requiredScope"] == "read"


@pytest.mark.parametrize("route", WRITES)
def test_token_without_data_write_is_insufficient_scope(api, world, route):
    response = _refused(api, world, route, world.read_token, 403, "insufficient_scope")
    assert response.json()["requiredScope"] == "data:write"


@pytest.fixture
def read_only_session(world, make_member, session_token):
    manager = make_member(world.workspace, "manager")
    token = session_token(manager)
    get_access_token_model().objects.filter(user=manager.user).update(scope="read")
    return token


@pytest.mark.parametrize("route", WRITES)
def test_session_without_data_write_is_insufficient_scope(api, world, route, read_only_session):
    _refused(api, world, route, read_only_session, 403, "insufficient_scope")


@pytest.mark.parametrize("route", [*FORMS, "board"])
@pytest.mark.parametrize("token_name", ["write_token"])
def test_api_token_on_a_member_route_is_drafts_only(api, world, route, token_name):
    token = getattr(world, token_name) if route in FORMS else world.read_token
    _refused(api, world, route, token, 403, "refused.drafts_only")


@pytest.mark.parametrize("route", WORKSPACE_WIDE)
@pytest.mark.parametrize("role", ["closer", "setter", "sdr"])
def test_reporting_members_are_refused_workspace_wide_routes(api, world, route, role):
    _refused(api, world, route, world.sessions[role], 403, "refused.member_scope")


@pytest.mark.parametrize("role", ["setter", "sdr"])
def test_reporting_member_proposing_a_draft_for_another_is_member_scope(api, world, role):
    before = snapshot()
    response = api(world.sessions[role], HTTP_IDEMPOTENCY_KEY=new_key()).post(
        "/api/v1/forms/drafts",
        {"form": "eod", "member_id": str(world.members["closer"].pk), "fields": {}},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "refused.member_scope"
    assert snapshot() == before


def test_compare_of_another_workspaces_change_is_not_found(api, world):
    foreign = ChangeLogEntry.objects.create(
        workspace=world.other,
        effective_at=timezone.now(),
        kind="rule",
        title="x",
        what="y",
        created_by_kind="test",
    )
    for change_id in (foreign.pk, uuid.uuid4(), "nope"):
        response = api(world.read_token).get(f"/api/v1/change-log/{change_id}/compare")
        assert response.status_code == 404
        assert response.json()["error"]["reason"] == "not_found"


def test_draft_for_a_member_of_another_workspace_is_not_found(api, world):
    before = snapshot()
    response = api(world.write_token, HTTP_IDEMPOTENCY_KEY=new_key()).post(
        "/api/v1/forms/drafts",
        {"form": "eod", "member_id": str(world.other_closer.pk), "fields": {}},
        format="json",
    )
    assert response.status_code == 404
    assert snapshot() == before


# --- What each caller may do -----------------------------------------------------------------

ALLOWED = [
    ("display", "read_token", 200),
    ("display", "owner", 200),
    ("display", "manager", 200),
    ("workspace_display", "read_token", 200),
    ("workspace_display", "agency_read", 200),
    ("workspace_display", "admin", 200),
    ("board", "closer", 200),
    ("board", "sdr", 200),
    ("board", "owner", 200),
    ("workspaces", "read_token", 200),
    ("workspaces", "admin", 200),
    ("create_change", "write_token", 201),
    ("create_change", "manager", 201),
    ("create_workspace_change", "agency_plan", 201),
    ("create_workspace_change", "write_token", 201),
    ("list_changes", "read_token", 200),
    ("list_workspace_changes", "agency_read", 200),
    ("compare", "read_token", 200),
    ("compare", "owner", 200),
    ("post_call", "closer", 201),
    ("past_call", "sdr", 201),
    ("dm_close", "setter", 201),
    ("eod", "closer", 201),
    ("eod", "owner", 201),
    ("list_drafts", "read_token", 200),
    ("list_drafts", "setter", 200),
    ("create_draft", "write_token", 201),
    ("create_draft", "closer", 201),
    ("create_draft", "owner", 201),
]


@pytest.mark.parametrize(("route", "who", "status"), ALLOWED)
def test_allowed_callers(api, world, route, who, status):
    token = world.sessions[who] if who in world.sessions else getattr(world, who)
    response = _send(api, world, route, token)
    assert response.status_code == status, response.content
