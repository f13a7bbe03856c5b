"""The triggers that mark the days of the leads, calls and past-call forms roll-ups dirty
in the transaction of every write of the records they count (figures/triggers.py)."""

from django.db import migrations

from figures.triggers import triggers_create, triggers_drop

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


def create(apps, schema_editor):
    triggers_create(schema_editor, WATCHED)


def drop(apps, schema_editor):
    triggers_drop(schema_editor, WATCHED)


class Migration(migrations.Migration):
    dependencies = [("figures", "0001_rollups")]

    operations = [migrations.RunPython(create, drop)]
