"""Plans an agency applies, through the API or approved in its console, are limited per
agency per hour; a plan's team is limited at plan time."""

import pytest
from django.test import Client

from agency.models import Plan

from .conftest import new_key, new_workspace_plan

pytestmark = pytest.mark.django_db


def _plan(agency_world, write, slug):
    plan = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan(slug=slug))
    assert plan.status_code == 201
    return plan.json()["id"]


def test_applies_over_the_agencys_hourly_limit_are_refused_and_not_replayed(
    agency_world, write, settings, make_agency, agency_token
):
    settings.RATE_LIMIT_PLAN_APPLIES = "2/hour"
    plans = [_plan(agency_world, write, f"acme-{n}") for n in range(3)]
    for plan_id in plans[:2]:
        answer = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply", key=new_key())
        assert answer.status_code == 200
    key = new_key()
    refused = write(agency_world.full, "POST", f"/api/v1/plans/{plans[2]}/apply", key=key)
    assert refused.status_code == 429
    body = refused.json()["error"]
    assert body["reason"] == "rate_limited"
    assert body["message"].startswith(
        "An agency may apply 2 plans an hour, through the API or its console."
    )
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert Plan.objects.get(pk=plans[2]).state == "drafted"
    # Another agency has a counter of its own.
    other = make_agency(tier="agency", name="Other Agency")
    other_token = agency_token(other)
    other_plan = write(other_token, "POST", "/api/v1/plans", new_workspace_plan(slug="other"))
    applied = write(
        other_token, "POST", f"/api/v1/plans/{other_plan.json()['id']}/apply", key=new_key()
    )
    assert applied.status_code == 200
    # The refusal was not kept under its key: the same key applies once the limit allows.
    settings.RATE_LIMIT_PLAN_APPLIES = "off"
    again = write(agency_world.full, "POST", f"/api/v1/plans/{plans[2]}/apply", key=key)
    assert (again.status_code, again.get("Idempotent-Replayed")) == (200, None)


def test_an_approval_in_the_console_counts_against_the_same_limit(
    agency_world, write, settings, django_user_model, django_capture_on_commit_callbacks
):
    settings.RATE_LIMIT_PLAN_APPLIES = "1/hour"
    applied = _plan(agency_world, write, "acme-api")
    answer = write(agency_world.full, "POST", f"/api/v1/plans/{applied}/apply", key=new_key())
    assert answer.status_code == 200
    waiting = _plan(agency_world, write, "acme-console")
    write(agency_world.no_apply, "POST", f"/api/v1/plans/{waiting}/request-approval")
    person = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-123456789")
    agency_world.agency.users.add(person)
    console = Client()
    console.force_login(person)
    with django_capture_on_commit_callbacks(execute=True):
        page = console.post(
            f"/agency/{agency_world.agency.pk}/plans/{waiting}/decide",
            {"approve": "1"},
            follow=True,
        )
    assert "An agency may apply 1 plans an hour, through the API or its console." in (
        page.content.decode()
    )
    assert Plan.objects.get(pk=waiting).state == "waiting_for_approval"


def test_a_team_over_the_limit_is_refused_at_plan_time_naming_team(agency_world, write, settings):
    settings.PLAN_TEAM_MAX = 3
    team = [{"email": f"p{n}@acme.test", "name": f"Person {n}", "role": "closer"} for n in range(4)]
    refused = write(
        agency_world.full, "POST", "/api/v1/plans", new_workspace_plan(slug="big", team=team)
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "reason": "invalid_field",
            "message": "team: A plan's team lists at most 3 people; this one lists 4. Split it "
            "into several plans.",
        },
        "field": "team",
    }
    assert not Plan.objects.exists()
    allowed = write(
        agency_world.full, "POST", "/api/v1/plans", new_workspace_plan(slug="ok", team=team[:3])
    )
    assert allowed.status_code == 201
