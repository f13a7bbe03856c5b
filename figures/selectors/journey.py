"""/leads/{id}/journey: everything held about one lead, in time order."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, UUIDField

from core.compiled import CompiledQuery
from core.errors import NotFound
from core.ids import parse_uuid
from core.times import utc_iso
from workspaces.models import (
    Call,
    FunnelEvent,
    Lead,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
)

from .. import envelope as fields
from .base import Figures, member_ref
from .leads import lead_row


def _journey_query(*, part: str, workspace, lead):
    """One of the journey's reads of the lead: its row, or its records of one kind."""
    if part == "lead":
        leads = Lead.objects.filter(workspace=workspace, pk=lead).select_related("setter")
        # As .first() reads it.
        return (leads if leads.ordered else leads.order_by("pk"))[:1]
    by_lead = {"workspace": workspace, "lead": lead}
    by_sale_lead = {"workspace": workspace, "sale__lead": lead}
    return {
        "calls": lambda: Call.objects.filter(**by_lead).select_related("closer", "setter"),
        "touches": lambda: Touch.objects.filter(**by_lead).select_related("member"),
        "registrations": lambda: Registration.objects.filter(**by_lead).select_related("event"),
        "sales": lambda: Sale.objects.filter(**by_lead).select_related("closer", "setter"),
        "payments": lambda: Payment.objects.filter(**by_sale_lead),
        "refunds": lambda: Refund.objects.filter(**by_sale_lead),
        "funnel_events": lambda: FunnelEvent.objects.filter(**by_lead).select_related(
            "funnel", "stage"
        ),
    }[part]()


journey_query = CompiledQuery(
    _journey_query, params={"workspace": UUIDField(), "lead": UUIDField()}, model=Lead
)


def _records(part: str, workspace, lead) -> list:
    return journey_query(part=part, workspace=workspace.pk, lead=lead.pk)


def lead_journey(*, workspace, lead_id) -> Figures:
    """Everything held about one lead, in time order; 404 for another workspace's lead."""
    lead_uuid = parse_uuid(lead_id)
    if lead_uuid is None:
        raise NotFound("No lead of this workspace has that id.")
    found = journey_query(part="lead", workspace=workspace.pk, lead=lead_uuid)
    if not found:
        raise NotFound("No lead of this workspace has that id.")
    lead = found[0]

    calls = _records("calls", workspace, lead)
    events: list[dict] = [
        {"at": utc_iso(lead.created_at), "type": "lead.created"},
        *_touch_events(workspace, lead),
        *_webinar_events(workspace, lead),
        *_call_events(calls),
        *_outcome_events(workspace, lead, calls),
        *_sale_events(workspace, lead),
        *_payment_events(workspace, lead),
        *_refund_events(workspace, lead),
        *_funnel_events(workspace, lead),
    ]
    # Stable: events at the same moment keep the order above.
    events.sort(key=lambda event: datetime.fromisoformat(event["at"]))
    return Figures({"lead": lead_row(lead), "events": events})


def _touch_events(workspace, lead) -> list[dict]:
    return [
        {
            "at": utc_iso(touch.at),
            "type": "touch",
            "channel": touch.channel,
            "member": member_ref(touch.member),
        }
        for touch in _records("touches", workspace, lead)
    ]


def _webinar_events(workspace, lead) -> list[dict]:
    """Each registration, and the joining and leaving of those who came."""
    events = []
    for reg in _records("registrations", workspace, lead):
        event_ref = {"id": str(reg.event.pk), "name": reg.event.name}
        events.append(
            {"at": utc_iso(reg.registered_at), "type": "webinar.registered", "event": event_ref}
        )
        if reg.joined_at:
            events.append(
                {"at": utc_iso(reg.joined_at), "type": "webinar.joined", "event": event_ref}
            )
        if reg.left_at:
            events.append({"at": utc_iso(reg.left_at), "type": "webinar.left", "event": event_ref})
    return events


