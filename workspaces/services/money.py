"""Writers of sales, their payments and refunds."""

from __future__ import annotations

from datetime import date, datetime

from django.db import models
from django.db.models import Q

from core.money import major_from_minor
from core.transactions import in_transaction
from events.services import event_record, events_bulk_record

from ..kept import (
    leads_sales_refresh,
)
from ..models import (
    Call,
    Instalment,
    Lead,
    Member,
    Payment,
    Refund,
    Sale,
    Workspace,
)
from ..shapes import (
    payment_shape,
    refund_shape,
    sale_shape,
)
from .base import RecordInvalid, refresh_or_collect, same_workspace, upsert_changes


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
    same_workspace(workspace, "lead", lead)
    same_workspace(workspace, "call", call)
    same_workspace(workspace, "closer", closer)
    same_workspace(workspace, "setter", setter)
    origin = origin or (Sale.Origin.CALL if call is not None else Sale.Origin.PAST_CALL)
    if origin not in Sale.Origin.values:
        raise RecordInvalid("origin", f"Unknown origin {origin!r}; use call, past_call or dm.")
    if payment_plan not in ("", *Sale.PaymentPlan.values):
        raise RecordInvalid(
            "payment_plan",
            f"Unknown payment plan {payment_plan!r}; use paid_in_full, split or financed.",
        )
    sale, created, before = upsert_changes(
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
    refresh_or_collect(
        {lead.pk, before.get("lead_id")},
        touched,
        lambda ids: leads_sales_refresh(workspace=workspace, lead_ids=ids),
    )
    return sale, created


@in_transaction
def sales_create(*, workspace: Workspace, sales: list[dict], touched: set | None = None):
    """Many new sales at once, each a dict of sale_upsert's values (external_id, lead,
    closed_at, contract_value, call, origin, closer, setter, payment_plan, instalments),
    with sale_upsert's checks and its sale.closed event for each: one insert of the sales,
    one of their instalments. Every external id must be new to the workspace (write an
    existing one with sale_upsert). The leads whose sales changed are refreshed once, or
    added to `touched`. Returns the sales made."""
    ids = [values["external_id"] for values in sales]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new sale needs an external id of its own.")
    rows, instalments = [], []
    for values in sales:
        for name in ("lead", "call", "closer", "setter"):
            same_workspace(workspace, name, values.get(name))
        origin = values.get("origin") or (
            Sale.Origin.CALL if values.get("call") is not None else Sale.Origin.PAST_CALL
        )
        if origin not in Sale.Origin.values:
            raise RecordInvalid("origin", f"Unknown origin {origin!r}; use call, past_call or dm.")
        payment_plan = values.get("payment_plan", "")
        if payment_plan not in ("", *Sale.PaymentPlan.values):
            raise RecordInvalid(
                "payment_plan",
                f"Unknown payment plan {payment_plan!r}; use paid_in_full, split or financed.",
            )
        sale = Sale(
            workspace=workspace,
            external_id=values["external_id"],
            lead=values["lead"],
            call=values.get("call"),
            origin=origin,
            closed_at=values["closed_at"],
            closer=values.get("closer"),
            setter=values.get("setter"),
            contract_value=values["contract_value"],
            payment_plan=payment_plan,
        )
        rows.append(sale)
        instalments += [
            Instalment(sale=sale, due_date=due, amount=amount)
            for due, amount in values.get("instalments") or ()
        ]
    if Sale.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "A sale with one of these external ids exists.")
    made = Sale.objects.bulk_create(rows)
    Instalment.objects.bulk_create(instalments)
    events_bulk_record(
        workspace=workspace,
        events=[("sale.closed", sale_shape(sale, workspace)) for sale in made],
    )
    refresh_or_collect(
        {sale.lead_id for sale in made},
        touched,
        lambda lead_ids: leads_sales_refresh(workspace=workspace, lead_ids=lead_ids),
    )
    return made


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
    same_workspace(workspace, "sale", sale)
    if status not in Payment.Status.values:
        raise RecordInvalid("status", f"Unknown status {status!r}; use succeeded or failed.")
    payment, created, before = upsert_changes(
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
    refresh_or_collect(
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
        same_workspace(workspace, "sale", values["sale"])
        if values.get("status", Payment.Status.SUCCEEDED) not in Payment.Status.values:
            raise RecordInvalid(
                "status", f"Unknown status {values['status']!r}; use succeeded or failed."
            )
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
    refresh_or_collect(
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
    same_workspace(workspace, "payment", payment)
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
    refund, created, before = upsert_changes(
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
        same_workspace(workspace, "payment", values["payment"])
        if values.get("kind", Refund.Kind.REFUND) not in Refund.Kind.values:
            raise RecordInvalid(
                "kind", f"Unknown kind {values['kind']!r}; use refund or chargeback."
            )
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
