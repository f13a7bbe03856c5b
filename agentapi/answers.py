"""The answers of the forms: what a filing wrote, as the JSON body the API answers.

The view renders a Filing (agentapi.services) with filing_answer; the same body is kept
under the filing's submission_id, so a second filing answers exactly the first answer.
"""

from core.money import major_from_minor
from core.times import utc_iso as _iso

from .models import Draft


def _id(obj) -> str | None:
    return str(obj.pk) if obj is not None else None


def sale_answer(filed, workspace) -> dict | None:
    if filed is None:
        return None
    sale, exponent = filed.sale, workspace.currency_exponent
    return {
        "id": str(sale.pk),
        "origin": sale.origin,
        "lead_id": str(sale.lead_id),
        "call_id": str(sale.call_id) if sale.call_id else None,
        "closer_id": str(sale.closer_id) if sale.closer_id else None,
        "setter_id": str(sale.setter_id) if sale.setter_id else None,
        "closed_at": _iso(sale.closed_at),
        "currency": workspace.currency,
        "contract_value": major_from_minor(sale.contract_value, exponent=exponent),
        "cash_collected": major_from_minor(filed.cash, exponent=exponent),
        "payment_id": _id(filed.payment),
        "payment_plan": sale.payment_plan,
        "instalments": [
            {
                "due_date": item.due_date.isoformat(),
                "amount": major_from_minor(item.amount, exponent=exponent),
            }
            for item in filed.instalments
        ],
    }


def outcome_answer(outcome) -> dict | None:
    if outcome is None:
        return None
    return {
        "id": str(outcome.pk),
        "result": outcome.result,
        "offer_made": outcome.offer_made,
        "reason": outcome.reason,
        "at": _iso(outcome.at),
    }


def lead_answer(lead, created: bool) -> dict:
    return {"id": str(lead.pk), "name": lead.name, "email": lead.email, "created": created}


def _post_call(filing, workspace) -> dict:
    call = filing.call
    return {
        "call": {
            "id": str(call.pk),
            "attendance": call.attendance,
            "offer_made": call.offer_made,
            "outcome": call.outcome,
        },
        "outcome": outcome_answer(filing.outcome),
        "sale": sale_answer(filing.sale, workspace),
    }


def _past_call(filing, workspace) -> dict:
    return {
        "lead": lead_answer(filing.lead, filing.lead_created),
        "outcome": outcome_answer(filing.outcome),
        "sale": sale_answer(filing.sale, workspace),
    }


def _dm_close(filing, workspace) -> dict:
    return {
        "lead": lead_answer(filing.lead, filing.lead_created),
        "platform": filing.platform,
        "sale": sale_answer(filing.sale, workspace),
    }


def _eod(filing, workspace) -> dict:
    report = filing.report
    return {
        "edited": filing.edited,
        "report": {
            "id": str(report.pk),
            "date": report.date.isoformat(),
            "submitted_at": _iso(report.submitted_at),
            "fields": report.fields,
        },
    }


_BODIES = {
    Draft.Form.POST_CALL: _post_call,
    Draft.Form.PAST_CALL: _past_call,
    Draft.Form.DM_CLOSE: _dm_close,
    Draft.Form.EOD: _eod,
}


def filing_answer(filing, workspace) -> dict:
    """The body answering a new filing (not a replayed one: that answers its kept body)."""
    return {
        "form": filing.form,
        "submission_id": str(filing.submission_id) if filing.submission_id else None,
        "member_id": str(filing.member.pk),
        "filed_at": _iso(filing.filed_at),
        "draft_id": _id(filing.draft),
        **_BODIES[filing.form](filing, workspace),
    }


def change_answer(entry) -> dict:
    """A change-log entry as the API answers it (ChangeEntrySerializer's members) and as
    its `change.created` event carries it."""
    return {
        "id": str(entry.pk),
        "workspace_id": str(entry.workspace_id),
        "effective_at": _iso(entry.effective_at),
        "kind": entry.kind,
        "title": entry.title,
        "what": entry.what,
        "why": entry.why,
        "created_at": _iso(entry.created_at),
        "created_by": {
            "kind": entry.created_by_kind,
            "id": entry.created_by_id,
            "label": entry.created_by_label,
        },
    }
