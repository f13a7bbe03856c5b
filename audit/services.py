from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from .models import AuditEvent
from .rendering import event_json


@dataclass(frozen=True)
class Actor:
    """Who did a write: a token, a member's session, a signed-in person or a command."""

    kind: str
    id: str = ""
    label: str = ""

    @classmethod
    def for_user(cls, user) -> "Actor":
        """A signed-in person: their account's id, named by their email (or username)."""
        return cls(kind="user", id=str(user.pk), label=user.email or user.get_username())


SYSTEM = Actor(kind="system", id="", label="system")


def audit_record(
    *,
    actor: Actor,
    action: str,
    target_type: str,
    target_id,
    workspace=None,
    agency=None,
    reason: str = "",
    detail: dict | None = None,
) -> AuditEvent:
    """Record one write. Must run inside the write's own transaction."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("audit_record must run inside the transaction of the write it records")
    event = _event(
        actor=actor,
        workspace=workspace,
        agency=agency,
        action=action,
        target_type=target_type,
        target_id=target_id,
        reason=reason,
        detail=detail,
    )
    event.save(force_insert=True)
    return event


def audit_record_many(*, actor: Actor, entries: list[dict]) -> list[AuditEvent]:
    """Record many writes by one actor at once (one insert): each entry holds
    audit_record's other arguments. Must run inside the writes' own transaction."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("audit_record_many must run inside the transaction of its writes")
    return AuditEvent.objects.bulk_create([_event(actor=actor, **entry) for entry in entries])


def _event(
    *,
    actor: Actor,
    action: str,
    target_type: str,
    target_id=None,
    workspace=None,
    agency=None,
    reason: str = "",
    detail: dict | None = None,
) -> AuditEvent:
    """An unsaved event, its time taken now and its answer's text written with it."""
    at = timezone.now()
    columns = {
        "actor_kind": actor.kind,
        "actor_id": str(actor.id or ""),
        "actor_label": actor.label[:200],
        "action": action,
        "target_type": target_type,
        "target_id": str(target_id or ""),
        "reason": reason,
    }
    return AuditEvent(
        workspace=workspace,
        agency=agency,
        at=at,
        detail=detail or {},
        json_text=event_json(at=at, **columns),
        **columns,
    )
