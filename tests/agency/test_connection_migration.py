"""The connections a link made before integrations.Connection existed move there."""

from datetime import UTC, datetime, timedelta

import pytest

from core.crypto import decrypt_json, encrypt_text
from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("agency", "0001_initial"), ("integrations", "0002_event_object_and_placement")]
AFTER = [("agency", "0002_connections_in_integrations")]


def test_old_connections_become_integration_connections():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Agency = old_apps.get_model("workspaces", "Agency")
        ConnectLink = old_apps.get_model("agency", "ConnectLink")
        Old = old_apps.get_model("agency", "IntegrationConnection")
        agency = Agency.objects.create(name="Northwind", tier="agency")
        ws = Workspace.objects.create(name="Acme", slug="acme", currency="USD", agency=agency)
        link = ConnectLink.objects.create(
            agency=agency,
            workspace=ws,
            digest="sha256$x",
            integrations=["stripe", "calendly"],
            expires_at=datetime(2026, 3, 4, tzinfo=UTC) + timedelta(days=3),
        )
        made = Old.objects.create(
            workspace=ws,
            integration="stripe",
            credential_encrypted=encrypt_text('{"secret_key": "sk_test_1"}'),
            connected_at=datetime(2026, 3, 4, 10, tzinfo=UTC),
            link=link,
        )

        new_apps = migrate(AFTER)
        Connection = new_apps.get_model("integrations", "Connection")
        moved = Connection.objects.get()
        assert (moved.pk, moved.workspace_id, moved.provider, moved.state) == (
            made.pk,
            ws.pk,
            "stripe",
            "connected",
        )
        assert decrypt_json(moved.credentials_encrypted) == {"secret_key": "sk_test_1"}
        assert moved.signing_secret_encrypted is None
        assert moved.created_by == f"connect link {link.pk}"
        assert moved.connected_at == datetime(2026, 3, 4, 10, tzinfo=UTC)
        NewLink = new_apps.get_model("agency", "ConnectLink")
        assert list(NewLink.objects.get(pk=link.pk).connections.values_list("pk", flat=True)) == [
            made.pk
        ]
    finally:
        migrate_latest()
