"""The writer of goals: what a member, or the whole workspace, should reach in a month.

A goal is (month, metric, member or none) with a target: a count, or minor units of the
workspace currency for a money metric. The month is a month of the workspace's calendar,
kept as its first day. Owners, admins and managers set goals (a person of another role is
refused here, whatever page, file or API brought the write); tokens with `data:write` may.
Each change records the `goal.updated` event with the month's goals as they stand after
it, in the change's own transaction.
"""

from __future__ import annotations

import re
from datetime import date

from django.db import transaction

from audit.services import Actor, audit_record
from core.transactions import in_transaction
from events.services import event_record

from ..models import Goal, Member, Workspace
from ..shapes import goals_month_shape, month_text
from .base import RecordInvalid, same_workspace, upsert_changes

GOAL_METRICS = tuple(Goal.Metric.values)
MONEY_METRICS = Goal.MONEY_METRICS
# The slot in which a member's figure of each metric is read, as /commission reads it: the
# leads and bookings by their setter, the calls taken and closed and the money by the closer.
GOAL_SLOTS = {
    Goal.Metric.LEADS_CREATED: "setter",
    Goal.Metric.CALLS_BOOKED: "setter",
    Goal.Metric.CALLS_TAKEN: "closer",
    Goal.Metric.CALLS_CLOSED: "closer",
    Goal.Metric.CASH_COLLECTED: "closer",
    Goal.Metric.REVENUE_BOOKED: "closer",
}
# Who sets goals, when a person does.
GOAL_ROLES = frozenset({Member.Role.OWNER, Member.Role.ADMIN, Member.Role.MANAGER})
# The largest target accepted (a count, or minor units).
TARGET_MAX = 10**15
# A month: four digits, a hyphen, the month's two; the descriptions state the same pattern.
MONTH_PATTERN = r"^[0-9]{4}-(0[1-9]|1[0-2])$"
MONTH = re.compile(MONTH_PATTERN, re.ASCII)


class GoalsRefused(Exception):
    """A person whose role does not set goals."""

    def __init__(self, role: str):
        self.role = role
        self.message = f"A {role} reads the goals; owners, admins and managers set them."
        super().__init__(self.message)


# The years a month may be of: a month at either end of the calendar would reach past it
# in some time zone (the days this service can read, core/times.py).
YEARS = (2, 9998)


def month_parse(text) -> date | None:
    """The first day of the month a `YYYY-MM` text names; None when it names none (or one
    of a year outside YEARS)."""
    if not isinstance(text, str) or not MONTH.fullmatch(text):
        return None
    year, month = text.split("-")
    if not YEARS[0] <= int(year) <= YEARS[1]:
        return None
    return date(int(year), int(month), 1)


def _role_check(by_role: str | None) -> None:
    if by_role is not None and by_role not in GOAL_ROLES:
        raise GoalsRefused(by_role)


def _goal_check(workspace: Workspace, *, metric, member, target, prefix: str = "") -> None:
    """The goal's metric, member and target, or RecordInvalid naming the first at fault."""
    if metric not in GOAL_METRICS:
        raise RecordInvalid(
            f"{prefix}metric",
            f"Unknown metric {metric!r}; a goal is set on one of {', '.join(GOAL_METRICS)}.",
        )
    if member is not None:
        try:
            same_workspace(workspace, "member", member)
        except RecordInvalid:
            raise RecordInvalid(f"{prefix}member", "No member of this workspace has it.") from None
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        what = "an amount" if metric in MONEY_METRICS else "a whole number"
        raise RecordInvalid(f"{prefix}target", f"Give {what} of zero or more.")
    if target > TARGET_MAX:
        raise RecordInvalid(f"{prefix}target", "The target is too large.")


def _month_event(workspace: Workspace, month: date) -> None:
    event_record(
        workspace=workspace,
        type="goal.updated",
        data=goals_month_shape(workspace, month, _goals_of_month(workspace, month)),
    )


def _goals_of_month(workspace: Workspace, month: date) -> list[Goal]:
    return list(Goal.objects.filter(workspace=workspace, month=month).select_related("member"))


@in_transaction
def goal_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    month: date,
    metric: str,
    member: Member | None,
    target: int,
    by_role: str | None = None,
):
    """One goal by its own id (the import's goal lines): written again with the same id, it
    is changed. A goal the app or the API set on the same month, metric and member takes
    the id. Records `goal.updated` when it is made or changed. Returns (goal, created)."""
    _role_check(by_role)
    _goal_check(workspace, metric=metric, member=member, target=target)
    held = Goal.objects.filter(workspace=workspace, month=month, metric=metric, member=member)
    if external_id is not None:
        held = held.exclude(external_id=external_id)
    clash = held.first()
    if clash is not None:
        if clash.external_id is not None:
            raise RecordInvalid(
                "metric",
                f"Goal {clash.external_id!r} is already set on {metric} for this month and member.",
            )
        clash.external_id = external_id
        clash.save(update_fields=["external_id"])
    goal, created, before = upsert_changes(
        Goal,
        workspace=workspace,
        external_id=external_id,
        values={"month": month, "metric": metric, "member": member, "target": target},
    )
    if created or before:
        _month_event(workspace, month)
    return goal, created


def goals_replace(
    *, workspace: Workspace, month: date, goals: list[dict], actor: Actor, by_role: str | None
) -> list[Goal]:
    """Replace the month's goals with `goals` (each {metric, member, target}), with its audit
    event and `goal.updated`, in one transaction: a goal of the month that is not named
    again is removed; the others keep their ids. RecordInvalid names the item at fault
    (`goals.2.target`) and nothing is written. Returns the month's goals."""
    _role_check(by_role)
    seen: dict = {}
    for index, item in enumerate(goals):
        prefix = f"goals.{index}."
        _goal_check(
            workspace,
            metric=item["metric"],
            member=item.get("member"),
            target=item["target"],
            prefix=prefix,
        )
        key = (item["metric"], item["member"].pk if item.get("member") else None)
        if key in seen:
            whose = "this member" if key[1] else "the workspace"
            raise RecordInvalid(
                f"goals.{index}",
                f"goals.{seen[key]} already sets {key[0]} for {whose}: one goal per metric "
                "and member.",
            )
        seen[key] = index
    with transaction.atomic():
        held = {
            (goal.metric, goal.member_id): goal
            for goal in Goal.objects.select_for_update().filter(workspace=workspace, month=month)
        }
        removed = [goal.pk for key, goal in held.items() if key not in seen]
        if removed:
            Goal.objects.filter(pk__in=removed).delete()
        for item in goals:
            member = item.get("member")
            goal = held.get((item["metric"], member.pk if member else None))
            if goal is None:
                Goal.objects.create(
                    workspace=workspace,
                    month=month,
                    metric=item["metric"],
                    member=member,
                    target=item["target"],
                )
            elif goal.target != item["target"]:
                goal.target = item["target"]
                goal.save(update_fields=["target", "updated_at"])
        now_held = _goals_of_month(workspace, month)
        shape = goals_month_shape(workspace, month, now_held)
        audit_record(
            actor=actor,
            action="goals.replaced",
            target_type="goal_month",
            target_id=month_text(month),
            workspace=workspace,
            detail={"month": month_text(month), "goals": len(now_held), "removed": len(removed)},
        )
        event_record(workspace=workspace, type="goal.updated", data=shape)
    return now_held
