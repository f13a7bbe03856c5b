"""The leads held before Lead.has_booking and Lead.has_show existed take them from their
calls."""

from datetime import UTC, datetime

import pytest

from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("workspaces", "0017_ad_spend")]
AFTER = [("workspaces", "0018_lead_bookings_kept")]


def _at(day: int) -> datetime:
    return datetime(2026, 3, day, 10, tzinfo=UTC)


def test_each_lead_takes_its_bookings_from_the_calls_that_count():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Lead = old_apps.get_model("workspaces", "Lead")
        Call = old_apps.get_model("workspaces", "Call")
        ws = Workspace.objects.create(name="Acme", slug="acme")

        def lead(name, *calls):
            made = Lead.objects.create(workspace=ws, name=name, created_at=_at(1))
            for status, attendance, replaced in calls:
                Call.objects.create(
                    workspace=ws,
                    lead=made,
                    booked_at=_at(1),
                    scheduled_for=_at(2),
                    status=status,
                    attendance=attendance,
                    replaced=replaced,
                )
            return made

        lead("none")
        lead("cancelled", ("cancelled", "", False))
        lead("replaced then cancelled", ("scheduled", "showed", True), ("cancelled", "", False))
        lead("booked", ("scheduled", "no_show", False))
        lead("showed", ("scheduled", "", True), ("scheduled", "showed", False))
        new_apps = migrate(AFTER)
        held = new_apps.get_model("workspaces", "Lead").objects.filter(workspace_id=ws.pk)
        assert sorted(held.values_list("name", "has_booking", "has_show")) == [
            ("booked", True, False),
            ("cancelled", False, False),
            ("none", False, False),
            ("replaced then cancelled", False, False),
            ("showed", True, True),
        ]
    finally:
        migrate_latest()
