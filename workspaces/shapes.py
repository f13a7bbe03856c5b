"""Records as integrators see them: the `data` of the events the writers record.

One function per record type. Ids are strings, instants UTC with a Z, money in major
units of the workspace currency (a JSON number, as the API answers money) beside its
`currency`. The agent
API's answers carry the same members where they show the same record.
"""

from __future__ import annotations

from core.money import major_from_minor
from core.times import utc_iso

from .models import Goal


def _id(value) -> str | None:
    return str(value) if value is not None else None


def _money(workspace, minor: int):
    return major_from_minor(minor, exponent=workspace.currency_exponent)


def lead_shape(lead) -> dict:
    return {
        "id": str(lead.pk),
        "external_id": lead.external_id,
        "name": lead.name,
        "email": lead.email,
        "status": lead.status,
        "setter_id": _id(lead.setter_id),
        "created_at": utc_iso(lead.created_at),
        "utm": {
            "source": lead.utm_source,
            "medium": lead.utm_medium,
            "campaign": lead.utm_campaign,
            "content": lead.utm_content,
        },
    }


def call_shape(call) -> dict:
    return {
        "id": str(call.pk),
        "external_id": call.external_id,
        "lead_id": str(call.lead_id),
        "closer_id": _id(call.closer_id),
        "setter_id": _id(call.setter_id),
        "booked_at": utc_iso(call.booked_at),
        "scheduled_for": utc_iso(call.scheduled_for),
        "status": call.status,
        "rescheduled_from": _id(call.rescheduled_from_id),
        "attendance": call.attendance,
        "offer_made": call.offer_made,
        "outcome": call.outcome,
    }


def outcome_shape(outcome) -> dict:
    return {
        "id": str(outcome.pk),
        "external_id": outcome.external_id,
        "call_id": _id(outcome.call_id),
        "lead_id": _id(outcome.lead_id),
        "member_id": _id(outcome.member_id),
        "result": outcome.result,
        "offer_made": outcome.offer_made,
        "reason": outcome.reason,
        "at": utc_iso(outcome.at),
    }


def sale_shape(sale, workspace) -> dict:
    return {
        "id": str(sale.pk),
        "external_id": sale.external_id,
        "origin": sale.origin,
        "lead_id": str(sale.lead_id),
        "call_id": _id(sale.call_id),
        "closer_id": _id(sale.closer_id),
        "setter_id": _id(sale.setter_id),
        "closed_at": utc_iso(sale.closed_at),
        "currency": workspace.currency,
        "contract_value": _money(workspace, sale.contract_value),
        "payment_plan": sale.payment_plan,
    }


def payment_shape(payment, workspace) -> dict:
    return {
        "id": str(payment.pk),
        "external_id": payment.external_id,
        "sale_id": str(payment.sale_id),
        "status": payment.status,
        "paid_at": utc_iso(payment.paid_at),
        "currency": workspace.currency,
        "amount": _money(workspace, payment.amount),
    }


def refund_shape(refund, workspace) -> dict:
    return {
        "id": str(refund.pk),
        "external_id": refund.external_id,
        "payment_id": str(refund.payment_id),
        "sale_id": str(refund.sale_id),
        "kind": refund.kind,
        "at": utc_iso(refund.at),
        "currency": workspace.currency,
        "amount": _money(workspace, refund.amount),
    }


def eod_shape(report) -> dict:
    return {
        "id": str(report.pk),
        "external_id": report.external_id,
        "member_id": str(report.member_id),
        "date": report.date.isoformat(),
        "submitted_at": utc_iso(report.submitted_at),
        "fields": report.fields,
    }


def member_shape(member) -> dict:
    return {
        "id": str(member.pk),
        "name": member.name,
        "email": member.email,
        "role": member.role,
        "active": member.is_active,
    }


def _or_none(text: str) -> str | None:
    return text or None


def ad_spend_shape(spend, workspace) -> dict:
    """An ad spend record as the API answers it and `ad_spend.updated` carries it: `id` is
    the record's own (external) id, its identity; an absent UTM value or campaign is
    null."""
    return {
        "id": spend.external_id,
        "date": spend.date.isoformat(),
        "platform": spend.platform,
        "utm_source": _or_none(spend.utm_source),
        "utm_medium": _or_none(spend.utm_medium),
        "utm_campaign": _or_none(spend.utm_campaign),
        "utm_content": _or_none(spend.utm_content),
        "campaign_id": _or_none(spend.campaign_id),
        "campaign_name": _or_none(spend.campaign_name),
        "impressions": spend.impressions,
        "clicks": spend.clicks,
        "currency": workspace.currency,
        "amount": _money(workspace, spend.amount),
    }


def month_text(first_day) -> str:
    """A month as the answers and links write it: YYYY-MM (a year under 1000 zero-padded)."""
    return f"{first_day.year:04d}-{first_day.month:02d}"


# The order of a month's goals: the workspace's first, then members by name; within each,
# the metrics in the order Goal.Metric declares them.
_GOAL_METRIC_ORDER = tuple(Goal.Metric.values)


def goal_order_key(goal) -> tuple:
    member = goal.member
    return (
        member is not None,
        (member.name.casefold(), str(member.pk)) if member is not None else ("", ""),
        _GOAL_METRIC_ORDER.index(goal.metric),
    )


def goal_shape(goal, workspace) -> dict:
    """A goal as PUT /api/v1/goals/{month} answers it and `goal.updated` carries it: the
    target is a count, or money in major units beside `currency`."""
    money = goal.metric in Goal.MONEY_METRICS
    member = goal.member
    body = {
        "metric": goal.metric,
        "member": {"id": str(member.pk), "name": member.name} if member is not None else None,
        "unit": "money" if money else "count",
        "target": _money(workspace, goal.target) if money else goal.target,
    }
    if money:
        body["currency"] = workspace.currency
    return body


def goals_month_shape(workspace, month, goals) -> dict:
    """A month's goals (`month` its first day), workspace goals first, then by member."""
    return {
        "month": month_text(month),
        "goals": [goal_shape(goal, workspace) for goal in sorted(goals, key=goal_order_key)],
    }
