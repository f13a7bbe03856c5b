"""An event as the audit trail's answers show it, as JSON text.

Each event's text is written once, when the event is recorded (AuditEvent.json_text), so a
long trail is answered by joining stored texts. The text is byte for byte what the
standard JSON renderer (compact, UTF-8, ensure_ascii off) writes for the event's dict,
before the U+2028/U+2029 escapes the renderer applies to the whole answer.

EventJson writes the same text in PostgreSQL: the migrations gave it to the events
recorded before the column existed.
"""

from __future__ import annotations

import json
from datetime import datetime

from django.db.models import F, Func, TextField

from core.times import utc_iso


def utc_text(at: datetime) -> str:
    """The event's time as the answers write times: "2026-03-02T10:00:00Z", with
    microseconds only when there are any."""
    return utc_iso(at)


def event_dict(
    *, at: str, actor_kind, actor_id, actor_label, action, target_type, target_id, reason
) -> dict:
    """One event as the answers show it; `at` already written by utc_text."""
    return {
        "at": at,
        "actor": {"kind": actor_kind, "id": actor_id, "label": actor_label},
        "action": action,
        "target": {"type": target_type, "id": target_id},
        "reason": reason,
    }


def event_json(*, at: datetime, **columns) -> str:
    """One event's JSON text, from its time and its text columns (event_dict's names)."""
    return json.dumps(
        event_dict(at=utc_text(at), **columns), ensure_ascii=False, separators=(",", ":")
    )


class EventJson(Func):
    """PostgreSQL only: the event's JSON text written from its columns, the same text as
    event_json writes.

    The time is written as utc_text writes it. Every text goes through to_json, which
    escapes `"`, `\\` and U+0000-U+001F as Python's json does (\\n, \\u001f, ...) and
    writes all else as UTF-8; NULL becomes null.
    """

    output_field = TextField()
    # (the text before each column, the column)
    PARTS = (
        (',"actor":{"kind":', "actor_kind"),
        (',"id":', "actor_id"),
        (',"label":', "actor_label"),
        ('},"action":', "action"),
        (',"target":{"type":', "target_type"),
        (',"id":', "target_id"),
        ('},"reason":', "reason"),
    )

    def __init__(self):
        super().__init__(F("at"), *(F(column) for column in COLUMNS))

    def as_sql(self, compiler, connection, **extra):
        raise NotImplementedError("EventJson is written by PostgreSQL only")

    def as_postgresql(self, compiler, connection, **extra):
        at, *columns = (compiler.compile(e) for e in self.source_expressions)
        utc = f"to_char({at[0]} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')"
        sql = f"'{{\"at\":\"' || replace({utc} || 'Z', '.000000Z', 'Z') || '\"'"
        params = list(at[1])
        for (before, _), (column, column_params) in zip(self.PARTS, columns, strict=True):
            sql += f" || '{before}' || COALESCE(to_json({column})::text, 'null')"
            params.extend(column_params)
        return sql + " || '}'", params


# The text columns an event's text is written from, in its order (event_dict's names).
COLUMNS = tuple(column for _, column in EventJson.PARTS)
