"""The apply task on a real Celery worker, against Redis and the test database
(tests/worker.py starts it)."""

import uuid

import pytest
from django.test import Client

from agency.apply import PAUSE_MARKER_ENV, PAUSE_SECONDS_ENV
from agency.models import Plan
from agency.tasks import apply_plan
from audit.models import AuditEvent
from tests.worker import wait_for, worker_fixtures
from workspaces.models import Member, Workspace

from .conftest import new_workspace_plan

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

broker, start_worker = worker_fixtures("agency-test", ["agency.tasks.apply_plan"])


@pytest.fixture
def approver(agency_world, django_user_model):
    person = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-123456789")
    agency_world.agency.users.add(person)
    client = Client()
    client.force_login(person)
    return client


def _approved_plan(world, write, approver, **headers) -> str:
    plan_id = write(world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    assert (
        write(world.no_apply, "POST", f"/api/v1/plans/{plan_id}/request-approval").status_code
        == 200
    )
    response = approver.post(
        f"/agency/{world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}, headers=headers
    )
    assert response.status_code == 302
    return plan_id


def _state(plan_id):
    return Plan.objects.get(pk=plan_id).state


def test_requested_approved_and_applied_by_the_worker(
    agency_world, write, approver, start_worker, broker
):
    worker = start_worker()
    plan_id = _approved_plan(agency_world, write, approver)
    wait_for(lambda: _state(plan_id) == "applied", "the worker to apply the plan", worker)
    workspace = Workspace.objects.get(slug="acme")
    assert workspace.agency_id == agency_world.agency.pk
    assert sorted(Member.objects.filter(workspace=workspace).values_list("email", flat=True)) == [
        "ana@acme.test",
        "ben@acme.test",
    ]
    plan = Plan.objects.get(pk=plan_id)
    assert [c["status"] for c in plan.result["changes"]] == ["applied"] * 5
    # The new members' tokens are never in the result: kept encrypted for the approver,
    # whom the console shows them once.
    assert "member_tokens" not in plan.result
    assert AuditEvent.objects.filter(action="session_token.minted").count() == 2
    assert plan.revealed_encrypted is not None
    wait_for(lambda: worker.succeeded("applied") == 1, "the task's success line", worker)


def test_the_task_logs_under_the_request_id_of_the_approval_that_sent_it(
    agency_world, write, approver, start_worker, broker
):
    # The id a proxy in front of the service gave the approval's request.
    given = str(uuid.uuid4())
    plan_id = _approved_plan(agency_world, write, approver, **{"X-Request-ID": given})
    worker = start_worker()
    wait_for(lambda: worker.succeeded("applied") == 1, "the task's success line", worker)
    assert _state(plan_id) == "applied"
    [finished] = [line for line in worker.text().splitlines() if "succeeded in" in line]
    assert f"[{given}]" in finished


def test_the_task_run_twice_makes_its_changes_once(
    agency_world, write, approver, start_worker, broker
):
    plan_id = _approved_plan(agency_world, write, approver)  # enqueues the first run
    apply_plan.delay(plan_id)
    apply_plan.delay(plan_id)
    assert broker.length() == 3
    worker = start_worker()
    wait_for(
        lambda: worker.succeeded("applied") + worker.succeeded("skipped:applied") == 3,
        "three runs of the task",
        worker,
    )
    assert worker.succeeded("applied") == 1
    assert worker.succeeded("skipped:applied") == 2
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace__slug="acme").count() == 2
    assert AuditEvent.objects.filter(action="plan.applied", target_id=plan_id).count() == 1
    assert AuditEvent.objects.filter(action="workspace.created").count() == 1


def test_a_worker_killed_mid_apply_leaves_nothing_half_done(
    agency_world, write, approver, start_worker, broker, tmp_path
):
    marker = tmp_path / "inside-apply"
    worker = start_worker(**{PAUSE_SECONDS_ENV: "120", PAUSE_MARKER_ENV: str(marker)})
    plan_id = _approved_plan(agency_world, write, approver)
    # The worker has created the workspace inside the apply's transaction and is pausing.
    wait_for(marker.exists, "the worker to be inside the apply", worker)
    worker.kill()

    # Never half: the plan is unapplied and nothing of it is kept.
    def nothing_kept():
        return (
            _state(plan_id) == "approved"
            and not Workspace.objects.filter(slug="acme").exists()
            and not Member.objects.filter(email="ana@acme.test").exists()
            and not AuditEvent.objects.filter(
                action__in=["workspace.created", "plan.applied"]
            ).exists()
        )

    assert nothing_kept()

    # A retry applies it, once.
    retry = start_worker()
    apply_plan.delay(plan_id)
    wait_for(lambda: _state(plan_id) == "applied", "the retry to apply the plan", retry)
    assert Workspace.objects.filter(slug="acme").count() == 1
    assert Member.objects.filter(workspace__slug="acme").count() == 2
    assert AuditEvent.objects.filter(action="plan.applied").count() == 1
    # The task's log line follows its commit.
    wait_for(lambda: retry.succeeded("applied") == 1, "the retry's success line", retry)
