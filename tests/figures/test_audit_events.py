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


def test_times_are_written_as_everywhere_else(ws, client_for):
    # Microseconds only when there are any; a time given in another zone is read in UTC.
    event(ws, "2026-03-02 10:00:00.250000", "a")
    event(ws, "2026-03-02 10:00:00.000001", "b")
    event(ws, "2026-03-02 23:30", "c")
    AuditEvent.objects.filter(action="c").update(at=aware("2026-03-03 00:30", "Europe/Paris"))
    body = client_for(ws).get("/api/v1/audit-events", {"from": "2026-03-01", "to": "2026-03-05"})
    assert [(e["action"], e["at"]) for e in body.json()["data"]["events"]] == [
        ("c", "2026-03-02T23:30:00Z"),
        ("a", "2026-03-02T10:00:00.250000Z"),
        ("b", "2026-03-02T10:00:00.000001Z"),
    ]
