"""Writes recorded for the workspace (/api/v1/audit-events)."""

import pytest

from audit.models import AuditEvent
from tests.conftest import aware

pytestmark = pytest.mark.django_db


def event(workspace, at, action, **extra):
    row = AuditEvent.objects.create(
        workspace=workspace,
        actor_kind=extra.pop("actor_kind", "member"),
        actor_id=extra.pop("actor_id", "m-1"),
        actor_label=extra.pop("actor_label", "ann@example.test"),
        action=action,
        target_type=extra.pop("target_type", "call"),
        target_id=extra.pop("target_id", "c-1"),
        **extra,
    )
    AuditEvent.objects.filter(pk=row.pk).update(at=aware(at))
    return row


def test_events_newest_first(ws, make_workspace, client_for, django_assert_max_num_queries):
    event(ws, "2026-03-02 10:00", "form.post_call")
    event(ws, "2026-03-05 10:00", "token.revoke", actor_kind="system", actor_id="",
          actor_label="system", target_type="api_token", target_id="t-9", reason="leaked")  # fmt: skip
    event(ws, "2026-02-27 10:00", "form.eod")
    event(make_workspace(), "2026-03-03 10:00", "form.eod")
    client = client_for(ws)
    with django_assert_max_num_queries(5):
        body = client.get("/api/v1/audit-events", {"from": "2026-03-01", "to": "2026-03-31"})
    assert body.json()["data"]["events"] == [
        {
            "at": "2026-03-05T10:00:00Z",
            "actor": {"kind": "system", "id": "", "label": "system"},
            "action": "token.revoke",
            "target": {"type": "api_token", "id": "t-9"},
            "reason": "leaked",
        },
        {
            "at": "2026-03-02T10:00:00Z",
            "actor": {"kind": "member", "id": "m-1", "label": "ann@example.test"},
            "action": "form.post_call",
            "target": {"type": "call", "id": "c-1"},
            "reason": "",
        },
    ]
