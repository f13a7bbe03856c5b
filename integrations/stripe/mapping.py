"""Stripe events to records: a charge is a payment, a refund or a lost dispute a refund.

Every record is written through the workspace's writers, keyed on Stripe's own ids (the
charge's ch_…, the refund's re_…, the dispute's dp_…), so a webhook and the backfill, or
a delivery and its retry, make the same record once.

Deliveries come in any order. Each event carries a snapshot of its object: a snapshot
older than one already applied for the same object is not applied again, a refund before
its charge waits for it, and a charge whose first event is held makes the later events
of the same charge wait for it, so the records end the same whatever the order.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime

from django.db import models
from django.db.models import F

from core.ids import parse_uuid
from core.money import minor_rescale, money_text
from core.times import from_epoch
from workspaces.models import Lead, Payment, Refund, Sale
from workspaces.services import (
    RecordInvalid,
    payment_upsert,
    payments_create,
    refund_upsert,
    refunds_create,
)

from ..base import Applied, EventSummary, Held, Ignored
from ..models import Event

# Stripe's currencies without decimals, and those with three (stripe.com/docs/currencies).
# Every other currency is given in hundredths, ISK included (whose hundredths are always 00).
ZERO_DECIMAL = frozenset(
    [
        "BIF",
        "CLP",
        "DJF",
        "GNF",
        "JPY",
        "KMF",
        "KRW",
        "MGA",
        "PYG",
        "RWF",
        "UGX",
        "VND",
        "VUV",
        "XAF",
        "XOF",
        "XPF",
    ]
)
THREE_DECIMAL = frozenset(["BHD", "JOD", "KWD", "OMR", "TND"])


class EventType(models.TextChoices):
    """The Stripe events the service maps."""

    CHARGE_SUCCEEDED = "charge.succeeded"
    CHARGE_FAILED = "charge.failed"
    CHARGE_REFUNDED = "charge.refunded"
    REFUND_CREATED = "refund.created"
    REFUND_UPDATED = "refund.updated"
    CHARGE_REFUND_UPDATED = "charge.refund.updated"
    DISPUTE_CLOSED = "charge.dispute.closed"


CHARGE_TYPES = (EventType.CHARGE_SUCCEEDED, EventType.CHARGE_FAILED, EventType.CHARGE_REFUNDED)
REFUND_TYPES = (EventType.REFUND_CREATED, EventType.REFUND_UPDATED, EventType.CHARGE_REFUND_UPDATED)
DISPUTE_CLOSED = EventType.DISPUTE_CLOSED


def stripe_exponent(currency: str) -> int:
    currency = currency.upper()
    if currency in ZERO_DECIMAL:
        return 0
    if currency in THREE_DECIMAL:
        return 3
    return 2


def to_minor(amount: int, *, currency: str, workspace) -> int:
    """Stripe's amount (its smallest unit of the currency) in the workspace's minor units."""
    return minor_rescale(
        amount, from_exponent=stripe_exponent(currency), to_exponent=workspace.currency_exponent
    )


def _moment(value) -> datetime:
    """A Stripe time (epoch seconds); a time outside the calendar holds the event."""
    moment = from_epoch(value)
    if moment is None:
        raise RecordInvalid("created", f"The time {value!r} is not a moment this service can hold.")
    return moment


def _object(event: Event) -> dict:
    data = event.payload.get("data") if isinstance(event.payload, dict) else None
    obj = data.get("object") if isinstance(data, dict) else None
    return obj if isinstance(obj, dict) else {}


def _sent(event: Event) -> int:
    created = event.payload.get("created")
    return created if isinstance(created, int) else 0


def _others(event: Event, object_id: str) -> list[tuple[str, str, object]]:
    """(state, hold code, sent) of the connection's other events about the same object."""
    if not object_id:
        return []
    return list(
        Event.objects.filter(connection_id=event.connection_id, object_id=object_id)
        .exclude(pk=event.pk)
        .values_list("state", "hold_code", "payload__created")
    )


