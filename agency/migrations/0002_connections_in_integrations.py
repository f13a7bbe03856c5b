"""The connections a link made move to integrations.Connection (same ids, same encrypted
credential); the link keeps which ones it made."""

from django.db import migrations, models


def move_connections(apps, schema_editor):
    Old = apps.get_model("agency", "IntegrationConnection")
    Connection = apps.get_model("integrations", "Connection")
    ConnectLink = apps.get_model("agency", "ConnectLink")
    for old in Old.objects.all().iterator():
        Connection.objects.create(
            id=old.id,
            workspace_id=old.workspace_id,
            provider=old.integration,
            state="connected",
            # Both are Fernet tokens of the credential's JSON.
            credentials_encrypted=old.credential_encrypted,
            signing_secret_encrypted=None,
            created_by=f"connect link {old.link_id}" if old.link_id else "",
            connected_at=old.connected_at,
        )
        if old.link_id:
            ConnectLink.objects.get(pk=old.link_id).connections.add(old.id)


def move_back(apps, schema_editor):
    Old = apps.get_model("agency", "IntegrationConnection")
    ConnectLink = apps.get_model("agency", "ConnectLink")
    for link in ConnectLink.objects.prefetch_related("connections"):
        for connection in link.connections.all():
            Old.objects.create(
                id=connection.id,
                workspace_id=connection.workspace_id,
                integration=connection.provider,
                credential_encrypted=connection.credentials_encrypted,
                connected_at=connection.connected_at,
                link_id=link.pk,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("agency", "0001_initial"),
        ("integrations", "0002_event_object_and_placement"),
    ]

    operations = [
        migrations.AlterField(
            model_name="integrationconnection",
            name="link",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=models.SET_NULL,
                related_name="old_connections",
                to="agency.connectlink",
            ),
        ),
        migrations.AddField(
            model_name="connectlink",
            name="connections",
            field=models.ManyToManyField(
                blank=True, related_name="connect_links", to="integrations.connection"
            ),
        ),
        migrations.RunPython(move_connections, move_back),
        migrations.DeleteModel(name="IntegrationConnection"),
    ]
