"""Every workspace made before the notifications gets its settings (the defaults), so the
round finds it by its next due instant like a new one."""

from django.db import migrations


def settings_make(apps, schema_editor):
    Workspace = apps.get_model("workspaces", "Workspace")
    NotificationSettings = apps.get_model("notifications", "NotificationSettings")
    have = set(NotificationSettings.objects.values_list("workspace_id", flat=True))
    missing = Workspace.objects.exclude(pk__in=have).values_list("pk", flat=True)
    NotificationSettings.objects.bulk_create(
        [NotificationSettings(workspace_id=pk) for pk in missing.iterator()], batch_size=1000
    )


class Migration(migrations.Migration):
    dependencies = [("notifications", "0001_initial")]

    operations = [migrations.RunPython(settings_make, migrations.RunPython.noop)]
