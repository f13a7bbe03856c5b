import importlib

from django.db import migrations, models

# Any event still without its text takes it before the column is required: the same fill
# as the migration that added the column.
json_text_fill = importlib.import_module("audit.migrations.0002_event_json_text").json_text_fill


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
