"""A lead's phone and click ids, and the workspace's country for its phone numbers.

The lead's columns are added with one ALTER TABLE each, on both databases: Django's
SQLite schema editor would rebuild the table for a column that is not null, and a rebuilt
table loses the triggers that mark the roll-ups' days dirty (figures/triggers.py)."""

from django.db import migrations, models

LEAD_COLUMNS = (
    ("fbc", 500),
    ("fbp", 200),
    ("gbraid", 200),
    ("gclid", 200),
    ("phone", 16),
    ("wbraid", 200),
)


def _column(name: str, length: int):
    return migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AddField(
                model_name="lead",
                name=name,
                field=models.CharField(blank=True, db_default="", default="", max_length=length),
            )
        ],
        database_operations=[
            migrations.RunSQL(
                f"ALTER TABLE workspaces_lead ADD COLUMN {name} varchar({length}) "
                "DEFAULT '' NOT NULL",
                f"ALTER TABLE workspaces_lead DROP COLUMN {name}",
            )
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("workspaces", "0025_lead_uncontacted_created"),
    ]

    operations = [
        *(_column(name, length) for name, length in LEAD_COLUMNS),
        migrations.AddField(
            model_name="workspace",
            name="country",
            field=models.CharField(blank=True, db_default="", default="", max_length=2),
        ),
    ]
