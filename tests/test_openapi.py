"""Both API descriptions generate without warnings, validate, and match the copies in docs/."""

import json
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
    "/api/v1/commission": "listCommission",
    "/api/v1/funnel": "getFunnel",
    "/api/v1/webinar": "getWebinar",
    "/api/v1/audit-events": "listAuditEvents",
    "/api/v1/series": "getSeries",
}

AGENT_ROUTES = {
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
    for path, operation_id in FIGURES_OPERATIONS.items():
        assert schema["paths"][path]["get"]["operationId"] == operation_id


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
