"""Both API descriptions generate without warnings, validate, and match the copies in docs/."""

import json
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command

DOCS = Path(__file__).resolve().parent.parent / "docs" / "openapi"

DESCRIPTIONS = [
    ("config.urls_figures", "config.openapi.FIGURES", "figures.json", "/api/v1/openapi.json"),
    ("config.urls_agent", "config.openapi.AGENT", "agent.json", "/openapi/agent.json"),
]

FIGURES_OPERATIONS = {
    "/api/v1/whoami": "whoami",
    "/api/v1/calls": "listCallFigures",
    "/api/v1/outcomes": "listOutcomes",
    "/api/v1/payments": "listPaymentFigures",
    "/api/v1/leads": "listLeads",
    "/api/v1/leads/{id}/journey": "getLeadJourney",
    "/api/v1/speed-to-lead": "listSpeedToLead",
    "/api/v1/eod": "listEodFigures",
    "/api/v1/attribution": "listAttribution",
    "/api/v1/acquisition": "listAcquisition",
    "/api/v1/commission": "listCommission",
    "/api/v1/funnel": "getFunnel",
    "/api/v1/webinar": "getWebinar",
    "/api/v1/audit-events": "listAuditEvents",
    "/api/v1/goals": "listGoals",
    "/api/v1/leaderboard": "getLeaderboard",
    "/api/v1/series": "getSeries",
    "/api/v1/events": "listEvents",
    # Read here; written through the agent API (its POST is in the agent description).
    "/api/v1/ad-spend": "listAdSpend",
}

AGENT_ROUTES = {
    ("post", "/api/v1/ad-spend"),
    ("get", "/api/v1/display"),
    ("get", "/api/v1/workspaces/{workspaceId}/display"),
    ("get", "/api/v1/me/board"),
    ("get", "/api/v1/workspaces"),
    ("post", "/api/v1/change-log"),
    ("post", "/api/v1/workspaces/{workspaceId}/change-log"),
    ("post", "/api/v1/forms/post-call"),
    ("post", "/api/v1/forms/past-call"),
    ("post", "/api/v1/forms/dm-close"),
    ("post", "/api/v1/forms/eod"),
    ("get", "/api/v1/forms/drafts"),
    ("post", "/api/v1/forms/drafts"),
    ("get", "/api/v1/agency/workspaces"),
    ("post", "/api/v1/plans"),
    ("get", "/api/v1/plans/{id}"),
    ("post", "/api/v1/plans/{id}/apply"),
    ("post", "/api/v1/plans/{id}/request-approval"),
    ("get", "/api/v1/templates"),
    ("get", "/api/v1/templates/{key}"),
    ("put", "/api/v1/templates/{key}"),
    ("post", "/api/v1/workspaces/{id}/connect-links"),
    ("get", "/api/v1/workspaces/{id}/connect-links/{linkId}"),
    ("post", "/api/v1/workspaces/{id}/connect-links/{linkId}/revoke"),
    ("get", "/api/v1/webhook-endpoints"),
    ("post", "/api/v1/webhook-endpoints"),
    ("get", "/api/v1/webhook-endpoints/{id}"),
    ("patch", "/api/v1/webhook-endpoints/{id}"),
    ("delete", "/api/v1/webhook-endpoints/{id}"),
}


def _generate(urlconf, custom_settings, tmp_path) -> dict:
    out = tmp_path / "schema.json"
    call_command(
        "spectacular",
        "--urlconf",
        urlconf,
        "--custom-settings",
        custom_settings,
        "--format",
        "openapi-json",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(out),
    )
    return json.loads(out.read_text())


@pytest.mark.parametrize(("urlconf", "custom", "copy", "served"), DESCRIPTIONS)
def test_description_is_clean_and_matches_the_committed_copy(
    urlconf, custom, copy, served, tmp_path, client, db
):
    generated = _generate(urlconf, custom, tmp_path)
    committed = json.loads((DOCS / copy).read_text())
    assert generated == committed, f"docs/openapi/{copy} is stale: run `make openapi`"
    response = client.get(served)
    assert response.status_code == 200
    assert json.loads(response.content) == committed


