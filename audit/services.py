from dataclasses import dataclass

from django.db import transaction

from .models import AuditEvent


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
    return AuditEvent.objects.create(
        workspace=workspace,
        agency=agency,
        actor_kind=actor.kind,
        actor_id=str(actor.id or ""),
        actor_label=actor.label[:200],
        action=action,
        target_type=target_type,
        target_id=str(target_id or ""),
        reason=reason,
        detail=detail or {},
    )


def audit_record_many(*, actor: Actor, entries: list[dict]) -> list[AuditEvent]:
    """Record many writes by one actor at once (one insert): each entry holds
    audit_record's other arguments. Must run inside the writes' own transaction."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("audit_record_many must run inside the transaction of its writes")
    return AuditEvent.objects.bulk_create(
        [
            AuditEvent(
                workspace=entry.get("workspace"),
                agency=entry.get("agency"),
                actor_kind=actor.kind,
                actor_id=str(actor.id or ""),
                actor_label=actor.label[:200],
                action=entry["action"],
                target_type=entry["target_type"],
                target_id=str(entry.get("target_id") or ""),
                reason=entry.get("reason", ""),
                detail=entry.get("detail") or {},
            )
            for entry in entries
        ]
    )
