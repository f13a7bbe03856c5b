"""Failures stored with the provider's own text (an access_token in a URL) are rewritten in
the service's words: on the connection, in the audit log and in the events feed."""

import json
from datetime import UTC, datetime

import pytest

from core.crypto import encrypt_json
from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("integrations", "0006_connection_failure_kind"),
    ("audit", "0003_event_json_text_required"),
    ("events", "0001_initial"),
]
AFTER = [("integrations", "0007_failures_in_own_words")]
LEAKED = (
    "Meta could not be reached to read the ad account act_1: HTTPConnectionPool: Max retries "
    "exceeded with url: /v26.0/act_1?access_token=EAAleakedToken123"
)


def test_stored_failures_are_rewritten_in_the_services_words():
    old_apps = migrate(BEFORE)
    try:
        Workspace = old_apps.get_model("workspaces", "Workspace")
        Connection = old_apps.get_model("integrations", "Connection")
        AuditEvent = old_apps.get_model("audit", "AuditEvent")
        Event = old_apps.get_model("events", "Event")
        acme = Workspace.objects.create(name="Acme", slug="acme", currency="USD")
        at = datetime(2026, 11, 20, 10, tzinfo=UTC)
        meta = Connection.objects.create(
            workspace=acme,
            provider="meta",
            state="failing",
            credentials_encrypted=encrypt_json({"access_token": "EAAleakedToken123"}),
            last_error=LEAKED,
            last_error_kind="unreachable",
            last_error_at=at,
        )
        words = (
            "The Google Ads account 1 reports its costs in EUR and this workspace counts in USD."
        )
        google = Connection.objects.create(
            workspace=acme,
            provider="google",
            state="failing",
            credentials_encrypted=encrypt_json({}),
            last_error=words,
            last_error_kind="refused",
            last_error_words=words,
            last_error_at=at,
        )
        shown = {
            "at": "2026-11-20T10:00:00Z",
            "actor": {"kind": "integration", "id": str(meta.pk), "label": "meta"},
            "action": "integration.failing",
            "target": {"type": "integration_connection", "id": str(meta.pk)},
            "reason": LEAKED,
        }
        audited = AuditEvent.objects.create(
            workspace=acme,
            at=at,
            actor_kind="integration",
            actor_id=str(meta.pk),
            actor_label="meta",
            action="integration.failing",
            target_type="integration_connection",
            target_id=str(meta.pk),
            reason=LEAKED,
            detail={"provider": "meta", "kind": "unreachable"},
            json_text=json.dumps(shown, ensure_ascii=False, separators=(",", ":")),
        )
        event = Event.objects.create(
            workspace=acme,
            type="integration.failing",
            created_at=at,
            data={"id": str(meta.pk), "provider": "meta", "state": "failing", "error": LEAKED},
        )

        new_apps = migrate(AFTER)
        Connection = new_apps.get_model("integrations", "Connection")
        AuditEvent = new_apps.get_model("audit", "AuditEvent")
        Event = new_apps.get_model("events", "Event")
        assert dict(Connection.objects.values_list("pk", "last_error")) == {
            meta.pk: "Meta Ads could not be reached.",
            google.pk: words,
        }
        audited = AuditEvent.objects.get(pk=audited.pk)
        assert audited.reason == "Meta Ads could not be reached."
        assert json.loads(audited.json_text) == {
            **shown,
            "reason": "Meta Ads could not be reached.",
        }
        assert Event.objects.get(pk=event.pk).data == {
            "id": str(meta.pk),
            "provider": "meta",
            "state": "failing",
            "error": "Meta Ads could not be reached.",
        }
    finally:
        migrate_latest()
