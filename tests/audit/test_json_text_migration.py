"""Events recorded before AuditEvent.json_text existed take the text they answer with."""

from datetime import UTC, datetime

import pytest

from audit.rendering import event_json
from tests.migrating import migrate, migrate_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("audit", "0001_initial")]
AFTER = [("audit", "0002_event_json_text")]
ODD = 'é 日本 😀 \u2028 "q" \\ \x01\x1f\r\n\t </script>'


def test_each_event_takes_its_text():
    old_apps = migrate(BEFORE)
    try:
        AuditEvent = old_apps.get_model("audit", "AuditEvent")
        events = [
            {
                "actor_kind": "member",
                "actor_id": "m-1",
                "actor_label": ODD,
                "action": "form.eod",
                "target_type": "eod",
                "target_id": "e-1",
                "reason": "",
            },
            {
                "actor_kind": "system",
                "actor_id": "",
                "actor_label": "system",
                "action": ODD,
                "target_type": ODD,
                "target_id": "",
                "reason": ODD,
            },
        ]
        times = [datetime(2026, 3, 2, 10, tzinfo=UTC), datetime(2026, 3, 2, 10, 0, 0, 250, UTC)]
        pks = []
        for columns, at in zip(events, times, strict=True):
            row = AuditEvent.objects.create(**columns)
            AuditEvent.objects.filter(pk=row.pk).update(at=at)
            pks.append(row.pk)

        new_apps = migrate(AFTER)
        kept = dict(
            new_apps.get_model("audit", "AuditEvent").objects.values_list("pk", "json_text")
        )
        assert kept == {
            pk: event_json(at=at, **columns)
            for pk, at, columns in zip(pks, times, events, strict=True)
        }
        assert kept[pks[1]].startswith(
            '{"at":"2026-03-02T10:00:00.000250Z","actor":{"kind":"system"'
        )
    finally:
        migrate_latest()
