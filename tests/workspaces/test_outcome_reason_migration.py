"""The calls held before Call.outcome_reason existed take their latest outcome's reason."""

from datetime import UTC, datetime

import pytest

from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("workspaces", "0013_lead_uncontacted_index")]
AFTER = [("workspaces", "0014_call_outcome_reason")]


def _at(day: int, hour: int = 10) -> datetime:
    return datetime(2026, 3, day, hour, tzinfo=UTC)


def test_each_call_takes_the_reason_of_its_latest_outcome():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Lead = old_apps.get_model("workspaces", "Lead")
        Call = old_apps.get_model("workspaces", "Call")
        Outcome = old_apps.get_model("workspaces", "Outcome")
        ws = Workspace.objects.create(name="Acme", slug="acme")
        lead = Lead.objects.create(workspace=ws, created_at=_at(1))

        def call(outcome: str):
            return Call.objects.create(
                workspace=ws, lead=lead, booked_at=_at(1), scheduled_for=_at(2), outcome=outcome
            )

        def outcome(call, result, reason, at, external_id=None):
            Outcome.objects.create(
                workspace=ws,
                call=call,
                lead=lead,
                result=result,
                reason=reason,
                at=at,
                external_id=external_id,
            )

        changed = call("no_sale")  # price, then timing later
        outcome(changed, "no_sale", "price", _at(3))
        outcome(changed, "no_sale", "timing", _at(4))
        later_follow_up = call("follow_up")  # a reason, then a later form without one
        outcome(later_follow_up, "no_sale", "price", _at(3))
        outcome(later_follow_up, "follow_up", "", _at(5))
        tie = call("no_sale")  # two forms at the same time: the greater external id
        outcome(tie, "no_sale", "spouse", _at(3), external_id="o-2")
        outcome(tie, "no_sale", "budget", _at(3), external_id="o-1")
        none = call("")  # no outcome

        new_apps = migrate(AFTER)
        kept = dict(
            new_apps.get_model("workspaces", "Call").objects.values_list("pk", "outcome_reason")
        )
        assert kept == {changed.pk: "timing", later_follow_up.pk: "", tie.pk: "spouse", none.pk: ""}
    finally:
        migrate_latest()
