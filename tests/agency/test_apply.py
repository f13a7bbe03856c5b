"""agency/apply.py: what an apply makes besides the plan's own changes, each with its
audit event."""

import pytest

from agency.models import Plan
from audit.models import AuditEvent
from tokens.models import EmbeddedApp
from workspaces.models import Workspace

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