def _call_events(calls) -> list[dict]:
    """Each call's booking (or rescheduling), then its cancellation or attendance; a call
    replaced by a rescheduled one shows only its booking."""
    events = []
    for call in calls:
        ref = {
            "id": str(call.pk),
            "scheduled_for": utc_iso(call.scheduled_for),
            "closer": member_ref(call.closer),
            "setter": member_ref(call.setter),
        }
        events.append(_call_booking(call, ref))
        if call.status == Call.Status.CANCELLED:
            events.append(
                {"at": utc_iso(call.scheduled_for), "type": "call.cancelled", "call": ref}
            )
        elif call.attendance and not call.replaced:
            events.append(
                {"at": utc_iso(call.scheduled_for), "type": f"call.{call.attendance}", "call": ref}
            )
    return events


def _call_booking(call, ref: dict) -> dict:
    booking = {"at": utc_iso(call.booked_at), "type": "call.booked", "call": ref}
    if call.rescheduled_from_id:
        booking = {
            **booking,
            "type": "call.rescheduled",
            "rescheduled_from": str(call.rescheduled_from_id),
        }
    return booking


def _outcomes_query(*, workspace, lead, **calls):
    """The outcomes by the lead (past-call forms) or by one of its calls (call_0,
    call_1, ...): indexed lookups ORed together, no join."""
    by_call = Q(lead=lead)
    for name in sorted(calls):
        by_call |= Q(call=calls[name])
    return Outcome.objects.filter(by_call, workspace=workspace).select_related("member")


def _call_slots(count: int) -> int:
    """The number of call parameters for `count` calls: the next power of two, so a few
    statements serve every lead (the extra slots repeat the last call)."""
    return 0 if count == 0 else 1 << (count - 1).bit_length()


_CALL_SLOTS = 64
outcomes_query = CompiledQuery(
    _outcomes_query,
    params={
        "workspace": UUIDField(),
        "lead": UUIDField(),
        **{f"call_{n}": UUIDField() for n in range(_CALL_SLOTS)},
    },
    model=Outcome,
)


def _outcomes(workspace, lead, calls) -> list:
    ids = [call.pk for call in calls]
    if len(ids) > _CALL_SLOTS:
        return list(
            Outcome.objects.filter(
                Q(lead=lead) | Q(call_id__in=ids), workspace=workspace
            ).select_related("member")
        )
    slots = ids + ids[-1:] * (_call_slots(len(ids)) - len(ids))
    return outcomes_query(
        workspace=workspace.pk,
        lead=lead.pk,
        **{f"call_{n}": call_id for n, call_id in enumerate(slots)},
    )


def _outcome_events(workspace, lead, calls) -> list[dict]:
    return [
        {
            "at": utc_iso(outcome.at),
            "type": "outcome",
            "result": outcome.result,
            "reason": outcome.reason,
            "offer_made": outcome.offer_made,
            "call_id": str(outcome.call_id) if outcome.call_id else None,
            "member": member_ref(outcome.member),
        }
        for outcome in _outcomes(workspace, lead, calls)
    ]


def _sale_events(workspace, lead) -> list[dict]:
    return [
        {
            "at": utc_iso(sale.closed_at),
            "type": "sale",
            "sale_id": str(sale.pk),
            "origin": sale.origin,
            "contract_value": fields.major_units(sale.contract_value, workspace),
            "currency": workspace.currency,
            "closer": member_ref(sale.closer),
            "setter": member_ref(sale.setter),
        }
        for sale in _records("sales", workspace, lead)
    ]


def _payment_events(workspace, lead) -> list[dict]:
    return [
        {
            "at": utc_iso(payment.paid_at),
            "type": "payment",
            "payment_id": str(payment.pk),
            "sale_id": str(payment.sale_id),
            "status": payment.status,
            "amount": fields.major_units(payment.amount, workspace),
            "currency": workspace.currency,
        }
        for payment in _records("payments", workspace, lead)
    ]


def _refund_events(workspace, lead) -> list[dict]:
    """Refunds and chargebacks, each typed by its kind."""
    return [
        {
            "at": utc_iso(refund.at),
            "type": refund.kind,
            "payment_id": str(refund.payment_id),
            "sale_id": str(refund.sale_id),
            "amount": fields.major_units(refund.amount, workspace),
            "currency": workspace.currency,
        }
        for refund in _records("refunds", workspace, lead)
    ]


def _funnel_events(workspace, lead) -> list[dict]:
    return [
        {
            "at": utc_iso(event.at),
            "type": "funnel.stage",
            "funnel": event.funnel.key,
            "stage": event.stage.key,
        }
        for event in _records("funnel_events", workspace, lead)
    ]
