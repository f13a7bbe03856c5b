"""One connection per provider per workspace.

Where a workspace holds more than one connection of a provider that is not disconnected,
the newest working one is kept (connected before failing, then the most recently made)
and the others are disconnected as an owner's Disconnect does: their webhooks are refused
from now on, their credentials forgotten, their events and counters kept. Each is
recorded in the audit trail (`integration.disconnected`, by the system, saying which
connection replaced it). Then the database refuses a second one."""

from django.db import migrations, models
from django.utils import timezone

from core.crypto import encrypt_json


def _rank(connection):
    return (connection.state == "connected", connection.connected_at)


def forwards(apps, schema_editor):
    Connection = apps.get_model("integrations", "Connection")
    AuditEvent = apps.get_model("audit", "AuditEvent")
    groups = {}
    for connection in Connection.objects.exclude(state="disconnected").order_by("pk"):
        groups.setdefault((connection.workspace_id, connection.provider), []).append(connection)
    now = timezone.now()
    for (workspace_id, provider), connections in groups.items():
        if len(connections) < 2:
            continue
        kept, *others = sorted(connections, key=_rank, reverse=True)
        for connection in others:
            connection.state = "disconnected"
            connection.disconnected_at = now
            connection.credentials_encrypted = encrypt_json({})
            connection.signing_secret_encrypted = None
            connection.save(
                update_fields=[
                    "state",
                    "disconnected_at",
                    "credentials_encrypted",
                    "signing_secret_encrypted",
                ]
            )
            AuditEvent.objects.create(
                workspace_id=workspace_id,
                at=now,
                actor_kind="system",
                actor_id="",
                actor_label="system",
                action="integration.disconnected",
                target_type="integration_connection",
                target_id=str(connection.pk),
                reason=(
                    f"One connection per provider: the workspace's {provider} connection "
                    f"{kept.pk} is kept in its place."
                ),
                detail={"provider": provider, "replaced_by": str(kept.pk)},
            )


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0003_event_hold_codes"),
        ("audit", "0002_event_json_text"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