def test_figures_description_carries_the_documented_operation_ids(tmp_path, db):
    schema = json.loads((DOCS / "figures.json").read_text())
    assert schema["info"]["version"] == "1"
    # Read-only: exactly these operations, each a GET.
    described = {
        path: {method: operation["operationId"] for method, operation in item.items()}
        for path, item in schema["paths"].items()
    }
    assert described == {path: {"get": name} for path, name in FIGURES_OPERATIONS.items()}


def test_webhook_endpoints_are_described_with_the_agent_api_and_served_where_they_were(client, db):
    """The routes keep their URLs; only the description naming them changed."""
    figures = client.get("/api/v1/openapi.json").json()["paths"]
    agent = client.get("/openapi/agent.json").json()["paths"]
    assert not [path for path in figures if path.startswith("/api/v1/webhook-endpoints")]
    assert set(agent["/api/v1/webhook-endpoints"]) == {"get", "post"}
    assert set(agent["/api/v1/webhook-endpoints/{id}"]) == {"get", "patch", "delete"}
    callbacks = agent["/api/v1/webhook-endpoints"]["post"]["callbacks"]
    assert "lead.created" in callbacks
    assert "/api/v1/events" not in agent
    # Without a token, each answers the API's 401 (not a 404): still routed.
    for path in ("/api/v1/webhook-endpoints", f"/api/v1/webhook-endpoints/{uuid.uuid4()}"):
        assert client.get(path).status_code == 401


def test_agent_description_has_every_documented_route_and_writes_need_a_key():
    schema = json.loads((DOCS / "agent.json").read_text())
    described = {(method, path) for path, ops in schema["paths"].items() for method in ops}
    assert AGENT_ROUTES - described == set()
    assert schema["paths"]["/api/v1/change-log"]["get"]["operationId"] == "listChanges"
    compare = schema["paths"]["/api/v1/change-log/{id}/compare"]["get"]
    assert compare["operationId"] == "compareAroundChange"
    for method, path in AGENT_ROUTES:
        if method in {"post", "put"}:
            headers = {
                p["name"]
                for p in schema["paths"][path][method].get("parameters", [])
                if p["in"] == "header"
            }
            assert "Idempotency-Key" in headers, (method, path)


