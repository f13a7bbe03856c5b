"""Writes of a plan's life and of blueprints: a plan drafted (checked, nothing else
changed), sent for approval, approved or declined by a person, and a blueprint saved, each
in one transaction with its audit event. Checking a plan is agency/plans.py and applying it
agency/apply.py; whoever approves a plan enqueues the worker's apply once it is committed.
"""

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.crypto import decrypt_json, encrypt_json
from core.errors import InvalidField
from workspaces.models import Agency, Member

from .models import Blueprint, Plan
from .plans import agency_plan_require, plan_bodies_merge, plan_changes, plan_next_state


def user_actor(user) -> Actor:
    return Actor.for_user(user)


def plan_create(*, agency: Agency, actor: Actor, parsed: dict) -> Plan:
    """Check a plan and keep it as drafted; changes nothing else."""
    blueprint_key = parsed["blueprint"]
    shape = {k: parsed[k] for k in ("workspace", "settings", "team", "programmes", "integrations")}
    if blueprint_key:
        blueprint = Blueprint.objects.filter(agency=agency, key=blueprint_key).first()
        if blueprint is None:
            raise InvalidField("blueprint", f"The agency has no blueprint {blueprint_key!r}.")
        body = plan_bodies_merge(blueprint.body, shape)
    else:
        body = shape
    agency_plan_require(agency)
    changes, _ = plan_changes(agency=agency, body=body)
    with transaction.atomic():
        plan = Plan.objects.create(
            agency=agency,
            blueprint_key=blueprint_key or "",
            body=body,
            result={"changes": changes},
            created_by=actor.label,
        )
        audit_record(
            actor=actor,
            action="plan.drafted",
            target_type="plan",
            target_id=plan.pk,
            agency=agency,
            detail={
                "changes": len(changes),
                "blocked": sum(1 for c in changes if c["status"] == "blocked"),
            },
        )
    return plan


def plan_request_approval(*, plan: Plan, actor: Actor) -> Plan:
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        plan.state = plan_next_state(plan, "request_approval")
        plan.updated_at = timezone.now()
        plan.save(update_fields=["state", "updated_at"])
        audit_record(
            actor=actor,
            action="plan.approval_requested",
            target_type="plan",
            target_id=plan.pk,
            agency=plan.agency,
        )
    return plan


def plan_decide(*, plan: Plan, user, approve: bool, reason: str = "") -> Plan:
    """A person's decision in the agency console.

    An approved plan is then applied by the worker: the caller enqueues
    agency.tasks.apply_plan once this has committed.
    """
    reason = (reason or "").strip()
    if not approve and not reason:
        raise InvalidField("reason", "Say why the plan is declined.")
    if "\x00" in reason:
        raise InvalidField("reason", "The reason holds a NUL character; remove it.")
    if approve:
        agency_plan_require(plan.agency)
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        plan.state = plan_next_state(plan, "approve" if approve else "refuse")
        plan.decided_by = user
        plan.decided_at = timezone.now()
        plan.decision_reason = reason
        plan.updated_at = plan.decided_at
        plan.save(
            update_fields=["state", "decided_by", "decided_at", "decision_reason", "updated_at"]
        )
        audit_record(
            actor=user_actor(user),
            action="plan.approved" if approve else "plan.refused",
            target_type="plan",
            target_id=plan.pk,
            agency=plan.agency,
            reason=reason,
        )
    return plan


def blueprint_put(
    *, agency: Agency, actor: Actor, key: str, parsed: dict
) -> tuple[Blueprint, bool]:
    """Create or replace the blueprint under key; True when it was created."""
    agency_plan_require(agency)
    body = {k: parsed[k] for k in ("settings", "team", "programmes", "integrations")}
    with transaction.atomic():
        blueprint = Blueprint.objects.select_for_update().filter(agency=agency, key=key).first()
        created = blueprint is None
        now = timezone.now()
        if created:
            blueprint = Blueprint.objects.create(
                agency=agency,
                key=key,
                name=parsed["name"],
                body=body,
                created_at=now,
                updated_at=now,
            )
        else:
            blueprint.name, blueprint.body, blueprint.updated_at = parsed["name"], body, now
            blueprint.save(update_fields=["name", "body", "updated_at"])
        audit_record(
            actor=actor,
            action="blueprint.created" if created else "blueprint.replaced",
            target_type="blueprint",
            target_id=key,
            agency=agency,
            detail={"name": blueprint.name},
        )
    return blueprint, created


# --- What a worker's apply shows once, to the person who approved the plan ---------------


def plan_reveal_keep(*, plan: Plan, member_tokens: list[dict], connect_links: list[dict]) -> bool:
    """Keep, encrypted, the tokens and link URLs the worker's apply made, for the person who
    approved the plan; in the apply's transaction. Returns whether anything was kept."""
    if plan.decided_by_id is None or not (member_tokens or connect_links):
        return False
    plan.revealed_encrypted = encrypt_json(
        {"member_tokens": member_tokens, "connect_links": connect_links}
    )
    plan.save(update_fields=["revealed_encrypted"])
    return True


def plan_reveal_take(*, agency: Agency, user) -> list[dict]:
    """The applied plans' results kept for this person, each shown once: read and emptied
    in one transaction, with an audit event."""
    shown = []
    with transaction.atomic():
        plans = Plan.objects.select_for_update().filter(
            agency=agency, decided_by=user, revealed_encrypted__isnull=False
        )
        for plan in plans.order_by("applied_at"):
            secrets = decrypt_json(bytes(plan.revealed_encrypted))
            plan.revealed_encrypted = None
            plan.save(update_fields=["revealed_encrypted"])
            audit_record(
                actor=user_actor(user),
                action="plan.result_shown",
                target_type="plan",
                target_id=plan.pk,
                agency=agency,
                workspace=plan.workspace,
                detail={
                    "member_tokens": len(secrets["member_tokens"]),
                    "connect_links": len(secrets["connect_links"]),
                },
            )
            shown.append({"plan": plan, **secrets})
    return shown


def agency_reader_record(*, agency: Agency, workspace, user) -> Member:
    """An agency user reads a client workspace's figures as a manager would: the reading is
    audited, and the reader stands in the page as an unsaved manager (never a member)."""
    with transaction.atomic():
        audit_record(
            actor=user_actor(user),
            action="workspace.figures_read_by_agency",
            target_type="workspace",
            target_id=workspace.pk,
            workspace=workspace,
            agency=agency,
            detail={"page": "overview"},
        )
    return Member(
        workspace=workspace,
        user=user,
        name=user.get_full_name() or user.get_username(),
        email=user.email,
        role=Member.Role.MANAGER,
    )
