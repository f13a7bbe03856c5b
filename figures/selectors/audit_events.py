"""/audit-events: the workspace's audit trail in the period, newest first."""

from __future__ import annotations

from django.db.models import CharField, Func

from audit.models import AuditEvent

from .. import envelope as fields
from ..period import Period
from .base import Figures, in_period


class UtcText(Func):
    """A timestamp as ISO 8601 text in UTC without the zone ("2026-03-02T10:00:00" or
    "...:00.250000"), so long lists skip building a datetime per row.

    PostgreSQL formats it; SQLite already stores timestamps as UTC text.
    """

    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra):
        template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, template="REPLACE(%(expressions)s, ' ', 'T')")


def _utc_text_iso(text: str) -> str:
    """UtcText as the answers write times (core.times.utc_iso): microseconds only when there are any."""
    if text.endswith(".000000"):
        text = text[:-7]
    return text + "Z"


def audit_events_list(*, workspace, period: Period) -> Figures:
    events = (
        AuditEvent.objects.filter(workspace=workspace)
        .filter(in_period(period, "at"))
        .order_by("-at", "-pk")
        .annotate(at_text=UtcText("at"))
        .values_list(
            "at_text",
            "actor_kind",
            "actor_id",
            "actor_label",
            "action",
            "target_type",
            "target_id",
            "reason",
        )
    )
    return Figures(
        {
            "events": fields.Plain(
                {
                    "at": _utc_text_iso(at),
                    "actor": {"kind": kind, "id": actor_id, "label": label},
                    "action": action,
                    "target": {"type": target_type, "id": target_id},
                    "reason": reason,
                }
                for at, kind, actor_id, label, action, target_type, target_id, reason in events
            )
        }
    )
