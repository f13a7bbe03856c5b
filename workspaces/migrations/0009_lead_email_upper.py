import django.db.models.functions.text
from django.db import migrations, models


def analyze(apps, schema_editor):
    # PostgreSQL keeps statistics on an index's expression only once the table is analysed;
    # until then it guesses thousands of leads per email and walks every sale of the
    # workspace to find the one of a charge's lead, instead of reading this index.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ANALYZE workspaces_lead")


class Migration(migrations.Migration):
    dependencies = [
        ("workspaces", "0008_invitation"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="lead",
            index=models.Index(
                models.F("workspace"),
                django.db.models.functions.text.Upper("email"),
                name="lead_ws_email_upper",
            ),
        ),
        migrations.RunPython(analyze, migrations.RunPython.noop),
    ]