def test_interactive_docs_are_served_without_a_cdn(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn" not in html.lower()


def _schemas(copy: str) -> dict:
    return json.loads((DOCS / copy).read_text())["components"]["schemas"]


@pytest.mark.parametrize("copy", ["figures.json", "agent.json"])
def test_the_field_lists_both_sides_and_neither_is_required(copy):
    field = _schemas(copy)["Field"]
    assert set(field["properties"]) == {
        "metric",
        "label",
        "unit",
        "value",
        "currency",
        "numerator",
        "denominator",
        "unavailable",
    }
    assert sorted(field["required"]) == ["label", "metric", "unavailable", "unit", "value"]
    for side in ("numerator", "denominator"):
        assert field["properties"][side]["allOf"] == [{"$ref": "#/components/schemas/FieldSide"}]
        assert "title" not in field["properties"][side]


def test_every_figure_of_an_answer_is_described():
    schemas = _schemas("figures.json")
    calls = schemas["ListCallFiguresData"]
    figures = {
        "booked",
        "cancelled",
        "taken",
        "no_show",
        "awaiting_outcome",
        "upcoming",
        "closed",
        "show_rate",
        "close_rate",
        "offer_rate",
    }
    assert set(calls["properties"]) == figures
    assert set(calls["required"]) == figures
    assert all(
        member == {"$ref": "#/components/schemas/Field"} for member in calls["properties"].values()
    )
    eod_row = schemas["EodMemberRow"]["properties"]
    assert {"id", "name", "email", "role", "expected", "submitted", "compliance_rate"} <= set(
        eod_row
    )


@pytest.mark.parametrize("copy", ["figures.json", "agent.json"])
def test_a_nullable_reference_lets_null_through(copy):
    """`nullable` beside a lone allOf has no effect in OpenAPI 3.0.3: null is spelled out."""
    schemas = _schemas(copy)
    assert schemas["NullEnum"] == {"enum": [None]}
    assert schemas["Field"]["properties"]["unavailable"]["oneOf"] == [
        {"$ref": "#/components/schemas/Unavailable"},
        {"$ref": "#/components/schemas/NullEnum"},
    ]

    def nullable_without_type(node):
        if isinstance(node, dict):
            if node.get("nullable") is True and "type" not in node:
                yield node
            for value in node.values():
                yield from nullable_without_type(value)
        elif isinstance(node, list):
            for value in node:
                yield from nullable_without_type(value)

    assert list(nullable_without_type(schemas)) == []


def _operations(copy: str):
    schema = json.loads((DOCS / copy).read_text())
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


@pytest.mark.parametrize("copy", ["figures.json", "agent.json"])
def test_parameters_state_the_bounds_the_service_enforces(copy):
    bounds = {}
    for path, method, operation in _operations(copy):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "query":
                # An empty value reads as left out, on every route.
                assert parameter["allowEmptyValue"] is True, (path, parameter["name"])
            bounds[(method, path, parameter["name"])] = parameter["schema"]
    if copy == "figures.json":
        assert bounds[("get", "/api/v1/speed-to-lead", "withinMinutes")] == {
            "type": "integer",
            "minimum": 1,
            "maximum": 10080,
            "default": 120,
        }
        assert bounds[("get", "/api/v1/leads", "limit")] == {
            "type": "integer",
            "minimum": 1,
            "default": 100,
        }
        assert (
            bounds[("get", "/api/v1/ad-spend", "limit")]
            == bounds[("get", "/api/v1/leads", "limit")]
        )
        assert bounds[("get", "/api/v1/acquisition", "by")] == {
            "type": "string",
            "enum": ["campaign", "source"],
        }
    else:
        assert bounds[("get", "/api/v1/change-log/{id}/compare", "days")] == {
            "type": "integer",
            "minimum": 1,
            "maximum": 90,
            "default": 14,
        }
        keys = [schema for (_, _, name), schema in bounds.items() if name == "Idempotency-Key"]
        assert len(keys) == 16
        assert all(key == {"type": "string", "minLength": 8, "maxLength": 200} for key in keys)


def test_request_bodies_refuse_members_they_do_not_name():
    schemas = _schemas("agent.json")
    requests = {name: schema for name, schema in schemas.items() if name.endswith("Request")}
    assert {"ChangeCreateRequest", "PostCallFormRequest", "PlanBodyRequest"} <= set(requests)
    for name, schema in requests.items():
        assert schema["additionalProperties"] is False, name
    # Free-form members stay open.
    assert schemas["DraftCreateRequest"]["properties"]["fields"]["additionalProperties"] == {}


def test_an_empty_query_value_reads_as_left_out(make_workspace, workspace_token, api):
    workspace = make_workspace()
    client = api(workspace_token(workspace))
    empty = client.get("/api/v1/calls?from=&to=").json()
    assert empty["period"] == client.get("/api/v1/calls").json()["period"]
    assert (
        client.get("/api/v1/speed-to-lead?withinMinutes=").json()["data"]["within_minutes"] == 120
    )


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "image/png;q=1"])
@pytest.mark.parametrize("path", ["/api/v1/calls", "/api/v1/change-log"])
def test_answers_are_json_whatever_the_accept_header(
    accept, path, make_workspace, workspace_token, api
):
    client = api(workspace_token(make_workspace()), HTTP_ACCEPT=accept)
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "period" in response.json()


def test_both_descriptions_share_one_error_component_and_one_idempotency_key_text():
    texts, errors = set(), []
    for name in ("figures", "agent"):
        document = json.loads((DOCS / f"{name}.json").read_text())
        schemas = document["components"]["schemas"]
        errors.append(sorted(key for key in schemas if key.endswith(("Error", "ErrorDetail"))))
        for operations in document["paths"].values():
            for operation in operations.values():
                for parameter in operation.get("parameters", []):
                    if parameter["name"] == "Idempotency-Key":
                        texts.add(parameter["description"])
    assert errors == [["Error", "ErrorDetail"], ["Error", "ErrorDetail"]]
    assert len(texts) == 1
