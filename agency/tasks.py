"""The apply task: run by a Celery worker right after a person approves a plan.

The task calls the apply service; no service imports the task (whoever approves enqueues
it once the decision is committed)."""

import logging

from celery import shared_task
from django.db import transaction

from audit.services import SYSTEM
from core.errors import ApiError

from .apply import plan_apply
from .models import Plan
from .services import plan_reveal_keep

logger = logging.getLogger(__name__)


@shared_task(name="agency.tasks.apply_plan", acks_late=True)
def apply_plan(plan_id: str) -> str:
    """Apply an approved plan. Safe to run twice: a plan that is not approved is left alone.

    The new members' session tokens and the connect links' URLs it makes are kept
    encrypted for the person who approved the plan, whom the console shows them once
    (agency.services.plan_reveal_take); every new member is also mailed a link to choose a
    password.
    """
    with transaction.atomic():
        plan = Plan.objects.select_for_update().filter(pk=plan_id).first()
        if plan is None:
            logger.warning("apply_plan: no plan %s", plan_id)
            return "missing"
        if plan.state != Plan.State.APPROVED:
            return f"skipped:{plan.state}"
        approver = plan.decided_by_id is not None
        try:
            applied = plan_apply(plan_id=plan.pk, actor=SYSTEM, mint_member_tokens=approver)
            result = applied.result
            plan_reveal_keep(
                plan=applied.plan,
                member_tokens=result["member_tokens"],
                connect_links=[link for link in result["connect_links"] if link.get("url")],
            )
        except ApiError as error:
            # Not retried: the plan stays approved, and the console shows it unapplied.
            logger.warning("apply_plan %s refused: %s %s", plan_id, error.reason, error.message)
            transaction.set_rollback(True)
            return error.reason
    return Plan.State.APPLIED
