"""Plans an agency applies through the API are limited per agency per hour."""

import pytest

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
    assert body["message"].startswith("An agency may apply 2 plans through the API an hour.")
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
