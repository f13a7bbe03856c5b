"""Writers of commission rules."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from audit.services import audit_record

from ..models import (
    CommissionRule,
    Member,
    Workspace,
)
from .base import RecordInvalid, same_workspace, upsert


def _commission_rule_check(basis: str, slot: str, rate: Decimal) -> None:
    if basis not in CommissionRule.Basis.values:
        raise RecordInvalid(
            "basis", f"Unknown basis {basis!r}; use cash_collected or revenue_booked."
        )
    if slot not in CommissionRule.Slot.values:
        raise RecordInvalid("slot", f"Unknown slot {slot!r}; use closer or setter.")
    if not (Decimal(0) <= rate <= Decimal(1)) or rate != rate.quantize(Decimal("0.0001")):
        raise RecordInvalid("rate", "A rate is a fraction from 0 to 1 with at most 4 decimals.")


def commission_rule_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    member: Member,
    basis: str,
    slot: str,
    rate: Decimal,
):
    same_workspace(workspace, "member", member)
    _commission_rule_check(basis, slot, rate)
    clash = CommissionRule.objects.filter(member=member)
    if external_id is not None:
        clash = clash.exclude(external_id=external_id)
    clash = clash.first()
    if clash is not None:
        if clash.external_id is not None:
            raise RecordInvalid("member", f"This member already has rule {clash.external_id!r}.")
        clash.external_id = external_id
        clash.save(update_fields=["external_id"])
    return upsert(
        CommissionRule,
        workspace=workspace,
        external_id=external_id,
        values={"member": member, "basis": basis, "slot": slot, "rate": rate},
    )


def commission_rule_set(*, member: Member, basis: str, slot: str, rate: Decimal, actor):
    """A member's one commission rule, set in the app (a rule an import made keeps its
    external id), with its audit event."""
    with transaction.atomic():
        existing = CommissionRule.objects.select_for_update().filter(member=member).first()
        if existing is not None and existing.external_id is None:
            _commission_rule_check(basis, slot, rate)
            existing.basis, existing.slot, existing.rate = basis, slot, rate
            existing.save(update_fields=["basis", "slot", "rate"])
            rule = existing
        else:
            rule, _ = commission_rule_upsert(
                workspace=member.workspace,
                external_id=existing.external_id if existing is not None else None,
                member=member,
                basis=basis,
                slot=slot,
                rate=rate,
            )
        audit_record(
            actor=actor,
            action="commission_rule.set",
            target_type="commission_rule",
            target_id=rule.pk,
            workspace=member.workspace,
            detail={"member": str(member.pk), "basis": basis, "slot": slot, "rate": str(rate)},
        )
    return rule


def commission_rule_remove(*, member: Member, actor) -> bool:
    with transaction.atomic():
        rule = CommissionRule.objects.select_for_update().filter(member=member).first()
        if rule is None:
            return False
        rule_id = rule.pk
        rule.delete()
        audit_record(
            actor=actor,
            action="commission_rule.removed",
            target_type="commission_rule",
            target_id=rule_id,
            workspace=member.workspace,
            detail={"member": str(member.pk)},
        )
    return True