def _newer_applied(others, sent: int) -> bool:
    """Whether an event about the same object, sent later than `sent`, is already applied."""
    return any(
        state in (Event.State.APPLIED, Event.State.IGNORED) and isinstance(at, int) and at > sent
        for state, _code, at in others
    )


def _held_placement(others) -> bool:
    """Whether another event about the same charge is held until someone places it."""
    return any(
        state == Event.State.HELD and code in Event.PLACEMENT_CODES for state, code, _at in others
    )


def _charge_email(charge: dict) -> str:
    customer = charge.get("customer")
    for email in (
        (charge.get("billing_details") or {}).get("email"),
        charge.get("receipt_email"),
        customer.get("email") if isinstance(customer, dict) else None,
    ):
        if isinstance(email, str) and email.strip():
            return email.strip()
    return ""


def _sale_named(workspace, reference: str) -> Sale | None:
    """A sale by the id the API shows (its UUID) or by its own external id."""
    sales = Sale.objects.filter(workspace=workspace)
    pk = parse_uuid(reference)
    by_pk = sales.filter(pk=pk).first() if pk is not None else None
    return by_pk or sales.filter(external_id=reference).first()


def _place(event: Event, charge: dict, workspace) -> Sale | Held:
    charge_id = charge["id"]
    if event.assigned_sale_id:
        return Sale.objects.get(pk=event.assigned_sale_id, workspace=workspace)
    paid = Payment.objects.filter(workspace=workspace, external_id=charge_id).first()
    if paid is not None:
        return paid.sale
    reference = (charge.get("metadata") or {}).get("sale_id")
    if isinstance(reference, str) and reference.strip():
        sale = _sale_named(workspace, reference.strip())
        if sale is None:
            return Held(
                Event.HoldCode.NO_SALE,
                f"The charge's metadata names sale {reference!r}, which this "
                "workspace does not have.",
            )
        return sale
    email = _charge_email(charge)
    if not email:
        return Held(
            Event.HoldCode.NO_LEAD,
            "The charge carries no email (billing details, receipt or "
            "customer) to find its lead by.",
        )
    leads = Lead.objects.filter(workspace=workspace, email__iexact=email)
    sale = (
        Sale.objects.filter(workspace=workspace, lead__in=leads)
        .filter(cash_collected__lt=F("contract_value"))
        .order_by("-closed_at", "-pk")
        .first()
    )
    if sale is None:
        return _unplaced(email, lead_known=leads.exists())
    return sale


def _unplaced(email: str, *, lead_known: bool) -> Held:
    if not lead_known:
        return Held(Event.HoldCode.NO_LEAD, f"No lead has the charge's email {email}.")
    return Held(
        Event.HoldCode.NO_SALE,
        f"The lead with the email {email} has no sale with an unpaid balance.",
    )


def _charge(event: Event, charge: dict, workspace, others) -> Applied | Held | Ignored:
    charge_id = charge.get("id")
    if not isinstance(charge_id, str) or not charge_id:
        return Ignored("The event carries no charge id.")
    currency = str(charge.get("currency") or "").upper()
    if currency != workspace.currency:
        return Held(
            Event.HoldCode.CURRENCY,
            f"The charge is in {currency or 'no currency'}; the workspace "
            f"counts in {workspace.currency}.",
        )
    if not event.assigned_sale_id and _held_placement(others):
        return Held(
            Event.HoldCode.WAITING,
            f"Another event of charge {charge_id} is held until it is placed on a sale.",
            waits_for=charge_id,
        )
    placed = _place(event, charge, workspace)
    if isinstance(placed, Held):
        return placed
    status = Payment.Status.FAILED if charge.get("status") == "failed" else Payment.Status.SUCCEEDED
    payment, _created = payment_upsert(
        workspace=workspace,
        external_id=charge_id,
        sale=placed,
        paid_at=_moment(charge["created"]),
        amount=to_minor(charge.get("amount") or 0, currency=currency, workspace=workspace),
        status=status,
    )
    records = [charge_id]
    refunds = (charge.get("refunds") or {}).get("data") or []
    for refund in refunds:
        if not isinstance(refund, dict) or not refund.get("id"):
            continue
        if _newer_applied(_others(event, refund["id"]), _sent(event)):
            continue
        if _refund_write(refund, payment, workspace):
            records.append(refund["id"])
    return Applied(records=tuple(records))


