"""The metric registry, docs/metrics.md and the served OpenAPI description agree."""

import io
import json
import re

import pytest
from django.core.management import call_command

from figures import registry
from figures.docs import DOC_PATH, metrics_markdown

OPERATION_IDS = {
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
    # The events feed shares the description (the webhook endpoints are the agent API's).
    "/api/v1/events": "listEvents",
    # The spend records are read here; they are written through the agent API.
    "/api/v1/ad-spend": "listAdSpend",
}


def test_every_metric_is_well_formed():
    for metric in registry.METRIC_LIST:
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", metric.id)
        assert metric.unit in {"count", "money", "rate", "count or money"}
        assert metric.definition and metric.label and registry.EXAMPLES[metric.id]
        if metric.unit == "rate":
            assert metric.numerator and metric.denominator and metric.null_when
    assert len(registry.METRICS) == len(registry.METRIC_LIST)
    assert set(registry.EXAMPLES) == set(registry.METRICS)


def test_docs_list_every_metric_and_note_code():
    text = DOC_PATH.read_text(encoding="utf-8")
    for metric_id in registry.METRICS:
        assert f"`{metric_id}`" in text
    for code in [*registry.NOTE_CODES, *registry.UNAVAILABLE_CODES]:
        assert f"`{code}`" in text


def test_docs_are_the_generated_copy():
    assert DOC_PATH.read_text(encoding="utf-8") == metrics_markdown(), (
        "docs/metrics.md is stale: run manage.py write_metrics_doc"
    )


@pytest.mark.django_db
def test_openapi_description_is_valid_and_names_the_operations():
    out = io.StringIO()
    call_command(
        "spectacular",
        "--urlconf",
        "config.urls_figures",
        "--validate",
        "--fail-on-warn",
        "--format",
        "openapi-json",
        "--skip-checks",
        stdout=out,
    )
    schema = json.loads(out.getvalue())
    found = {path: ops["get"]["operationId"] for path, ops in schema["paths"].items()}
    assert found == OPERATION_IDS
    calls = schema["paths"]["/api/v1/calls"]["get"]
    assert {p["name"] for p in calls["parameters"]} == {"from", "to"}
    assert {"200", "400", "401", "403"} <= set(calls["responses"])
    assert "calls.show_rate" in calls["description"]
    example = calls["responses"]["200"]["content"]["application/json"]["examples"]
    assert next(iter(example.values()))["value"]["data"]["show_rate"]["value"] == 0.75
    leads = schema["paths"]["/api/v1/leads"]["get"]
    assert {p["name"] for p in leads["parameters"]} == {"from", "to", "limit"}
    assert "404" in schema["paths"]["/api/v1/leads/{id}/journey"]["get"]["responses"]
    assert schema["components"]["schemas"]["Field"]["properties"]["metric"]


def test_every_metric_declares_its_direction_of_better():
    declared = {metric.id: metric.better for metric in registry.METRIC_LIST}
    assert set(declared.values()) <= set(registry.DIRECTIONS)
    # The three sets name exactly the registry's metrics: none is left out, none is stale.
    named = registry._BETTER_UP | registry._BETTER_DOWN | registry._BETTER_NEITHER
    assert named == set(declared)
    assert not registry._BETTER_UP & registry._BETTER_DOWN
    assert {key: declared[key] for key in ("payments.refunded", "acquisition.cost_per_close")} == {
        "payments.refunded": "down",
        "acquisition.cost_per_close": "down",
    }
    assert declared["payments.cash_collected"] == "up"
    assert declared["acquisition.spend"] == "neither"


def test_a_metric_without_a_direction_stops_the_registry():
    with pytest.raises(KeyError):
        registry._m("/api/v1/calls", "calls.new_kind", "New", registry.COUNT, "A new count.")
