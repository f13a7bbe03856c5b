"""The triggers that mark the days of the leads, calls and past-call forms roll-ups dirty
in the transaction of every write of the records they count (figures/triggers.py)."""

from django.db import migrations

from figures.triggers import triggers_operation

# (kind, table, time column, the columns a roll-up of the kind reads)
WATCHED = (
    ("leads", "workspaces_lead", "created_at", ("workspace_id", "created_at")),
    (
        "calls",
        "workspaces_call",
        "scheduled_for",
        (
            "workspace_id",
            "scheduled_for",
            "replaced",
            "status",
            "attendance",
            "offer_made",
            "outcome",
            "outcome_reason",
        ),
    ),
    ("past_outcomes", "workspaces_outcome", "at", ("workspace_id", "at", "call_id", "result", "reason")),
)


class Migration(migrations.Migration):
    dependencies = [("figures", "0001_rollups")]

    operations = [triggers_operation(WATCHED)]
