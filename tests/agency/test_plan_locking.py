"""Two applies of one plan at once (PostgreSQL row locks): one applies, the other is refused."""

import pytest
from rest_framework.test import APIClient

from agency.apply import PAUSE_SECONDS_ENV
from agency.models import Plan
from tests.conftest import at_once
from workspaces.models import Member, Workspace

from .conftest import new_workspace_plan

pytestmark = pytest.mark.postgres


@pytest.mark.django_db(transaction=True)
def test_concurrent_applies_make_the_changes_once(agency_world, write, monkeypatch):
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    # Hold the first apply inside its transaction for a moment so the second one queues on
    # the plan's row lock.
    monkeypatch.setenv(PAUSE_SECONDS_ENV, "0.5")

    names = ("one", "two")

    def apply(n):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {agency_world.full}")
        response = client.post(
            f"/api/v1/plans/{plan_id}/apply",
            {},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"apply-{names[n]}",
        )
        return names[n], (response.status_code, response.json())

    answers = dict(at_once(2, apply))

    statuses = sorted(status for status, _ in answers.values())
    assert statuses == [200, 409]
    refused = next(body for status, body in answers.values() if status == 409)
    assert refused["error"]["reason"] == "refused.plan_state"
    assert Plan.objects.get(pk=plan_id).state == "applied"
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace__slug="acme").count() == 2
