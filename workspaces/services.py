"""Writers of sales records: one writer per record type, the only way a record is written.

Every writer is keyed on the record's own (external) id within its workspace, so
writing the same record again updates it; a record made in the app has no external id
(``external_id=None``) and is always created. The writers keep the invariants the
figures rely on (see workspaces.kept):

- ``Call.outcome`` is the result of the call's latest Outcome (by ``at``), and
  ``Call.offer_made`` follows the latest outcome that recorded it;
- ``Call.replaced`` is True iff another call names it in ``rescheduled_from``;
- ``Lead.first_contact_at`` is the earliest Touch by a member;
- ``Sale.cash_collected`` is the sum of its succeeded payments; ``Lead.has_sale`` and
  ``Lead.cash_collected`` follow the lead's sales; ``Payment.closer``/``setter`` are its
  sale's; ``Registration.booked_after`` says whether the lead booked a call at or after
  the event's start;
- ``FunnelProgress`` holds, per funnel and lead, when the lead entered the funnel and
  how many of its stages it reached in order.

A writer refreshes them itself unless given a ``touched`` set, which collects what to
refresh instead (a call also takes ``refresh=False``); the import does that once for
everything it touched, at the end of its transaction.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal

from django.db import models, transaction
from django.db.models import Exists, Max, OuterRef, Q

from audit.services import audit_record
from core.money import major_from_minor
from core.transactions import in_transaction
from events.services import event_record, events_bulk_record

from .kept import (
    UTM_FIELDS,
    calls_outcome_refresh,
    funnels_progress_touch,
    leads_first_contact_refresh,
    leads_sales_refresh,
    registrations_booked_refresh,
    utm_tags_ids,
    utm_tags_of,
    workspace_invariants_refresh,
)
from .models import (
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelStage,
    Instalment,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)
from .shapes import (
    call_shape,
    eod_shape,
    lead_shape,
    outcome_shape,
    payment_shape,
    refund_shape,
    sale_shape,
)


class RecordInvalid(Exception):
    """A record that cannot be written; ``field`` names the member at fault."""

    def __init__(self, field: str | None, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


_KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


# --- writers -------------------------------------------------------------------------


def _upsert(model, *, workspace: Workspace, external_id: str | None, values: dict):
    """Create the record, or update the one with this external id. Returns (obj, created)."""
    obj, created, _before = _upsert_changes(
        model, workspace=workspace, external_id=external_id, values=values
    )
    return obj, created


def _upsert_changes(model, *, workspace: Workspace, external_id: str | None, values: dict):
    """As _upsert, and what the update changed: (obj, created, {attname: value before})."""
    obj = None
    if external_id is not None:
        # A unique lookup: no ordering needed (first() would add one).
        obj = next(
            iter(model.objects.filter(workspace=workspace, external_id=external_id)[:1]), None
        )
    if obj is None:
        obj = model.objects.create(workspace=workspace, external_id=external_id, **values)
        return obj, True, {}
    before = {}
    for name, value in values.items():
        model_field = model._meta.get_field(name)
        if model_field.is_relation:
            # Compare ids, so an update never loads the related rows.
            name = model_field.attname
            value = value.pk if isinstance(value, models.Model) else value
        if getattr(obj, name) != value:
            before[name] = getattr(obj, name)
            setattr(obj, name, value)
    if before:
        obj.save(update_fields=list(before))
    return obj, False, before


def _refresh_or_collect(keys: set, touched: set | None, refresh) -> None:
    """Refresh the values kept for these keys now, or add them to the caller's `touched`
    set (the import refreshes once, at the end)."""
    keys = keys - {None}
    if touched is None:
        refresh(keys)
    else:
        touched |= keys


def _same_workspace(workspace: Workspace, field: str, *objs) -> None:
    for obj in objs:
        if obj is not None and obj.workspace_id != workspace.pk:
            raise RecordInvalid(field, "That record belongs to another workspace.")


@in_transaction
@in_transaction
def lead_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    created_at: datetime,
    name: str = "",
    email: str = "",
    status: str = "new",
    setter: Member | None = None,
    utm_source: str = "",
    utm_medium: str = "",
    utm_campaign: str = "",
    utm_content: str = "",
    tags_known: dict | None = None,
):
    """A lead. `tags_known` ({UTM tags: UtmTags id}), given by a caller that writes many
    leads in one transaction (the import), saves a look-up per lead: the lead's
    combination is read from it, or looked up and added to it."""
    _same_workspace(workspace, "setter", setter)
    tags = (utm_source, utm_medium, utm_campaign, utm_content)
    tags_id = None if tags_known is None else tags_known.get(tags)
    if tags_id is None:
        tags_id = utm_tags_ids(workspace=workspace, combinations=[tags])[tags]
        if tags_known is not None:
            tags_known[tags] = tags_id
    lead, created, before = _upsert_changes(
        Lead,
        workspace=workspace,
        external_id=external_id,
        values={
            "created_at": created_at,
            "name": name,
            "email": email,
            "status": status or "new",
            "setter": setter,
            **dict(zip(UTM_FIELDS, tags, strict=True)),
            "utm_tags_id": tags_id,
        },
    )
    if created or before:
        event_record(
            workspace=workspace,
            type="lead.created" if created else "lead.updated",
            data=lead_shape(lead),
        )
    return lead, created


@in_transaction
def leads_create(*, workspace: Workspace, leads: list[dict]) -> list[Lead]:
    """Many new leads at once, each a dict of lead_upsert's values (external_id,
    created_at, name, email, status, setter, utm_*), in one insert, each with the
    lead.created event lead_upsert records. Every external id must be new to the
    workspace (write an existing one with lead_upsert). Returns the leads made."""
    ids = [values["external_id"] for values in leads]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new lead needs an external id of its own.")
    for values in leads:
        _same_workspace(workspace, "setter", values.get("setter"))
    if Lead.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "A lead with one of these external ids exists.")
    tags_ids = utm_tags_ids(workspace=workspace, combinations={utm_tags_of(v) for v in leads})
    made = Lead.objects.bulk_create(
        [
            Lead(
                workspace=workspace,
                **{**values, "status": values.get("status") or "new"},
                utm_tags_id=tags_ids[utm_tags_of(values)],
            )
            for values in leads
        ]
    )
    events_bulk_record(
        workspace=workspace, events=[("lead.created", lead_shape(lead)) for lead in made]
    )
    return made


def touch_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    at: datetime,
    member: Member | None = None,
    channel: str = "",
    touched: set | None = None,
):
    """A touch. The leads whose first contact may change are refreshed, or added to
    `touched`."""
    _same_workspace(workspace, "lead", lead)
    _same_workspace(workspace, "member", member)
    touch, created, before = _upsert_changes(
        Touch,
        workspace=workspace,
        external_id=external_id,
        values={"lead": lead, "at": at, "member": member, "channel": channel},
    )
    _refresh_or_collect(
        {lead.pk, before.get("lead_id")},
        touched,
        lambda ids: leads_first_contact_refresh(workspace=workspace, lead_ids=ids),
    )
    return touch, created


@in_transaction
def call_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    booked_at: datetime,
    scheduled_for: datetime,
    closer: Member | None = None,
    setter: Member | None = None,
    status: str = Call.Status.SCHEDULED,
    rescheduled_from: Call | None = None,
    attendance: str = "",
    offer_made: bool | None = None,
    refresh: bool = True,
    touched: set | None = None,
):
    """A call. Without `refresh`, the leads whose bookings changed go to `touched`."""
    _same_workspace(workspace, "lead", lead)
    _same_workspace(workspace, "closer", closer)
    _same_workspace(workspace, "setter", setter)
    _same_workspace(workspace, "rescheduled_from", rescheduled_from)
    if status not in Call.Status.values:
        raise RecordInvalid("status", f"Unknown status {status!r}; use scheduled or cancelled.")
    if attendance not in ("", *Call.Attendance.values):
        raise RecordInvalid(
            "attendance", f"Unknown attendance {attendance!r}; use showed or no_show."
        )
    if rescheduled_from is not None and rescheduled_from.external_id == external_id:
        raise RecordInvalid("rescheduled_from", "A call cannot replace itself.")
    values = {
        "lead": lead,
        "booked_at": booked_at,
        "scheduled_for": scheduled_for,
        "closer": closer,
        "setter": setter,
        "status": status,
        "rescheduled_from": rescheduled_from,
        "attendance": attendance,
    }
    if offer_made is not None:
        values["offer_made"] = offer_made
    call, created, before = _upsert_changes(
        Call, workspace=workspace, external_id=external_id, values=values
    )
    event = _call_event(call, created, before)
    leads = {lead.pk, before.get("lead_id")} - {None}
    if refresh:
        # Only the calls it replaces, now or before, can change (not the whole workspace's).
        _calls_replaced_set({call.rescheduled_from_id, before.get("rescheduled_from_id")})
        calls_outcome_refresh(workspace=workspace, call_ids=[call.pk])
        registrations_booked_refresh(workspace=workspace, lead_ids=leads)
    elif touched is not None:
        touched |= leads
    if event is not None:
        event_record(workspace=workspace, type=event, data=call_shape(call))
    return call, created


def _calls_replaced_set(call_ids: set) -> None:
    """Call.replaced of these calls, from whether another call names them in
    rescheduled_from: what calls_replaced_refresh does for the whole workspace, for the
    only calls a write can change."""
    call_ids = call_ids - {None}
    if call_ids:
        Call.objects.filter(pk__in=call_ids).update(
            replaced=Exists(Call.objects.filter(rescheduled_from=OuterRef("pk")))
        )


def _call_check(workspace: Workspace, values: dict) -> None:
    """call_upsert's checks of one call's values."""
    for field in ("lead", "closer", "setter", "rescheduled_from"):
        _same_workspace(workspace, field, values.get(field))
    status = values.get("status", Call.Status.SCHEDULED)
    if status not in Call.Status.values:
        raise RecordInvalid("status", f"Unknown status {status!r}; use scheduled or cancelled.")
    attendance = values.get("attendance", "")
    if attendance not in ("", *Call.Attendance.values):
        raise RecordInvalid(
            "attendance", f"Unknown attendance {attendance!r}; use showed or no_show."
        )
    replaces = values.get("rescheduled_from")
    if replaces is not None and replaces.external_id == values["external_id"]:
        raise RecordInvalid("rescheduled_from", "A call cannot replace itself.")


_CALL_FIELDS = ("lead", "booked_at", "scheduled_for", "closer", "setter", "status",
                "rescheduled_from", "attendance")  # fmt: skip


@in_transaction
def calls_write_many(*, workspace: Workspace, calls: list[dict]) -> list[Call]:
    """Many calls at once, each a dict of call_upsert's values (external_id, lead,
    booked_at, scheduled_for, closer, setter, status, rescheduled_from, attendance): a call
    whose external id is new to the workspace is made (one insert); an existing one may
    change its status only (write any other change with call_upsert), in one update per
    status. The kept values are refreshed once for them all, as call_upsert refreshes them
    for one, and each call's event is recorded as call_upsert records it, in the list's
    order. Returns the calls."""
    ids = [values["external_id"] for values in calls]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each call needs an external id of its own.")
    for values in calls:
        _call_check(workspace, values)
    existing = {
        call.external_id: call
        for call in Call.objects.filter(workspace=workspace, external_id__in=ids)
    }
    written, made, moved, leads = [], [], {}, set()
    for values in calls:
        full = {name: values.get(name) for name in _CALL_FIELDS}
        full["status"] = full["status"] or Call.Status.SCHEDULED
        full["attendance"] = full["attendance"] or ""
        call = existing.get(values["external_id"])
        if call is None:
            call = Call(workspace=workspace, external_id=values["external_id"], **full)
            made.append(call)
            written.append((call, True, {}))
            leads.add(call.lead_id)
            continue
        before = {}
        for name, value in full.items():
            attname = Call._meta.get_field(name).attname
            value = value.pk if isinstance(value, models.Model) else value
            if getattr(call, attname) != value:
                before[attname] = getattr(call, attname)
        if set(before) - {"status"}:
            raise RecordInvalid(None, f"Call {call.external_id} changes more than its status: "
                                "write it with call_upsert.")  # fmt: skip
        if before:
            call.status = full["status"]
            moved.setdefault(call.status, []).append(call.pk)
        written.append((call, False, before))
        leads.add(call.lead_id)
    Call.objects.bulk_create(made)
    for status, pks in moved.items():
        Call.objects.filter(pk__in=pks).update(status=status)
    # Only the calls the new ones replace can become replaced (an existing call keeps what
    # it replaces).
    _calls_replaced_set({call.rescheduled_from_id for call in made})
    calls_outcome_refresh(workspace=workspace, call_ids=[call.pk for call, _c, _b in written])
    registrations_booked_refresh(workspace=workspace, lead_ids=leads)
    events_bulk_record(
        workspace=workspace,
        events=[
            (event, call_shape(call))
            for call, created, before in written
            if (event := _call_event(call, created, before)) is not None
        ],
    )
    return [call for call, _created, _before in written]


def _call_event(call: Call, created: bool, before: dict) -> str | None:
    """The event a call's write announces: booked (or rescheduled, when it replaces
    another), cancelled, or rescheduled when it comes to replace one; None otherwise."""
    if created:
        if call.status == Call.Status.CANCELLED:
            return "call.cancelled"
        return "call.rescheduled" if call.rescheduled_from_id else "call.booked"
    if "status" in before and call.status == Call.Status.CANCELLED:
        return "call.cancelled"
    if "rescheduled_from_id" in before and call.rescheduled_from_id:
        return "call.rescheduled"
    return None


@in_transaction
def outcome_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    result: str,
    at: datetime,
    call: Call | None = None,
    lead: Lead | None = None,
    member: Member | None = None,
    offer_made: bool | None = None,
    reason: str = "",
    notes: str = "",
    touched: set | None = None,
):
    """An outcome. The calls whose latest outcome may change are refreshed, or added to
    `touched`."""
    _same_workspace(workspace, "call", call)
    _same_workspace(workspace, "lead", lead)
    _same_workspace(workspace, "member", member)
    if result not in Outcome.Result.values:
        raise RecordInvalid(
            "result", f"Unknown result {result!r}; use one of {', '.join(Outcome.Result)}."
        )
    if call is None and lead is None:
        raise RecordInvalid("lead", "An outcome of a past call (no call) names its lead.")
    # A booked call's lead, and its closer unless named: by id, without loading them.
    lead_id = lead.pk if lead is not None else call.lead_id
    member_id = member.pk if member is not None else (call.closer_id if call else None)
    outcome, created, before = _upsert_changes(
        Outcome,
        workspace=workspace,
        external_id=external_id,
        values={
            "call": call,
            "lead_id": lead_id,
            "member_id": member_id,
            "result": result,
            "offer_made": offer_made,
            "reason": reason,
            "notes": notes,
            "at": at,
        },
    )
    if created or before:
        event_record(workspace=workspace, type="call.outcome_recorded", data=outcome_shape(outcome))
    _refresh_or_collect(
        {before.get("call_id"), call.pk if call else None},
        touched,
        lambda ids: calls_outcome_refresh(workspace=workspace, call_ids=ids),
    )
    return outcome, created


@in_transaction
def sale_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    closed_at: datetime,
    contract_value: int,
    call: Call | None = None,
    origin: str | None = None,
    closer: Member | None = None,
    setter: Member | None = None,
    payment_plan: str = "",
    instalments: list[tuple[date, int]] | None = None,
    touched: set | None = None,
):
    """A sale. The leads whose sales changed are refreshed, or added to `touched`."""
    _same_workspace(workspace, "lead", lead)
    _same_workspace(workspace, "call", call)
    _same_workspace(workspace, "closer", closer)
    _same_workspace(workspace, "setter", setter)
    origin = origin or (Sale.Origin.CALL if call is not None else Sale.Origin.PAST_CALL)
    if origin not in Sale.Origin.values:
        raise RecordInvalid("origin", f"Unknown origin {origin!r}; use call, past_call or dm.")
    if payment_plan not in ("", *Sale.PaymentPlan.values):
        raise RecordInvalid(
            "payment_plan",
            f"Unknown payment plan {payment_plan!r}; use paid_in_full, split or financed.",
        )
    sale, created, before = _upsert_changes(
        Sale,
        workspace=workspace,
        external_id=external_id,
        values={
            "lead": lead,
            "call": call,
            "origin": origin,
            "closed_at": closed_at,
            "closer": closer,
            "setter": setter,
            "contract_value": contract_value,
            "payment_plan": payment_plan,
        },
    )
    if instalments is not None:
        if not created:
            sale.instalments.all().delete()
        Instalment.objects.bulk_create(
            [Instalment(sale=sale, due_date=due, amount=amount) for due, amount in instalments]
        )
    if "closer_id" in before or "setter_id" in before:
        Payment.objects.filter(sale=sale).update(closer_id=sale.closer_id, setter_id=sale.setter_id)
    if created:
        event_record(workspace=workspace, type="sale.closed", data=sale_shape(sale, workspace))
    _refresh_or_collect(
        {lead.pk, before.get("lead_id")},
        touched,
        lambda ids: leads_sales_refresh(workspace=workspace, lead_ids=ids),
    )
    return sale, created


@in_transaction
def payment_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    sale: Sale,
    paid_at: datetime,
    amount: int,
    status: str = Payment.Status.SUCCEEDED,
    touched: set | None = None,
):
    """A payment. The leads whose cash changed are refreshed, or added to `touched`."""
    _same_workspace(workspace, "sale", sale)
    if status not in Payment.Status.values:
        raise RecordInvalid("status", f"Unknown status {status!r}; use succeeded or failed.")
    payment, created, before = _upsert_changes(
        Payment,
        workspace=workspace,
        external_id=external_id,
        values={
            "sale": sale,
            "paid_at": paid_at,
            "amount": amount,
            "status": status,
            "closer_id": sale.closer_id,
            "setter_id": sale.setter_id,
        },
    )
    if not created:
        # A refund names its payment; its sale follows the payment's.
        Refund.objects.filter(payment=payment).exclude(sale=sale).update(sale=sale)
    if created or "status" in before:
        event_record(
            workspace=workspace,
            type=f"payment.{payment.status}",
            data=payment_shape(payment, workspace),
        )
    previous_lead = None
    if "sale_id" in before:
        # The payment moved from another sale: that sale's lead loses its cash.
        previous_lead = (
            Sale.objects.filter(pk=before["sale_id"]).values_list("lead_id", flat=True).first()
        )
    _refresh_or_collect(
        {sale.lead_id, previous_lead},
        touched,
        lambda ids: leads_sales_refresh(workspace=workspace, lead_ids=ids),
    )
    return payment, created


@in_transaction
def payments_create(*, workspace: Workspace, payments: list[dict], touched: set | None = None):
    """Many new payments at once, each a dict of payment_upsert's values (external_id,
    sale, paid_at, amount, status). Every external id must be new to the workspace (write
    an existing one with payment_upsert). The leads whose cash changed are refreshed once,
    or added to `touched`. Returns the payments made."""
    ids = [values["external_id"] for values in payments]
    for values in payments:
        _same_workspace(workspace, "sale", values["sale"])
        if values.get("status", Payment.Status.SUCCEEDED) not in Payment.Status.values:
            raise RecordInvalid("status", f"Unknown status {values['status']!r}; use succeeded "
                                "or failed.")  # fmt: skip
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new payment needs an external id of its own.")
    if Payment.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "A payment with one of these external ids exists.")
    made = Payment.objects.bulk_create(
        [
            Payment(
                workspace=workspace,
                external_id=values["external_id"],
                sale=values["sale"],
                paid_at=values["paid_at"],
                amount=values["amount"],
                status=values.get("status", Payment.Status.SUCCEEDED),
                closer_id=values["sale"].closer_id,
                setter_id=values["sale"].setter_id,
            )
            for values in payments
        ]
    )
    events_bulk_record(
        workspace=workspace,
        events=[(f"payment.{p.status}", payment_shape(p, workspace)) for p in made],
    )
    _refresh_or_collect(
        {values["sale"].lead_id for values in payments},
        touched,
        lambda lead_ids: leads_sales_refresh(workspace=workspace, lead_ids=lead_ids),
    )
    return made


@in_transaction
def refund_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    payment: Payment,
    at: datetime,
    amount: int,
    kind: str = Refund.Kind.REFUND,
):
    _same_workspace(workspace, "payment", payment)
    if kind not in Refund.Kind.values:
        raise RecordInvalid("kind", f"Unknown kind {kind!r}; use refund or chargeback.")
    if payment.status != Payment.Status.SUCCEEDED:
        raise RecordInvalid("payment", "Only a succeeded payment can be refunded.")
    refunded = sum(
        Refund.objects.filter(payment=payment)
        .exclude(Q(external_id=external_id) & Q(external_id__isnull=False))
        .values_list("amount", flat=True)
    )
    if refunded + amount > payment.amount:
        raise RecordInvalid("amount", "Refunds would exceed the payment's amount.")
    refund, created, before = _upsert_changes(
        Refund,
        workspace=workspace,
        external_id=external_id,
        values={
            "payment": payment,
            "sale_id": payment.sale_id,
            "at": at,
            "amount": amount,
            "kind": kind,
        },
    )
    if created or before:
        event_record(
            workspace=workspace,
            type="payment.refunded",
            data={
                **payment_shape(payment, workspace),
                "refunded": major_from_minor(
                    refunded + amount, exponent=workspace.currency_exponent
                ),
                "refund": refund_shape(refund, workspace),
            },
        )
    return refund, created


@in_transaction
def refunds_create(*, workspace: Workspace, refunds: list[dict]):
    """Many new refunds at once, each a dict of refund_upsert's values (external_id,
    payment, at, amount, kind), with refund_upsert's checks: each payment succeeded, and
    its refunds, the earlier ones of the list counted, within its amount. Every external id
    must be new to the workspace (write an existing one with refund_upsert). Records one
    payment.refunded per refund, as refund_upsert does. Returns the refunds made."""
    ids = [values["external_id"] for values in refunds]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new refund needs an external id of its own.")
    for values in refunds:
        _same_workspace(workspace, "payment", values["payment"])
        if values.get("kind", Refund.Kind.REFUND) not in Refund.Kind.values:
            raise RecordInvalid("kind", f"Unknown kind {values['kind']!r}; use refund or "
                                "chargeback.")  # fmt: skip
        if values["payment"].status != Payment.Status.SUCCEEDED:
            raise RecordInvalid("payment", "Only a succeeded payment can be refunded.")
    if Refund.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "A refund with one of these external ids exists.")
    refunded = dict(
        Refund.objects.filter(payment__in=[values["payment"].pk for values in refunds])
        .order_by()
        .values("payment")
        .annotate(total=models.Sum("amount"))
        .values_list("payment", "total")
    )
    rows, totals = [], []
    for values in refunds:
        payment = values["payment"]
        total = refunded.get(payment.pk, 0) + values["amount"]
        if total > payment.amount:
            raise RecordInvalid("amount", "Refunds would exceed the payment's amount.")
        refunded[payment.pk] = total
        totals.append(total)
        rows.append(
            Refund(
                workspace=workspace,
                external_id=values["external_id"],
                payment=payment,
                sale_id=payment.sale_id,
                at=values["at"],
                amount=values["amount"],
                kind=values.get("kind", Refund.Kind.REFUND),
            )
        )
    made = Refund.objects.bulk_create(rows)
    events_bulk_record(
        workspace=workspace,
        events=[
            (
                "payment.refunded",
                {
                    **payment_shape(refund.payment, workspace),
                    "refunded": major_from_minor(total, exponent=workspace.currency_exponent),
                    "refund": refund_shape(refund, workspace),
                },
            )
            for refund, total in zip(made, totals, strict=True)
        ],
    )
    return made


@in_transaction
def eod_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    member: Member,
    date: date,
    submitted_at: datetime,
    fields: dict | None = None,
):
    _same_workspace(workspace, "member", member)
    same_day = EodReport.objects.filter(member=member, date=date)
    if external_id is None:
        # A report filed in the app: the member's one report of the day, edited when
        # filed again.
        return _eod_of_the_day(
            workspace=workspace,
            report=same_day.first(),
            values={"member": member, "date": date, "submitted_at": submitted_at},
            fields=fields or {},
        )
    clash = same_day.exclude(external_id=external_id).first()
    if clash is not None:
        if clash.external_id is not None:
            raise RecordInvalid(
                "date", f"This member already has report {clash.external_id!r} for {date}."
            )
        # A report filed in the app for that day becomes this record: one per member per day.
        clash.external_id = external_id
        clash.save(update_fields=["external_id"])
    report, created, before = _upsert_changes(
        EodReport,
        workspace=workspace,
        external_id=external_id,
        values={
            "member": member,
            "date": date,
            "submitted_at": submitted_at,
            "fields": fields or {},
        },
    )
    if created or before:
        event_record(workspace=workspace, type="eod.submitted", data=eod_shape(report))
    return report, created


def _eod_of_the_day(*, workspace: Workspace, report: EodReport | None, values: dict, fields):
    created = report is None
    if created:
        report = EodReport.objects.create(workspace=workspace, fields=fields, **values)
    else:
        report.fields = fields
        report.submitted_at = values["submitted_at"]
        report.save(update_fields=["fields", "submitted_at"])
    event_record(workspace=workspace, type="eod.submitted", data=eod_shape(report))
    return report, created


def call_attendance_record(
    *, workspace: Workspace, call: Call, attendance: str, offer_made: bool | None = None
) -> Call:
    """What happened on a call held in the app: its attendance, and whether an offer was
    made (unchanged when None). Its outcome is kept from its outcomes (outcome_upsert)."""
    _same_workspace(workspace, "call", call)
    if attendance not in Call.Attendance.values:
        raise RecordInvalid(
            "attendance", f"Unknown attendance {attendance!r}; use showed or no_show."
        )
    call.attendance = attendance
    if offer_made is not None:
        call.offer_made = offer_made
    call.save(update_fields=["attendance", "offer_made"])
    return call


def webinar_event_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    name: str,
    starts_at: datetime,
    pitch_at: datetime | None = None,
    touched: set | None = None,
):
    """A webinar event. When its start moves, its registrations are refreshed (or the
    event goes to `touched`)."""
    if pitch_at is not None and pitch_at < starts_at:
        raise RecordInvalid("pitch_at", "The pitch cannot come before the event starts.")
    event, created, before = _upsert_changes(
        WebinarEvent,
        workspace=workspace,
        external_id=external_id,
        values={"name": name, "starts_at": starts_at, "pitch_at": pitch_at},
    )
    if "starts_at" in before:
        _refresh_or_collect(
            {event.pk},
            touched,
            lambda ids: registrations_booked_refresh(workspace=workspace, event_ids=ids),
        )
    return event, created


def webinar_pitch_update(*, event: WebinarEvent, pitch_at: datetime | None) -> bool:
    """The pitch time of a webinar event, whoever recorded the event (an import, an
    integration, the demo); True when it changed. The caller audits it."""
    if pitch_at is not None and pitch_at < event.starts_at:
        raise RecordInvalid("pitch_at", "The pitch cannot come before the event starts.")
    if event.pitch_at == pitch_at:
        return False
    event.pitch_at = pitch_at
    event.save(update_fields=["pitch_at"])
    return True


def registration_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    event: WebinarEvent,
    lead: Lead,
    registered_at: datetime,
    joined_at: datetime | None = None,
    left_at: datetime | None = None,
    touched: set | None = None,
):
    """A registration; its booked_after is refreshed (or its lead goes to `touched`)."""
    _registration_check(workspace, event=event, lead=lead, joined_at=joined_at, left_at=left_at)
    registration, created = _upsert(
        Registration,
        workspace=workspace,
        external_id=external_id,
        values={
            "event": event,
            "lead": lead,
            "registered_at": registered_at,
            "joined_at": joined_at,
            "left_at": left_at,
        },
    )
    _refresh_or_collect(
        {lead.pk},
        touched,
        lambda ids: registrations_booked_refresh(workspace=workspace, lead_ids=ids),
    )
    return registration, created


def _registration_check(workspace: Workspace, *, event, lead, joined_at, left_at) -> None:
    _same_workspace(workspace, "event", event)
    _same_workspace(workspace, "lead", lead)
    if left_at is not None and joined_at is None:
        raise RecordInvalid("joined_at", "A registrant who left must have joined.")
    if left_at is not None and left_at < joined_at:
        raise RecordInvalid("left_at", "left_at cannot come before joined_at.")


_REGISTRATION_FIELDS = ("event", "lead", "registered_at", "joined_at", "left_at")


def registrations_write(
    *, workspace: Workspace, registrations: list[dict], touched: set | None = None
) -> tuple[int, int]:
    """Many registrations at once, each a dict of registration_upsert's values
    (external_id, event, lead, registered_at, joined_at, left_at): one whose external id is
    new to the workspace is made, an existing one updated where it differs, in one insert
    and one update. The booked_after of their leads' registrations is refreshed once (or
    the leads go to `touched`). Returns how many were made and how many changed."""
    ids = [values["external_id"] for values in registrations]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each registration needs an external id of its own.")
    for values in registrations:
        _registration_check(
            workspace,
            event=values["event"],
            lead=values["lead"],
            joined_at=values.get("joined_at"),
            left_at=values.get("left_at"),
        )
    existing = {
        row.external_id: row
        for row in Registration.objects.filter(workspace=workspace, external_id__in=ids)
    }
    made, changed, fields = [], [], set()
    for values in registrations:
        row = existing.get(values["external_id"])
        if row is None:
            made.append(
                Registration(
                    workspace=workspace,
                    external_id=values["external_id"],
                    **{name: values.get(name) for name in _REGISTRATION_FIELDS},
                )
            )
            continue
        differs = _registration_differs(row, values)
        if differs:
            changed.append(row)
            fields |= differs
    Registration.objects.bulk_create(made)
    if changed:
        Registration.objects.bulk_update(changed, fields=sorted(fields))
    _refresh_or_collect(
        {values["lead"].pk for values in registrations},
        touched,
        lambda lead_ids: registrations_booked_refresh(workspace=workspace, lead_ids=lead_ids),
    )
    return len(made), len(changed)


def _registration_differs(row: Registration, values: dict) -> set[str]:
    """Set the values on the row; the names of the fields that changed."""
    differs = set()
    for name in _REGISTRATION_FIELDS:
        value = values.get(name)
        if name in ("event", "lead"):
            if getattr(row, f"{name}_id") != value.pk:
                setattr(row, name, value)
                differs.add(name)
        elif getattr(row, name) != value:
            setattr(row, name, value)
            differs.add(name)
    return differs


def funnel_stage_get_or_create(*, workspace: Workspace, funnel_key: str, stage_key: str):
    """The funnel and stage, made on first sight; a new stage goes after the last one."""
    if not _KEY.match(funnel_key or ""):
        raise RecordInvalid("funnel", "A funnel key is 1 to 64 letters, digits, '-' or '_'.")
    if not _KEY.match(stage_key or ""):
        raise RecordInvalid("stage", "A stage key is 1 to 64 letters, digits, '-' or '_'.")
    funnel, _ = Funnel.objects.get_or_create(
        workspace=workspace, key=funnel_key, defaults={"name": funnel_key}
    )
    stage = FunnelStage.objects.filter(funnel=funnel, key=stage_key).first()
    if stage is None:
        last = funnel.stages.aggregate(last=Max("position"))["last"]
        stage = FunnelStage.objects.create(
            funnel=funnel, key=stage_key, position=0 if last is None else last + 1
        )
    return funnel, stage


def funnel_event_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    funnel_key: str,
    stage_key: str,
    at: datetime,
    touched: set | None = None,
):
    """A funnel event. The (funnel, lead) pairs whose progress changed are refreshed,
    or added to `touched`."""
    _same_workspace(workspace, "lead", lead)
    funnel, stage = funnel_stage_get_or_create(
        workspace=workspace, funnel_key=funnel_key, stage_key=stage_key
    )
    event, created, before = _upsert_changes(
        FunnelEvent,
        workspace=workspace,
        external_id=external_id,
        values={"lead": lead, "funnel": funnel, "stage": stage, "at": at},
    )
    # The (funnel, lead) pair the event counted for before, when it moved.
    previous = (before.get("funnel_id", funnel.pk), before.get("lead_id", lead.pk))
    _refresh_or_collect(
        {(funnel.pk, lead.pk), previous},
        touched,
        lambda pairs: funnels_progress_touch(workspace=workspace, pairs=pairs),
    )
    return event, created


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
    _same_workspace(workspace, "member", member)
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
    return _upsert(
        CommissionRule,
        workspace=workspace,
        external_id=external_id,
        values={"member": member, "basis": basis, "slot": slot, "rate": rate},
    )


# --- Many new records at once ------------------------------------------------------------

# The order in which records that name each other are inserted.
BULK_ORDER = (
    Lead,
    Touch,
    WebinarEvent,
    Registration,
    Call,
    Outcome,
    Sale,
    Instalment,
    Payment,
    Refund,
    EodReport,
    Funnel,
    FunnelStage,
    FunnelEvent,
    CommissionRule,
)


_BULK_PARENTS = {Instalment: "sale", FunnelStage: "funnel"}


def records_bulk_create(*, workspace: Workspace, rows: dict[type, list]) -> dict[str, int]:
    """Insert many new records of one workspace at once (a seeded workspace), each checked
    by its model's field rules, then refresh every kept value of the workspace once.

    Returns the count written per record type. Every row must belong to the workspace.
    """
    unknown = set(rows) - set(BULK_ORDER)
    if unknown:
        raise ValueError(f"No bulk writer for {sorted(m.__name__ for m in unknown)}")
    counts = {}
    leads = rows.get(Lead, [])
    tags_ids = utm_tags_ids(workspace=workspace, combinations={utm_tags_of(v) for v in leads})
    for lead in leads:
        lead.utm_tags_id = tags_ids[utm_tags_of(lead)]
    for model in BULK_ORDER:
        batch = rows.get(model, [])
        for row in batch:
            # An instalment belongs to its sale, a stage to its funnel.
            parent = _BULK_PARENTS.get(model)
            owner = getattr(row, parent) if parent else row
            if owner.workspace_id != workspace.pk:
                raise RecordInvalid("workspace", "That record belongs to another workspace.")
            row.clean_fields(exclude=[f.name for f in model._meta.fields if f.is_relation])
        model.objects.bulk_create(batch, batch_size=500)
        counts[model.__name__] = len(batch)
    workspace_invariants_refresh(workspace=workspace)
    return counts


@in_transaction
def call_rescheduled_from_set(*, call: Call, replaces: Call | None) -> bool:
    """Point the call at the call it replaces (None: it replaces nothing). The caller
    refreshes the kept `replaced` values (calls_replaced_refresh), once for a batch."""
    if replaces is not None and replaces.workspace_id != call.workspace_id:
        raise RecordInvalid("rescheduled_from", "That record belongs to another workspace.")
    target_id = replaces.pk if replaces is not None else None
    if replaces is not None and replaces.pk == call.pk:
        raise RecordInvalid("rescheduled_from", "A call cannot replace itself.")
    if call.rescheduled_from_id == target_id:
        return False
    Call.objects.filter(pk=call.pk).update(rescheduled_from=target_id)
    call.rescheduled_from_id = target_id
    if target_id is not None:
        event_record(workspace=call.workspace, type="call.rescheduled", data=call_shape(call))
    return True


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
