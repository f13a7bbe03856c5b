"""/audit-events: the workspace's audit trail in the period, newest first."""

from __future__ import annotations

from django.contrib.postgres.aggregates import StringAgg
from django.db import connections, router
from django.db.models import DateTimeField, UUIDField

from audit.models import AuditEvent
from audit.rendering import event_dict
from core.compiled import Aggregate, CompiledQuery
from core.renderers import PreRendered

from ..period import Period
from .base import Figures, UtcText, utc_text_iso


def _audit_query(*, part: str, workspace, start, end):
    """The events of the period [start, end): their JSON texts joined, newest first
    ("text", PostgreSQL only), or their columns, newest first ("rows")."""
    events = AuditEvent.objects.filter(workspace=workspace, at__gte=start, at__lt=end)
    if part == "text":
        return Aggregate(
            events,
            text=StringAgg("json_text", delimiter=",", order_by=("-at", "-pk")),
        )
    return (
        events.order_by("-at", "-pk")
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


audit_query = CompiledQuery(
    _audit_query,
    params={"workspace": UUIDField(), "start": DateTimeField(), "end": DateTimeField()},
    model=AuditEvent,
)


def audit_events_list(*, workspace, period: Period, pre_rendered: bool = False) -> Figures:
    """The events, newest first. With pre_rendered on PostgreSQL, `events` is their JSON
    text joined by the database (core.renderers.PreRendered): each event's stored text. It
    is byte for byte what the renderer writes for the list of dicts: a 6,000-event answer
    skips 6,000 rows of Python objects."""
    arguments = {"workspace": workspace.pk, "start": period.start, "end": period.end}
    if pre_rendered and connections[router.db_for_read(AuditEvent)].vendor == "postgresql":
        text = audit_query(part="text", **arguments)["text"]
        return Figures({"events": PreRendered(f"[{text or ''}]")})
    rows = audit_query(part="rows", **arguments)
    return Figures(
        {
            "events": list(
                event_dict(
                    at=utc_text_iso(at),
                    actor_kind=kind,
                    actor_id=actor_id,
                    actor_label=label,
                    action=action,
                    target_type=target_type,
                    target_id=target_id,
                    reason=reason,
                )
                for at, kind, actor_id, label, action, target_type, target_id, reason in rows
            )
        }
    )
