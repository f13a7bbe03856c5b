"""Stored secrets under FIELD_ENCRYPTION_KEY: a list of keys, the first encrypts, every
one decrypts, and the rotation command moves stored secrets to the first key."""

import pytest
from cryptography.fernet import Fernet, InvalidToken
from django.core.management import call_command

from audit.models import AuditEvent
from core import crypto
from core.models import IdempotencyRecord
from integrations.models import Connection
from notifications.models import NotificationSettings
from webhooks.models import WebhookEndpoint

OLD = Fernet.generate_key().decode()
NEW = Fernet.generate_key().decode()


@pytest.fixture
def keys(settings):
    def use(*values):
        settings.FIELD_ENCRYPTION_KEYS = list(values)
        crypto.reset_keys()

    yield use
    crypto.reset_keys()


def test_the_first_key_encrypts_and_every_key_decrypts(keys):
    keys(OLD)
    old_blob = crypto.encrypt_text("whsec_old")
    keys(NEW, OLD)
    assert crypto.decrypt_text(old_blob) == "whsec_old"
    new_blob = crypto.encrypt_text("whsec_new")
    assert Fernet(NEW.encode()).decrypt(new_blob) == b"whsec_new"
    with pytest.raises(InvalidToken):
        Fernet(OLD.encode()).decrypt(new_blob)


def test_without_the_old_key_old_secrets_cannot_be_read(keys):
    keys(OLD)
    blob = crypto.encrypt_json({"api_key": "k"})
    keys(NEW)
    with pytest.raises(InvalidToken):
        crypto.decrypt_json(blob)


def test_the_rotation_command_encrypts_stored_secrets_with_the_first_key(
    keys, make_workspace, capsys
):
    keys(OLD)
    connection = Connection.objects.create(
        workspace=make_workspace(),
        provider="stripe",
        credentials_encrypted=crypto.encrypt_text('{"api_key": "sk_live_1"}'),
        signing_secret_encrypted=crypto.encrypt_text("whsec_1"),
    )
    # A connection without a signing secret is rotated too (its empty column left empty).
    Connection.objects.create(
        workspace=connection.workspace,
        provider="calendly",
        credentials_encrypted=crypto.encrypt_json({"personal_access_token": "t"}),
    )
    record = IdempotencyRecord.objects.create(
        scope="workspace:1", key="k1", fingerprint="f", response=crypto.encrypt_json({"a": 1})
    )
    IdempotencyRecord.objects.create(scope="workspace:1", key="k2", fingerprint="f")
    endpoint = WebhookEndpoint.objects.create(
        workspace=connection.workspace,
        url="https://hooks.example.com/in",
        secret_encrypted=crypto.encrypt_text("whsec_c2VjcmV0"),
    )

    NotificationSettings.objects.filter(pk=connection.workspace_id).update(
        slack_webhook_encrypted=crypto.encrypt_text("https://hooks.slack.com/services/T/B/X")
    )

    keys(NEW, OLD)
    call_command("rotate_field_encryption")
    assert capsys.readouterr().out == (
        "Encrypted again with the first key: 2 integration credentials, 1 stored answers, "
        "0 plan results waiting to be shown, 1 webhook signing secrets, 1 Slack addresses.\n"
    )

    keys(NEW)
    connection.refresh_from_db()
    record.refresh_from_db()
    assert crypto.decrypt_text(connection.credentials_encrypted) == '{"api_key": "sk_live_1"}'
    assert crypto.decrypt_text(connection.signing_secret_encrypted) == "whsec_1"
    assert crypto.decrypt_json(record.response) == {"a": 1}
    endpoint.refresh_from_db()
    assert crypto.decrypt_text(endpoint.secret_encrypted) == "whsec_c2VjcmV0"
    slack = NotificationSettings.objects.get(pk=connection.workspace_id)
    assert crypto.decrypt_text(bytes(slack.slack_webhook_encrypted)) == (
        "https://hooks.slack.com/services/T/B/X"
    )
    event = AuditEvent.objects.get(action="field_encryption.rotated")
    assert (event.actor_kind, event.actor_id, event.detail) == (
        "command",
        "rotate_field_encryption",
        {
            "integration_connections": 2,
            "idempotency_keys": 1,
            "agency_plans": 0,
            "webhook_endpoints": 1,
            "notification_settings": 1,
        },
    )