def _refund_write(refund: dict, payment: Payment, workspace) -> bool:
    """Write one refund on its payment; False when there is nothing to write."""
    made = refund.get("status") not in ("failed", "canceled")
    exists = Refund.objects.filter(workspace=workspace, external_id=refund["id"]).exists()
    if not made and not exists:
        return False
    amount = refund.get("amount") or 0
    refund_upsert(
        workspace=workspace,
        external_id=refund["id"],
        payment=payment,
        at=_moment(refund["created"]),
        # A refund that failed or was cancelled after it was recorded keeps its row, at 0.
        amount=to_minor(
            amount, currency=refund.get("currency") or workspace.currency, workspace=workspace
        )
        if made
        else 0,
    )
    return True


def _charge_id(obj: dict):
    """The id of the charge a refund or dispute names (the charge may come expanded)."""
    charge = obj.get("charge")
    return charge.get("id") if isinstance(charge, dict) else charge


def _charge_payment(workspace, charge_id: str, *, named_by: str) -> Payment | Held:
    """The payment of the charge, or the event held until that charge is placed."""
    payment = Payment.objects.filter(workspace=workspace, external_id=charge_id).first()
    if payment is None:
        return Held(
            Event.HoldCode.WAITING,
            f"The {named_by}'s charge {charge_id} has not arrived or is not placed yet.",
            waits_for=charge_id,
        )
    return payment


def _refund(event: Event, refund: dict, workspace) -> Applied | Held | Ignored:
    refund_id, charge_id = refund.get("id"), _charge_id(refund)
    if not refund_id or not isinstance(charge_id, str):
        return Ignored("The refund names no charge.")
    payment = _charge_payment(workspace, charge_id, named_by="refund")
    if isinstance(payment, Held):
        return payment
    if not _refund_write(refund, payment, workspace):
        return Ignored(f"Refund {refund_id} failed or was cancelled before it was recorded.")
    return Applied(records=(refund_id,))


def _dispute(event: Event, dispute: dict, workspace) -> Applied | Held | Ignored:
    dispute_id, charge_id = dispute.get("id"), _charge_id(dispute)
    if dispute.get("status") != "lost":
        return Ignored(f"The dispute closed as {dispute.get('status')}: no money was lost.")
    if not dispute_id or not isinstance(charge_id, str):
        return Ignored("The dispute names no charge.")
    payment = _charge_payment(workspace, charge_id, named_by="dispute")
    if isinstance(payment, Held):
        return payment
    refund_upsert(
        workspace=workspace,
        external_id=dispute_id,
        payment=payment,
        # Lost when the dispute closed: the event's own time.
        at=_moment(_sent(event) or dispute.get("created") or 0),
        amount=to_minor(
            dispute.get("amount") or 0,
            currency=dispute.get("currency") or workspace.currency,
            workspace=workspace,
        ),
        kind=Refund.Kind.CHARGEBACK,
    )
    return Applied(records=(dispute_id,))


def event_map(*, event: Event, connection) -> Applied | Held | Ignored:
    obj = _object(event)
    workspace = connection.workspace
    object_id = str(obj.get("id") or "")
    if event.event_type not in (*CHARGE_TYPES, *REFUND_TYPES, DISPUTE_CLOSED):
        return Ignored(f"Stripe's {event.event_type} feeds no record.")
    others = _others(event, object_id)
    if _newer_applied(others, _sent(event)):
        return Ignored(f"A later event about {object_id} was applied first.")
    if event.event_type in CHARGE_TYPES:
        return _charge(event, obj, workspace, others)
    if event.event_type in REFUND_TYPES:
        return _refund(event, obj, workspace)
    return _dispute(event, obj, workspace)


