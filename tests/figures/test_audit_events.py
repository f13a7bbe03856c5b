"""Writes recorded for the workspace (/api/v1/audit-events)."""

import json
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from audit.models import AuditEvent
from audit.rendering import event_dict, event_json, utc_text
from audit.services import Actor, audit_record, audit_record_many
from core.renderers import ApiJSONRenderer, PreRendered
from figures.period import period_from_query
from figures.selectors import audit_events_list
from tests.conftest import aware

pytestmark = pytest.mark.django_db


def event(workspace, at, action, **extra):
    """An event at the time `at`, stored with its text as audit.services stores it."""
    when = aware(at, extra.pop("tz", "UTC"))
    columns = {
        "actor_kind": extra.pop("actor_kind", "member"),
        "actor_id": extra.pop("actor_id", "m-1"),
        "actor_label": extra.pop("actor_label", "ann@example.test"),
        "action": action,
        "target_type": extra.pop("target_type", "call"),
        "target_id": extra.pop("target_id", "c-1"),
        "reason": extra.pop("reason", ""),
    }
    return AuditEvent.objects.create(
        workspace=workspace, at=when, json_text=event_json(at=when, **columns), **columns, **extra
    )


def columns_rows(workspace, period) -> list:
    """The events of the period, newest first, as dicts built from their columns: what the
    standard renderer writes the answer from, to compare the stored texts with."""
    events = AuditEvent.objects.filter(
        workspace=workspace, at__gte=period.start, at__lt=period.end
    ).order_by("-at", "-pk")
    return [
        event_dict(
            at=utc_text(row.at),
            actor_kind=row.actor_kind,
            actor_id=row.actor_id,
            actor_label=row.actor_label,
            action=row.action,
            target_type=row.target_type,
            target_id=row.target_id,
            reason=row.reason,
        )
        for row in events
    ]


def test_events_newest_first(ws, make_workspace, client_for, django_assert_max_num_queries):
    event(ws, "2026-03-02 10:00", "form.post_call")
    event(
        ws,
        "2026-03-05 10:00",
        "token.revoke",
        actor_kind="system",
        actor_id="",
        actor_label="system",
        target_type="api_token",
        target_id="t-9",
        reason="leaked",
    )
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
    event(ws, "2026-03-03 00:30", "c", tz="Europe/Paris")
    body = client_for(ws).get("/api/v1/audit-events", {"from": "2026-03-01", "to": "2026-03-05"})
    assert [(e["action"], e["at"]) for e in body.json()["data"]["events"]] == [
        ("c", "2026-03-02T23:30:00Z"),
        ("a", "2026-03-02T10:00:00.250000Z"),
        ("b", "2026-03-02T10:00:00.000001Z"),
    ]


def test_the_answer_is_the_standard_renderers_bytes(ws, client_for):
    # Text of every kind the renderer escapes or writes as UTF-8, byte for byte as DRF's
    # JSONRenderer writes it (core/renderers.py).
    label = 'Zoë "the closer" \\ 日本 😀 \u2028 \u2029 \x01\x1f\t\n'
    event(ws, "2026-03-02 10:00:00.000001", "form.eod", actor_label=label, reason='\\"\r\x7f')
    event(ws, "2026-03-02 10:00:00.250000", "a\u2028b", target_id="é", reason="")
    response = client_for(ws).get(
        "/api/v1/audit-events", {"from": "2026-03-01", "to": "2026-03-05"}
    )
    # The standard renderer's bytes for the same value.
    assert response.content == JSONRenderer().render(response.json())
    events = response.json()["data"]["events"]
    assert [(e["at"], e["actor"]["label"], e["action"], e["reason"]) for e in events] == [
        ("2026-03-02T10:00:00.250000Z", "ann@example.test", "a\u2028b", ""),
        ("2026-03-02T10:00:00.000001Z", label, "form.eod", '\\"\r\x7f'),
    ]
    assert b"\\u2028" in response.content
    assert "\u2028".encode() not in response.content


