"""The leads held before UtmTags existed take the row of their four tags."""

from datetime import UTC, datetime

import pytest

from tests.migrating import migrate, migrate_latest
from workspaces.kept import utm_digest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("workspaces", "0014_call_outcome_reason")]
AFTER = [("workspaces", "0015_utm_tags")]


def test_each_lead_takes_the_row_of_its_tags():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Lead = old_apps.get_model("workspaces", "Lead")
        one = Workspace.objects.create(name="Acme", slug="acme")
        other = Workspace.objects.create(name="Beta", slug="beta")
        when = datetime(2026, 3, 1, tzinfo=UTC)
        tags = {
            "a": (one, ("fb", "paid", "spring", "é")),
            "b": (one, ("fb", "paid", "spring", "é")),
            "c": (one, ("", "", "", "")),
            "d": (other, ("fb", "paid", "spring", "é")),
        }
        for external_id, (ws, (source, medium, campaign, content)) in tags.items():
            Lead.objects.create(
                workspace=ws,
                external_id=external_id,
                created_at=when,
                utm_source=source,
                utm_medium=medium,
                utm_campaign=campaign,
                utm_content=content,
            )

        new_apps = migrate(AFTER)
        leads = new_apps.get_model("workspaces", "Lead").objects.select_related("utm_tags")
        kept = {
            lead.external_id: (
                lead.utm_tags.workspace_id,
                (
                    lead.utm_tags.source,
                    lead.utm_tags.medium,
                    lead.utm_tags.campaign,
                    lead.utm_tags.content,
                ),
                lead.utm_tags.digest,
                lead.utm_tags_id,
            )
            for lead in leads
        }
        for external_id, (ws, four) in tags.items():
            assert kept[external_id][:3] == (ws.pk, four, utm_digest(four))
        assert kept["a"][3] == kept["b"][3] != kept["d"][3]
        assert new_apps.get_model("workspaces", "UtmTags").objects.count() == 3
    finally:
        migrate_latest()
