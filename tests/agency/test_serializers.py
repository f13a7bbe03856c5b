"""agency/serializers.py: the documented body serializers parse the bodies, each error
naming its member with a dotted path; the answers are rendered by the answer serializers."""

import pytest
from rest_framework import serializers as drf

from agency.models import Plan
from agency.serializers import (
    BlueprintBodySerializer,
    LogoField,
    PlanBodySerializer,
    RedirectUriField,
    body_parse,
    error_responses,
)
from core.errors import ApiError, InvalidField
from core.openapi import BODY_LIMITS_TEXT

from .conftest import new_workspace_plan

pytestmark = pytest.mark.django_db

WORKSPACE = {"id": "6d8f7c2e-9a51-4a8e-9a7d-2f5a9b1c3e40"}


def _refused(serializer_class, body) -> tuple[str, str]:
    with pytest.raises(ApiError) as caught:
        body_parse(serializer_class, body)
    return caught.value.extra["field"], caught.value.message


def test_a_wrong_member_after_valid_ones_is_named_by_its_dotted_path():
    team = [
        {"email": "ana@acme.test", "name": "Ana", "role": "closer"},
        {"email": "ben@acme.test", "name": "Ben", "role": "owner"},
        {"email": "not an address", "name": "Cy", "role": "setter"},
    ]
    assert _refused(PlanBodySerializer, {"workspace": WORKSPACE, "team": team}) == (
        "team.2.email",
        "team.2.email: is not an email address.",
    )


def test_an_unknown_member_is_named_before_any_other_problem():
    assert _refused(PlanBodySerializer, {"colour": "red"}) == (
        "colour",
        "colour: Unknown member 'colour'; the known members are blueprint, workspace, "
        "settings, team, programmes, integrations.",
    )
    assert _refused(BlueprintBodySerializer, {"workspace": WORKSPACE}) == (
        "workspace",
        "workspace: A blueprint has no workspace: the plan names it.",
    )


def test_a_body_that_is_not_an_object_names_the_body():
    with pytest.raises(InvalidField) as caught:
        body_parse(PlanBodySerializer, ["workspace"])
    assert (caught.value.reason, caught.value.extra["field"], caught.value.message) == (
        "invalid_field",
        "body",
        "The body must be a JSON object.",
    )


def test_a_plan_body_is_cleaned_as_the_service_takes_it():
    body = {
        "workspace": {"name": " Acme ", "slug": "acme", "currency": "usd", "timezone": ""},
        "settings": {
            "working_days": [4, 0, 4],
            "colours": {"accent": ""},
            "embedded_origins": ["https://App.Acme.test/", "https://app.acme.test:443"],
        },
        "team": [{"email": " Ana@Acme.TEST ", "name": " Ana ", "role": "closer"}],
        "programmes": [{"name": "Mastermind", "price": 4997.5}, {"name": "Day", "price": "10"}],
        "integrations": [" stripe "],
    }
    assert body_parse(PlanBodySerializer, body) == {
        "blueprint": None,
        "workspace": {"name": "Acme", "slug": "acme", "currency": "USD", "timezone": "UTC"},
        "settings": {
            "working_days": [0, 4],
            "colours": {"accent": ""},
            "embedded_origins": ["https://app.acme.test"],
        },
        "team": [{"email": "ana@acme.test", "name": "Ana", "role": "closer"}],
        "programmes": [{"name": "Mastermind", "price": "4997.5"}, {"name": "Day", "price": "10"}],
        "integrations": ["stripe"],
    }


def test_a_drafted_plan_answers_no_workspace_id_and_keeps_prices_as_written(
    agency_world, write, api
):
    created = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan())
    assert created.status_code == 201
    result = created.json()["result"]
    assert set(result) == {"changes"}
    programme = next(c for c in result["changes"] if c["op"] == "programme.add")
    assert programme["detail"] == {"name": "Mastermind", "price": "4997.00"}
    got = api(agency_world.full).get(f"/api/v1/plans/{created.json()['id']}").json()
    assert got == created.json()
    assert got["blueprint"] is None and got["refused_reason"] is None
    assert Plan.objects.count() == 1


def test_logo_and_redirect_uri_fields_follow_the_settings_page_rules():
    logo = LogoField(allow_blank=True)
    assert logo.run_validation("https://cdn.acme.test/logo.png") == "https://cdn.acme.test/logo.png"
    assert logo.run_validation("") == ""
    with pytest.raises(drf.ValidationError) as refused:
        logo.run_validation(5)
    assert refused.value.detail == ["The logo must be a string (an https URL, or empty)."]
    redirect = RedirectUriField(required=False, allow_null=True)
    assert redirect.run_validation(None) is None
    with pytest.raises(drf.ValidationError) as refused:
        redirect.run_validation(5)
    assert refused.value.detail == ["The redirect URI must be a URL string."]


def test_a_write_route_error_answers_name_its_scope_and_the_body_limits():
    answers = error_responses(400, 401, 403, 409, 422, 404, scope="config:apply", approval=True)
    assert list(answers) == [400, 401, 403, 409, 422, 404]
    assert answers[400].description == (
        "A body member or the Idempotency-Key cannot be used; `field` names it." + BODY_LIMITS_TEXT
    )
    assert [example.name for example in answers[400].examples] == [
        "invalid_field",
        "refused.idempotency_key_required",
        "invalid_body",
        "invalid_field (NUL)",
    ]
    assert answers[403].examples[1].value == {
        "error": {
            "reason": "scope.missing",
            "message": "This agency token lacks the config:apply scope.",
        },
        "requiredScope": "config:apply",
        "approval": "request",
    }


def test_a_read_route_error_answers_leave_out_the_body_limits():
    answers = error_responses(400, 401, 403)
    assert answers[400].description == (
        "A body member or the Idempotency-Key cannot be used; `field` names it."
    )
    assert len(answers[400].examples) == 2
    assert answers[403].examples[1].value["requiredScope"] == "read"
    assert "approval" not in answers[403].examples[1].value