def test_the_stored_texts_are_the_rows_standard_json(ws):
    # The answer joins the events' stored JSON texts; they must be the bytes the standard
    # renderer writes for the rows built in Python.
    odd = 'é 日本 😀 \u2028\u2029 "q" \\ \x01\x08\x0c\x1f\r\n\t\x7f </script>'
    event(ws, "2026-03-02 10:00:00.000001", odd, actor_label=odd, reason=odd, target_id=odd)
    event(ws, "2026-03-02 10:00:00.250000", "b", actor_id=odd, target_type=odd)
    event(ws, "2026-03-03 00:00", "c", actor_kind=odd, reason="")
    period = period_from_query(workspace=ws, params={"from": "2026-03-01", "to": "2026-03-05"})
    rows = columns_rows(ws, period)
    events = audit_events_list(workspace=ws, period=period).data["events"]
    expected = JSONRenderer().render(rows)
    assert [row["action"] for row in rows] == ["c", "b", odd]
    assert ApiJSONRenderer().render(events) == expected
    assert ApiJSONRenderer().render({"events": events}) == JSONRenderer().render({"events": rows})
    assert isinstance(events, PreRendered)
    assert events.value() == rows
    # The standard renderer reads pre-rendered text back to the same bytes.
    compact = {"ensure_ascii": False, "separators": (",", ":")}
    assert json.dumps(events, cls=ApiJSONRenderer.encoder_class, **compact) == json.dumps(
        rows, **compact
    )


def test_no_events_is_an_empty_list(ws):
    period = period_from_query(workspace=ws, params={"from": "2026-03-01", "to": "2026-03-05"})
    events = audit_events_list(workspace=ws, period=period).data["events"]
    assert ApiJSONRenderer().render({"events": events}) == b'{"events":[]}'


ODD = 'é 日本 😀 \u2028\u2029 "q" \\ \x01\x08\x0c\x1f\r\n\t\x7f </script>'


def recorded(workspace, action, **extra):
    """An event recorded through the service, as every write records it."""
    actor = Actor(
        kind=extra.pop("kind", "member"),
        id=extra.pop("id", "m-1"),
        label=extra.pop("label", "ann@example.test"),
    )
    with transaction.atomic():
        return audit_record(
            actor=actor,
            action=action,
            workspace=workspace,
            target_type=extra.pop("target_type", "call"),
            target_id=extra.pop("target_id", "c-1"),
            **extra,
        )


def _around_today() -> dict:
    today = timezone.now().date()
    return {"from": str(today - timedelta(days=2)), "to": str(today + timedelta(days=1))}


def test_recorded_events_keep_the_text_the_renderer_writes_for_them(ws):
    recorded(ws, ODD, label=ODD, reason=ODD, target_id=ODD)
    with transaction.atomic():
        audit_record_many(
            actor=Actor(kind=ODD, id=ODD, label=""),
            entries=[
                {"workspace": ws, "action": "b", "target_type": ODD, "target_id": None},
                {"workspace": ws, "action": "c", "target_type": "x", "reason": "\x1e"},
            ],
        )
    period = period_from_query(workspace=ws, params=_around_today())
    rows = columns_rows(ws, period)
    # The batch's events keep the order they were given in, newest first.
    assert [row["action"] for row in rows] == ["c", "b", ODD]
    stored = dict(AuditEvent.objects.values_list("action", "json_text"))
    texts = PreRendered("[" + ",".join(stored[row["action"]] for row in rows) + "]")
    assert ApiJSONRenderer().render(texts) == JSONRenderer().render(rows)
    assert texts.value() == rows


def test_an_event_is_never_stored_without_its_text(ws):
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEvent.objects.create(
            workspace=ws, actor_kind="member", action="around", target_type="call"
        )


def test_the_answer_is_the_stored_text(ws):
    # The stored text is what is sent: a text changed in the table shows in the answer
    # (events are never changed; this only shows which one is read).
    recorded(ws, "form.eod", reason="")
    row = AuditEvent.objects.get()
    AuditEvent.objects.filter(pk=row.pk).update(
        json_text=row.json_text.replace('"reason":""', '"reason":"stored"')
    )
    period = period_from_query(workspace=ws, params=_around_today())
    events = audit_events_list(workspace=ws, period=period)
    assert events.data["events"].value()[0]["reason"] == "stored"
