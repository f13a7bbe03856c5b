"""agency/apply.py: what an apply makes besides the plan's own changes, each with its
audit event."""

import json

import pytest

from agency.models import Plan
from audit.models import AuditEvent
from audit.services import SYSTEM
from events.models import Event
from tokens.models import EmbeddedApp
from webhooks import services as webhooks
from workspaces.models import Workspace

from ..webhooks.test_event_types import callback_schemas, event_validate
from .conftest import new_workspace_plan

pytestmark = pytest.mark.django_db


def test_the_embedded_app_an_apply_makes_records_its_audit_event(agency_world, write, settings):
    body = new_workspace_plan(settings={"embedded_redirect_uri": "https://app.acme.test/cb"})
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", body).json()["id"]
    applied = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply")
    assert applied.status_code == 200
    workspace = Workspace.objects.get(slug="acme")
    app = EmbeddedApp.objects.select_related("application").get(workspace=workspace)
    assert app.application.name == "Embedded app of acme"
    assert app.application.redirect_uris == "https://app.acme.test/cb"
    assert app.application.client_type == "public"
    [event] = AuditEvent.objects.filter(action="embedded_app.created")
    assert (event.workspace_id, event.target_type, event.target_id) == (
        workspace.pk,
        "embedded_app",
        str(app.pk),
    )
    assert (event.actor_kind, event.actor_label) == ("agency_token", "full")
    assert event.detail == {
        "name": "Embedded app of acme",
        "client_id": app.application.client_id,
        "redirect_uris": ["https://app.acme.test/cb"],
    }


def test_an_apply_into_a_workspace_with_an_embedded_app_makes_none(
    agency_world, write, embedded_app
):
    existing = embedded_app(agency_world.workspace)
    body = {
        "workspace": {"id": str(agency_world.workspace.pk)},
        "team": [{"email": "cy@northwind.test", "name": "Cy", "role": "setter"}],
    }
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", body).json()["id"]
    applied = write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply")
    assert applied.status_code == 200
    assert list(EmbeddedApp.objects.values_list("pk", flat=True)) == [existing.pk]
    assert AuditEvent.objects.filter(action="embedded_app.created").count() == 0
    assert Plan.objects.get().state == "applied"


@pytest.mark.django_db(transaction=True)
def test_an_applied_plan_is_announced_to_its_workspace(agency_world, write, receiver):
    webhooks.endpoint_create(workspace=agency_world.workspace, url=receiver.url, actor=SYSTEM)
    body = new_workspace_plan()
    body["workspace"] = {"id": str(agency_world.workspace.pk)}
    body.pop("integrations")
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", body).json()["id"]
    assert write(agency_world.full, "POST", f"/api/v1/plans/{plan_id}/apply").status_code == 200
    event = Event.objects.get(workspace=agency_world.workspace, type="plan.applied")
    assert event.data["id"] == plan_id
    assert event.data["state"] == "applied"
    assert {"email": "ana@acme.test", "role": "closer"} in event.data["invited"]
    assert "token" not in json.dumps(event.data)
    event_validate(callback_schemas(), event)
    delivered = [json.loads(r.body)["type"] for r in receiver.wait(1)]
    assert "plan.applied" in delivered
