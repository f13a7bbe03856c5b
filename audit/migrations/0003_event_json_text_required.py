from django.db import migrations, models

from audit.rendering import COLUMNS, EventJson, event_json


def json_text_fill(apps, schema_editor):
    """Any event still without its text takes it before the column is required."""
    AuditEvent = apps.get_model("audit", "AuditEvent")
    missing = AuditEvent.objects.using(schema_editor.connection.alias).filter(
        json_text__isnull=True
    )
    if schema_editor.connection.vendor == "postgresql":
        missing.update(json_text=EventJson())
        return
    while batch := list(missing.only("at", *COLUMNS)[:1000]):
        for event in batch:
            event.json_text = event_json(
                at=event.at, **{column: getattr(event, column) for column in COLUMNS}
            )
        AuditEvent.objects.using(schema_editor.connection.alias).bulk_update(batch, ["json_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0002_event_json_text"),
    ]

    operations = [
        migrations.RunPython(json_text_fill, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="auditevent",
            name="json_text",
            field=models.TextField(editable=False),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.CheckConstraint(
                condition=~models.Q(json_text=""), name="audit_event_has_text"
            ),
        ),
    ]
