"""The database refuses a second connection of a provider in a workspace (the one kept by
0004 stays; disconnected ones are not counted)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("integrations", "0004_one_connection_per_provider")]

    operations = [
        migrations.AddConstraint(
            model_name="connection",
            constraint=models.UniqueConstraint(
                condition=models.Q(("state", "disconnected"), _negated=True),
                fields=("workspace", "provider"),
                name="connection_one_per_provider",
            ),
        ),
    ]
