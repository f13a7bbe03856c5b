"""A workspace holding two live connections of a provider keeps the newest working one;
the others are disconnected (refused, credentials forgotten, events kept) and audited."""

from datetime import UTC, datetime

import pytest

from core.crypto import decrypt_json, encrypt_json, encrypt_text
from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("integrations", "0003_event_hold_codes"), ("audit", "0002_event_json_text")]
AFTER = [("integrations", "0005_connection_one_per_provider")]


def test_the_newest_working_connection_is_kept_and_the_others_disconnected():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Connection = old_apps.get_model("integrations", "Connection")
        Event = old_apps.get_model("integrations", "Event")
        acme = Workspace.objects.create(name="Acme", slug="acme", currency="USD")
        other = Workspace.objects.create(name="Other", slug="other", currency="USD")

        def made(workspace, provider, state, day, by=""):
            return Connection.objects.create(
                workspace=workspace,
                provider=provider,
                state=state,
                credentials_encrypted=encrypt_json({"secret_key": f"sk_test_{day}"}),
                signing_secret_encrypted=encrypt_text("whsec_x"),
                connected_at=datetime(2026, 11, day, 10, tzinfo=UTC),
                created_by=by,
            )

        # Acme's Stripe: a working one, a newer failing one (a refused key pasted through a
        # link) and an old disconnected one. Calendly once; the other workspace's Stripe too.
        working = made(acme, "stripe", "connected", 2, "owner@acme.test")
        failing = made(acme, "stripe", "failing", 5, "connect link 1")
        gone = made(acme, "stripe", "disconnected", 1)
        calendly = made(acme, "calendly", "failing", 3)
        elsewhere = made(other, "stripe", "connected", 4)
        Event.objects.create(
            connection=failing,
            workspace=acme,
            provider="stripe",
            event_id="evt_1",
            event_type="charge.succeeded",
            payload={},
            state="held",
        )

        new_apps = migrate(AFTER)
        Connection = new_apps.get_model("integrations", "Connection")
        AuditEvent = new_apps.get_model("audit", "AuditEvent")
        states = dict(Connection.objects.values_list("pk", "state"))
        assert states == {
            working.pk: "connected",
            failing.pk: "disconnected",
            gone.pk: "disconnected",
            calendly.pk: "failing",
            elsewhere.pk: "connected",
        }
        dropped = Connection.objects.get(pk=failing.pk)
        assert decrypt_json(dropped.credentials_encrypted) == {}
        assert dropped.signing_secret_encrypted is None
        assert dropped.disconnected_at is not None
        assert decrypt_json(Connection.objects.get(pk=working.pk).credentials_encrypted) == {
            "secret_key": "sk_test_2"
        }
        assert new_apps.get_model("integrations", "Event").objects.get().connection_id == (
            failing.pk
        )
        (audited,) = AuditEvent.objects.filter(action="integration.disconnected")
        assert (audited.workspace_id, audited.target_id, audited.actor_kind) == (
            acme.pk,
            str(failing.pk),
            "system",
        )
        assert audited.detail == {"provider": "stripe", "replaced_by": str(working.pk)}
        assert audited.reason == (
            f"One connection per provider: the workspace's stripe connection {working.pk} "
            "is kept in its place."
        )
    finally:
        migrate_latest()


def test_when_none_works_the_newest_is_kept():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Connection = old_apps.get_model("integrations", "Connection")
        acme = Workspace.objects.create(name="Acme", slug="acme", currency="USD")
        older, newer = (
            Connection.objects.create(
                workspace=acme,
                provider="zoom",
                state="failing",
                credentials_encrypted=encrypt_json({}),
                connected_at=datetime(2026, 11, day, tzinfo=UTC),
            )
            for day in (1, 2)
        )
        new_apps = migrate(AFTER)
        Connection = new_apps.get_model("integrations", "Connection")
        assert dict(Connection.objects.values_list("pk", "state")) == {
            older.pk: "disconnected",
            newer.pk: "failing",
        }
    finally:
        migrate_latest()
