"""The MCP server through the mcp library's client, against a live server: every tool
answers exactly what its REST operation answers, refusals are tool errors with the API's
reason, and writes follow the idempotency rules."""

import json
from types import SimpleNamespace

import httpx2
import pytest
from django.conf import settings

from agentapi.models import ChangeLogEntry, Draft
from agentapi.services import change_create
from audit.services import SYSTEM
from tests.conftest import aware
from tests.figures.conftest import Records
from tokens.models import ApiToken
from tokens.services import session_token_mint

READ_TOOLS = [
    "whoami",
    "listCallFigures",
    "listOutcomes",
    "listPaymentFigures",
    "listLeads",
    "getLeadJourney",
    "listSpeedToLead",
    "listEodFigures",
    "listAttribution",
    "listAcquisition",
    "listAdSpend",
    "listCommission",
    "getFunnel",
    "getWebinar",
    "listGoals",
    "getLeaderboard",
    "listAuditEvents",
    "getSeries",
    "listEvents",
    "getDisplay",
    "getMyBoard",
    "listChanges",
    "compareAroundChange",
]
WRITE_TOOLS = ["createDraft", "createChange"]

PERIOD = {"from": "2026-03-01", "to": "2026-03-31"}


@pytest.fixture
def team(make_workspace, make_member, workspace_token, session_token, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    workspace = make_workspace(timezone="UTC", origins=["https://app.example.test"])
    closer = make_member(workspace, "closer")
    owner = make_member(workspace, "owner")
    rec = Records(workspace)
    lead = rec.lead("2026-03-02 09:00", name="Dana Reyes", utm_source="youtube")
    rec.touch(lead, "2026-03-02 09:30", member=closer)
    call = rec.call("2026-03-03 10:00", lead=lead, closer=closer, attendance="showed")
    rec.outcome("closed", call=call, member=closer)
    sale = rec.sale(600000, "2026-03-03 11:00", lead=lead, closer=closer)
    rec.payment(sale, 200000, "2026-03-03 11:05")
    rec.call("2026-03-04 10:00", closer=closer, attendance="no_show")
    rec.eod(closer, "2026-03-03")
    event = rec.webinar("2026-03-05 18:00", pitch="2026-03-05 18:40")
    rec.registration(event, lead=lead, joined="2026-03-05 18:01", left="2026-03-05 19:00")
    funnel = rec.funnel()
    rec.funnel_event(funnel, lead, "opt-in", "2026-03-02 09:00")
    rec.rule(closer)
    change = change_create(
        workspace=workspace,
        actor=SYSTEM,
        effective_at=aware("2026-03-10 00:00"),
        kind="price",
        title="Price up",
        what="Mastermind to 6000",
    )
    return SimpleNamespace(
        workspace=workspace,
        closer=closer,
        owner=owner,
        lead=lead,
        event=event,
        change=change,
        read=workspace_token(workspace, ("read",)),
        write=workspace_token(workspace, ("read", "data:write")),
        # The closer's session, signed in for the REST API and for the MCP server.
        closer_session=session_token(closer),
        closer_mcp=session_token_mint(
            actor=SYSTEM,
            member=closer,
            embedded_app=workspace.embedded_apps.get(),
            resource=settings.MCP_AUDIENCE,
        ),
    )


def _tool_and_rest(team):
    """tool name -> (token, arguments, the REST path and query answering the same)."""
    lead, change = str(team.lead.pk), str(team.change.pk)
    return {
        "whoami": (team.read, {}, "/api/v1/whoami", {}),
        "listCallFigures": (team.read, PERIOD, "/api/v1/calls", PERIOD),
        "listOutcomes": (team.read, PERIOD, "/api/v1/outcomes", PERIOD),
        "listPaymentFigures": (team.read, PERIOD, "/api/v1/payments", PERIOD),
        "listLeads": (team.read, {**PERIOD, "limit": 1}, "/api/v1/leads", {**PERIOD, "limit": 1}),
        "getLeadJourney": (team.read, {"id": lead}, f"/api/v1/leads/{lead}/journey", {}),
        "listSpeedToLead": (
            team.read,
            {"withinMinutes": 600},
            "/api/v1/speed-to-lead",
            {"withinMinutes": 600},
        ),
        "listEodFigures": (team.read, PERIOD, "/api/v1/eod", PERIOD),
        "listAttribution": (team.read, PERIOD, "/api/v1/attribution", PERIOD),
        "listAcquisition": (
            team.read,
            {**PERIOD, "by": "source"},
            "/api/v1/acquisition",
            {**PERIOD, "by": "source"},
        ),
        "listAdSpend": (team.read, PERIOD, "/api/v1/ad-spend", PERIOD),
        "listCommission": (team.read, PERIOD, "/api/v1/commission", PERIOD),
        "getFunnel": (
            team.read,
            {**PERIOD, "funnel": "vsl"},
            "/api/v1/funnel",
            {**PERIOD, "funnel": "vsl"},
        ),
        "getWebinar": (
            team.read,
            {"eventId": str(team.event.pk)},
            "/api/v1/webinar",
            {"eventId": str(team.event.pk)},
        ),
        "listGoals": (team.read, {"month": "2026-03"}, "/api/v1/goals", {"month": "2026-03"}),
        "getLeaderboard": (
            team.read,
            {**PERIOD, "role": "setter"},
            "/api/v1/leaderboard",
            {**PERIOD, "role": "setter"},
        ),
        "listAuditEvents": (team.read, PERIOD, "/api/v1/audit-events", PERIOD),
        "getSeries": (
            team.read,
            {**PERIOD, "metric": "payments.cash_collected", "interval": "week"},
            "/api/v1/series",
            {**PERIOD, "metric": "payments.cash_collected", "interval": "week"},
        ),
        "listEvents": (
            team.read,
            {"types": "change.created", "limit": 1},
            "/api/v1/events",
            {"types": "change.created", "limit": 1},
        ),
        "getDisplay": (team.read, {}, "/api/v1/display", {}),
        "getMyBoard": (team.closer_mcp, PERIOD, "/api/v1/me/board", PERIOD),
        "listChanges": (team.read, PERIOD, "/api/v1/change-log", PERIOD),
        "compareAroundChange": (
            team.read,
            {"id": change, "days": 7},
            f"/api/v1/change-log/{change}/compare",
            {"days": 7},
        ),
    }


def test_the_tools_listed_are_the_operations(team, mcp):
    listed = mcp(team.write, lambda client: client.list_tools())
    assert [tool.name for tool in listed.tools] == READ_TOOLS + WRITE_TOOLS
    read_only = mcp(team.read, lambda client: client.list_tools())
    assert [tool.name for tool in read_only.tools] == READ_TOOLS


def test_every_operation_of_the_figures_description_is_a_read_tool(team, mcp, client):
    """The figures description (/api/v1/openapi.json) is read-only, and an assistant reads
    through MCP whatever it describes."""
    described = client.get("/api/v1/openapi.json").json()["paths"]
    operations = {
        operation["operationId"]: method
        for item in described.values()
        for method, operation in item.items()
    }
    assert set(operations.values()) == {"get"}
    listed = mcp(team.read, lambda client: client.list_tools())
    tools = {tool.name: tool for tool in listed.tools}
    assert set(operations) - set(tools) == set()
    assert all(tools[name].annotations.read_only_hint is True for name in operations)


def test_input_schemas_carry_the_bounds_and_descriptions_of_the_api(team, mcp, client):
    tools = {t.name: t for t in mcp(team.write, lambda c: c.list_tools()).tools}
    described = client.get("/api/v1/openapi.json").json()["paths"]
    limit = tools["listLeads"].input_schema["properties"]["limit"]
    served = next(
        p for p in described["/api/v1/leads"]["get"]["parameters"] if p["name"] == "limit"
    )
    assert limit == {**served["schema"], "description": served["description"]}
    assert limit["minimum"] == 1 and "maximum" not in limit  # capped at 500, not refused
    within = tools["listSpeedToLead"].input_schema["properties"]["withinMinutes"]
    assert (within["minimum"], within["maximum"], within["default"]) == (1, 10080, 120)
    days = tools["compareAroundChange"].input_schema["properties"]["days"]
    assert (days["minimum"], days["maximum"], days["default"]) == (1, 90, 14)
    assert tools["compareAroundChange"].input_schema["required"] == ["id"]
    assert tools["listCallFigures"].input_schema["properties"]["from"]["format"] == "date"
    change = tools["createChange"].input_schema
    assert set(change["properties"]) == {
        "effective_at",
        "kind",
        "title",
        "what",
        "why",
        "workspaceId",
        "idempotency_key",
    }
    assert change["properties"]["kind"]["enum"] == ["price", "offer", "script", "rule", "other"]
    assert change["properties"]["idempotency_key"]["minLength"] == 8
    assert "idempotency_key" not in change["required"]
    assert tools["createDraft"].annotations.read_only_hint is False
    assert tools["listCallFigures"].annotations.read_only_hint is True


@pytest.mark.parametrize("name", READ_TOOLS)
def test_each_read_tool_answers_what_rest_answers(team, call_tool, api, name):
    token, arguments, path, query = _tool_and_rest(team)[name]
    rest_token = team.closer_session if token == team.closer_mcp else token
    rest = api(rest_token).get(path, query)
    assert rest.status_code == 200
    result = call_tool(token, name, **arguments)
    assert result.is_error is False
    expected, answered = rest.json(), result.structured_content
    if name == "listSpeedToLead":  # the window ends at the moment of each request
        assert expected["data"].pop("since") < answered["data"].pop("since")
    assert answered == expected
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert "\n" not in result.content[0].text


def test_a_figures_summary_reads_the_figures(team, call_tool):
    result = call_tool(team.read, "listPaymentFigures", **PERIOD)
    assert result.content[0].text == (
        "Cash collected and revenue booked in the period for 2026-03-01 to 2026-03-31: "
        "Cash collected 2000 USD; Refunded 0 USD; Net cash 2000 USD; Sales 1; "
        "Revenue booked 6000 USD; and 2 more. 0 note(s)."
    )


def test_a_parameter_that_cannot_be_used_is_a_tool_error_naming_it(team, call_tool):
    result = call_tool(team.read, "listCallFigures", **{"from": "2026-03-31", "to": "2026-03-01"})
    assert result.is_error is True
    assert result.structured_content == {
        "error": {
            "reason": "invalid_parameter",
            "message": "from (2026-03-31) is after to (2026-03-01).",
        },
        "field": "from",
    }
    assert result.content[0].text == (
        "Refused, invalid_parameter: from (2026-03-31) is after to (2026-03-01). (field: from)"
    )


def test_a_draft_with_a_cash_field_is_refused(team, call_tool):
    result = call_tool(
        team.write,
        "createDraft",
        form="post-call",
        member_id=str(team.closer.pk),
        fields={"attendance": "showed", "outcome": "closed", "cash_collected": 2000},
        idempotency_key="draft-with-cash-1",
    )
    assert result.is_error is True
    assert result.structured_content["error"]["reason"] == "refused.cash_figures"
    assert result.structured_content["field"] == "fields.cash_collected"
    assert result.content[0].text.startswith("Refused, refused.cash_figures: ")
    assert Draft.objects.count() == 0


def test_a_draft_is_proposed(team, call_tool):
    result = call_tool(
        team.write,
        "createDraft",
        form="eod",
        member_id=str(team.closer.pk),
        fields={"fields": {"dials": 80}},
    )
    assert result.is_error is False
    draft = Draft.objects.get()
    assert result.structured_content["id"] == str(draft.pk)
    assert result.structured_content["created_by"]["kind"] == "workspace_token"
    assert draft.member == team.closer


def test_a_write_repeated_with_the_same_key_writes_once(team, call_tool):
    entry = {
        "effective_at": "2026-03-20T09:00:00+00:00",
        "kind": "script",
        "title": "New opener",
        "what": "Opener asks about the goal first.",
        "idempotency_key": "change-key-0001",
    }
    first = call_tool(team.write, "createChange", **entry)
    again = call_tool(team.write, "createChange", **entry)
    assert first.is_error is False and again.is_error is False
    assert again.structured_content == first.structured_content
    assert ChangeLogEntry.objects.filter(title="New opener").count() == 1
    assert "(replayed" not in first.content[0].text
    assert "(replayed: this key's first answer)" in again.content[0].text

    reused = call_tool(team.write, "createChange", **{**entry, "title": "Another"})
    assert reused.is_error is True
    assert reused.structured_content["error"]["reason"] == "refused.idempotency_key_reused"
    assert ChangeLogEntry.objects.filter(title="Another").count() == 0


def test_writes_without_a_key_each_write(team, call_tool):
    entry = {"effective_at": "2026-03-20T09:00:00Z", "kind": "other", "title": "T", "what": "W"}
    call_tool(team.write, "createChange", **entry)
    call_tool(team.write, "createChange", **entry)
    assert ChangeLogEntry.objects.filter(title="T").count() == 2


def _reason(result):
    assert result.is_error is True
    return result.structured_content["error"]["reason"]


def test_the_rest_access_rules_apply(team, call_tool, make_workspace, workspace_token):
    other = make_workspace()
    other_lead = Records(other).lead()
    # Another workspace's ids are not found; naming another workspace is refused.
    assert _reason(call_tool(team.read, "getLeadJourney", id=str(other_lead.pk))) == "not_found"
    assert (
        _reason(call_tool(team.read, "getDisplay", workspaceId=str(other.pk)))
        == "refused.cross_workspace"
    )
    # A token of the other workspace does not reach this one's records.
    other_token = workspace_token(other)
    assert _reason(call_tool(other_token, "getLeadJourney", id=str(team.lead.pk))) == "not_found"
    assert (
        _reason(call_tool(other_token, "compareAroundChange", id=str(team.change.pk)))
        == "not_found"
    )
    # Scopes, kinds and roles, as the REST routes refuse them.
    read_write = call_tool(team.read, "createChange", kind="other", title="t", what="w")
    assert _reason(read_write) == "insufficient_scope"
    assert read_write.structured_content["requiredScope"] == "data:write"
    assert _reason(call_tool(team.read, "getMyBoard")) == "refused.drafts_only"
    assert _reason(call_tool(team.closer_mcp, "listCallFigures")) == "refused.member_scope"
    assert ChangeLogEntry.objects.count() == 1


def test_an_agency_token_gets_what_the_rest_routes_give_it(
    team, call_tool, make_agency, agency_token
):
    agency = make_agency()
    team.workspace.agency = agency
    team.workspace.save()
    token = agency_token(agency, scopes=("read",))
    figures = call_tool(token, "listCallFigures")
    assert _reason(figures) == "unauthenticated"
    assert figures.structured_content["error"]["message"].startswith("Agency tokens reach plans")
    display = call_tool(token, "getDisplay", workspaceId=str(team.workspace.pk))
    assert display.is_error is False
    assert display.structured_content["workspace_id"] == str(team.workspace.pk)
    assert _reason(call_tool(token, "getDisplay")) == "unauthenticated"


# --- Refused before any MCP message -----------------------------------------------------


def _assert_401(response, message=None):
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == (
        f'Bearer resource_metadata="{settings.BASE_URL}/.well-known/oauth-protected-resource/mcp"'
    )
    body = response.json()
    assert body["error"]["reason"] == "unauthenticated"
    if message is not None:
        assert body["error"]["message"] == message


def test_no_token_answers_401_pointing_to_the_metadata(mcp_post):
    _assert_401(
        mcp_post(),
        "Send a valid token in the Authorization header: 'Authorization: Bearer <token>'.",
    )


def test_a_token_not_of_the_service_answers_401(mcp_post):
    _assert_401(mcp_post("svc_" + "0" * 64), "This token is not a token of this service.")


def test_a_revoked_token_answers_401(team, mcp_post):
    ApiToken.objects.filter(workspace=team.workspace).update(revoked_at=aware("2026-03-01 00:00"))
    _assert_401(
        mcp_post(team.read), "This token has been revoked. Create a new one in the settings."
    )


def test_a_session_token_bound_to_the_rest_api_is_refused_here_and_the_reverse(
    team, mcp_post, api, session_token
):
    _assert_401(
        mcp_post(team.closer_session),
        f"This access token was not issued for {settings.MCP_AUDIENCE}: sign in again with "
        "resource set to it.",
    )
    assert api(team.closer_session).get("/api/v1/me/board").status_code == 200

    assert mcp_post(team.closer_mcp).status_code == 200
    refused = api(team.closer_mcp).get("/api/v1/me/board")
    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == (
        f"This access token was not issued for {settings.API_AUDIENCE}: sign in again with "
        "resource set to it."
    )


def test_the_browser_rules_apply(team, mcp_post):
    listed = mcp_post(team.closer_mcp, Origin="https://app.example.test")
    assert listed.status_code == 200
    unlisted = mcp_post(team.closer_mcp, Origin="https://evil.example.test")
    assert unlisted.status_code == 403
    assert unlisted.json()["error"] == {
        "reason": "refused.origin",
        "message": "The origin https://evil.example.test is not listed in this workspace's "
        "embedded-apps settings.",
    }
    refused = mcp_post(team.read, Origin="https://app.example.test")
    assert refused.status_code == 403
    assert refused.json()["error"]["reason"] == "refused.token_in_browser"
    assert mcp_post(team.read, **{"Sec-Fetch-Site": "same-origin"}).status_code == 403


def test_tools_list_answers_json(team, mcp_post):
    response = mcp_post(team.read)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    names = [tool["name"] for tool in json.loads(response.content)["result"]["tools"]]
    assert names == READ_TOOLS


def test_the_protected_resource_metadata_of_the_mcp_server(client):
    response = client.get("/.well-known/oauth-protected-resource/mcp")
    assert response.status_code == 200
    assert response.json() == {
        "resource": settings.MCP_AUDIENCE,
        "authorization_servers": [settings.BASE_URL],
        "scopes_supported": ["data:write", "read"],
        "bearer_methods_supported": ["header"],
        "resource_name": "Sales Figures MCP server",
        "resource_documentation": f"{settings.BASE_URL}/api/docs/",
    }


def test_tool_calls_count_against_the_token_s_request_rate(team, mcp, settings):
    settings.RATE_LIMIT_READ = "2/min"

    async def three_calls(client):
        return [await client.call_tool("whoami", {}) for _ in range(3)]

    first, second, third = mcp(team.read, three_calls)
    assert first.is_error is False and second.is_error is False
    assert _reason(third) == "rate_limited"
    assert third.structured_content["error"]["message"].startswith(
        "This token may make 2 reads a minute."
    )


def test_only_post_is_served(transactional_db, team, mcp_base_url):
    response = httpx2.get(
        f"{mcp_base_url}/mcp",
        headers={"Authorization": f"Bearer {team.read}", "Accept": "text/event-stream"},
        timeout=10,
    )
    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    assert response.json()["error"]["reason"] == "method_not_allowed"
    assert httpx2.get(f"{mcp_base_url}/mcp", timeout=10).status_code == 401


def test_a_series_summary_counts_its_points(team, call_tool):
    result = call_tool(
        team.read, "getSeries", **PERIOD, metric="payments.cash_collected", interval="week"
    )
    assert result.is_error is False
    assert len(result.structured_content["data"]["points"]) == 6
    assert result.content[0].text.endswith(": 6 points. 0 note(s).")