# --- The worker's fast path --------------------------------------------------------------
#
# Most of a busy account's events are new charges, and the refunds and lost disputes of
# charges already placed: each names an object no other stored event names, so it can be
# written with the batch's others in a few set-based statements. A charge is placed as
# _place places it: on the sale its metadata names, or on the most recent sale, among those
# of the leads with the charge's email, whose balance is still unpaid, counting the
# succeeded charges placed before it in the batch. A refund or a lost dispute is written on
# its charge's payment as _refund and _dispute write it; the refunds of a charge that
# another event of the batch is applied one by one about (the charge itself, or a refund
# the fast path leaves) are all left to the one-by-one path, so their order is kept.

FAST_TYPES = (EventType.CHARGE_SUCCEEDED, EventType.CHARGE_FAILED)
FAST_REFUND_TYPES = (*REFUND_TYPES, DISPUTE_CLOSED)


def _epoch(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and from_epoch(value) is not None


def _reference(charge: dict) -> str:
    reference = (charge.get("metadata") or {}).get("sale_id")
    return reference.strip() if isinstance(reference, str) else ""


def _fast_charge(event: Event, workspace) -> dict | None:
    """The event's charge when the fast path can apply it on its own, else None."""
    charge = _object(event)
    if event.event_type not in FAST_TYPES or event.assigned_sale_id:
        return None
    if not charge.get("id") or charge["id"] != event.object_id:
        return None
    if str(charge.get("currency") or "").upper() != workspace.currency:
        return None
    reference = (charge.get("metadata") or {}).get("sale_id")
    if reference and not isinstance(reference, str):
        return None
    if (charge.get("refunds") or {}).get("data") or not _epoch(charge.get("created")):
        return None
    if _reference(charge):
        return charge
    # Upper-cased the same way in Python and in the database.
    email = _charge_email(charge)
    return charge if email and email.isascii() else None


def _fast_refund(event: Event) -> dict | None:
    """The event's refund or dispute when the fast path can apply it, else None."""
    obj = _object(event)
    if event.event_type not in FAST_REFUND_TYPES:
        return None
    if not obj.get("id") or obj["id"] != event.object_id or not isinstance(_charge_id(obj), str):
        return None
    if event.event_type == DISPUTE_CLOSED:
        if obj.get("status") != "lost":
            return obj
        when = _sent(event) or obj.get("created") or 0
    else:
        if obj.get("status") in ("failed", "canceled"):
            return None
        when = obj.get("created")
    amount = obj.get("amount") or 0
    if not _epoch(when) or not isinstance(amount, int) or isinstance(amount, bool):
        return None
    return obj


def _fast_objects(events: list, connection) -> dict[int, dict]:
    """The batch's charges, refunds and disputes the fast path may apply: by event pk, each
    named by one event of the batch, by no other stored event, and not yet written."""
    workspace = connection.workspace
    found = {}
    for event in events:
        obj = _fast_charge(event, workspace) or _fast_refund(event)
        if obj is not None:
            found[event.pk] = obj
    # A charge a refund or dispute of the batch names is applied in the batch's order.
    named = Counter(event.object_id for event in events)
    named.update(_charge_id(_object(e)) for e in events if e.event_type in FAST_REFUND_TYPES)
    ids = [obj["id"] for obj in found.values() if named[obj["id"]] == 1]
    if not ids:
        return {}
    taken = set(
        Event.objects.filter(connection_id=connection.pk, object_id__in=ids)
        .exclude(pk__in=[event.pk for event in events])
        .values_list("object_id", flat=True)
    )
    kinds = {event.pk: event.event_type in FAST_TYPES for event in events}
    charge_ids = [obj["id"] for pk, obj in found.items() if kinds[pk]]
    refund_ids = [obj["id"] for pk, obj in found.items() if not kinds[pk]]
    taken |= set(
        Payment.objects.filter(workspace=workspace, external_id__in=charge_ids).values_list(
            "external_id", flat=True
        )
    )
    taken |= set(
        Refund.objects.filter(workspace=workspace, external_id__in=refund_ids).values_list(
            "external_id", flat=True
        )
    )
    return {
        pk: obj for pk, obj in found.items() if named[obj["id"]] == 1 and obj["id"] not in taken
    }


def _unpaid_sales(workspace, emails: set[str]) -> tuple[dict[str, list[Sale]], set[str]]:
    """By upper-cased email: the sales with an unpaid balance of the leads with that email,
    most recent first; and the emails some lead has."""
    leads = dict(Lead.objects.with_emails(workspace, emails).values_list("pk", "email_upper"))
    sales: dict[str, list[Sale]] = {}
    unpaid = (
        Sale.objects.filter(workspace=workspace, lead_id__in=list(leads))
        .filter(cash_collected__lt=F("contract_value"))
        .order_by("-closed_at", "-pk")
    )
    for sale in unpaid:
        sales.setdefault(leads[sale.lead_id], []).append(sale)
    return sales, set(leads.values())


def _sales_named(workspace, references: set[str]) -> dict[str, Sale]:
    """By reference: the sale it names, as _sale_named finds it (its id, else its own
    external id)."""
    by_pk: dict[uuid.UUID, list[str]] = {}
    for reference in references:
        pk = parse_uuid(reference)
        if pk is not None:
            by_pk.setdefault(pk, []).append(reference)
    named = {}
    if by_pk:
        for sale in Sale.objects.filter(workspace=workspace, pk__in=list(by_pk)):
            for reference in by_pk[sale.pk]:
                named[reference] = sale
    rest = sorted(references - set(named))
    if rest:
        for sale in Sale.objects.filter(workspace=workspace, external_id__in=rest):
            named[sale.external_id] = sale
    return named


def _charges_map_many(events: list, charges: dict[int, dict], workspace) -> dict:
    """The new charges: placed and written with payments_create."""
    emails = {_charge_email(c).upper() for c in charges.values() if not _reference(c)}
    sales, known = _unpaid_sales(workspace, emails) if emails else ({}, set())
    named = _sales_named(workspace, {_reference(c) for c in charges.values()} - {""})
    pending: Counter = Counter()
    outcomes, payments = {}, []
    for event in events:
        charge = charges.get(event.pk)
        if charge is None:
            continue
        amount = to_minor(
            charge.get("amount") or 0, currency=workspace.currency, workspace=workspace
        )
        reference = _reference(charge)
        if reference:
            sale = named.get(reference)
            if sale is None:
                outcomes[event.pk] = Held(
                    Event.HoldCode.NO_SALE,
                    f"The charge's metadata names sale "
                    f"{reference!r}, which this workspace does not have.",
                )
                continue
        else:
            email = _charge_email(charge)
            sale = next(
                (
                    s
                    for s in sales.get(email.upper(), [])
                    if s.cash_collected + pending[s.pk] < s.contract_value
                ),
                None,
            )
            if sale is None:
                outcomes[event.pk] = _unplaced(email, lead_known=email.upper() in known)
                continue
        failed = charge.get("status") == "failed"
        payments.append(
            {
                "external_id": charge["id"],
                "sale": sale,
                "paid_at": _moment(charge["created"]),
                "amount": amount,
                "status": Payment.Status.FAILED if failed else Payment.Status.SUCCEEDED,
            }
        )
        if not failed:
            # A later charge of the batch sees the cash this one adds.
            pending[sale.pk] += amount
        outcomes[event.pk] = Applied(records=(charge["id"],))
    if payments:
        payments_create(workspace=workspace, payments=payments)
    return outcomes


def _refunds_map_many(events: list, objs: dict[int, dict], workspace) -> dict:
    """The refunds and lost disputes of placed charges, written with refunds_create; a
    charge whose refunds are not all here (or would not all fit) is left one by one."""
    charge_of = {pk: _charge_id(obj) for pk, obj in objs.items()}
    # The charges another event of the batch is about, or names and is left one by one:
    # their refunds keep their order on the one-by-one path.
    busy = {event.object_id for event in events if event.pk not in objs}
    busy |= {
        _charge_id(_object(e))
        for e in events
        if e.pk not in objs and e.event_type in FAST_REFUND_TYPES
    }
    payments = {
        payment.external_id: payment
        for payment in Payment.objects.filter(
            workspace=workspace, external_id__in=set(charge_of.values()) - busy
        )
    }
    refunded = dict(
        Refund.objects.filter(payment__in=list(payments.values()))
        .order_by()
        .values("payment")
        .annotate(total=models.Sum("amount"))
        .values_list("payment", "total")
    )
    planned, refused = [], set()
    for event in events:
        obj = objs.get(event.pk)
        if obj is None:
            continue
        if event.event_type == DISPUTE_CLOSED and obj.get("status") != "lost":
            planned.append((event, obj, None, 0))
            continue
        payment = payments.get(charge_of[event.pk])
        if payment is None or payment.status != Payment.Status.SUCCEEDED:
            refused.add(charge_of[event.pk])
            continue
        amount = to_minor(
            obj.get("amount") or 0,
            currency=obj.get("currency") or workspace.currency,
            workspace=workspace,
        )
        refunded[payment.pk] = refunded.get(payment.pk, 0) + amount
        if refunded[payment.pk] > payment.amount:
            refused.add(charge_of[event.pk])
        planned.append((event, obj, payment, amount))
    outcomes, rows = {}, []
    for event, obj, payment, amount in planned:
        if payment is None:
            outcomes[event.pk] = Ignored(
                f"The dispute closed as {obj.get('status')}: no money was lost."
            )
            continue
        if charge_of[event.pk] in refused:
            continue
        dispute = event.event_type == DISPUTE_CLOSED
        rows.append(
            {
                "external_id": obj["id"],
                "payment": payment,
                "at": _moment(_sent(event) or obj.get("created") or 0)
                if dispute
                else _moment(obj["created"]),
                "amount": amount,
                "kind": Refund.Kind.CHARGEBACK if dispute else Refund.Kind.REFUND,
            }
        )
        outcomes[event.pk] = Applied(records=(obj["id"],))
    if rows:
        refunds_create(workspace=workspace, refunds=rows)
    return outcomes


def events_map_many(*, events: list, connection) -> dict:
    """The fast path (see integrations.base.Provider): new charges placed by their email or
    their metadata's sale, written with payments_create; refunds and lost disputes of placed
    charges, written with refunds_create. Returns their outcomes by event pk."""
    workspace = connection.workspace
    objs = _fast_objects(events, connection)
    if not objs:
        return {}
    charges = {e.pk: objs[e.pk] for e in events if e.pk in objs and e.event_type in FAST_TYPES}
    outcomes = _charges_map_many(events, charges, workspace) if charges else {}
    rest = {pk: obj for pk, obj in objs.items() if pk not in charges}
    if rest:
        outcomes.update(_refunds_map_many(events, rest, workspace))
    return outcomes


def _summary_text(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def event_summary(event: Event) -> EventSummary:
    """The amount and email of a Stripe charge (or refund) event's object; empty for
    another provider's event, or one that has neither."""
    payload = event.payload
    data = payload.get("data") if isinstance(payload, dict) else None
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        return EventSummary()
    amount = ""
    value, currency = obj.get("amount"), obj.get("currency")
    if isinstance(value, int) and not isinstance(value, bool) and _summary_text(currency):
        # Stripe gives amounts in its own smallest unit of the currency.
        amount = money_text(value, currency, exponent=stripe_exponent(currency))
    # Where the mapping looks for the lead: billing details, receipt, then the customer.
    billing, customer = obj.get("billing_details"), obj.get("customer")
    email = (
        _summary_text(billing.get("email") if isinstance(billing, dict) else None)
        or _summary_text(obj.get("receipt_email"))
        or _summary_text(customer.get("email") if isinstance(customer, dict) else None)
    )
    return EventSummary(
        amount=amount, email=email, description=_summary_text(obj.get("description"))
    )
