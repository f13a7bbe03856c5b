"""Writers of sales records, and the import of a JSON Lines file of them.

Every writer is keyed on the record's own (external) id within its workspace, so
writing the same record again updates it. The writers keep the invariants the
figures rely on:

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

import json
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from django.db import IntegrityError, connection, models, transaction
from django.db.models import Exists, F, Max, Min, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from audit.services import Actor, audit_record

from .models import (
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelProgress,
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

IMPORT_ACTOR = Actor(kind="command", id="import_records", label="manage.py import_records")


class RecordInvalid(Exception):
    """A record that cannot be written; ``field`` names the member at fault."""

    def __init__(self, field: str | None, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class ImportLineError(Exception):
    """A line of an import file that cannot be used; nothing of the file is written."""

    def __init__(self, line: int, field: str | None, message: str):
        self.line = line
        self.field = field
        self.message = message
        where = f"line {line}, field '{field}'" if field else f"line {line}"
        super().__init__(f"{where}: {message}")


# --- values --------------------------------------------------------------------------

_DECIMAL = re.compile(r"^\d+(\.\d+)?$")
_KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def money_to_minor(value, *, exponent: int, currency: str, field: str) -> int:
    """Major units (a decimal string or a number) as integer minor units.

    Refuses negative amounts and more decimals than the currency has.
    """
    if isinstance(value, bool) or value is None:
        raise RecordInvalid(field, f"Give an amount in {currency}, as a decimal string or number.")
    if isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, Decimal | float):
        amount = Decimal(str(value))
    elif isinstance(value, str) and _DECIMAL.match(value.strip()):
        amount = Decimal(value.strip())
    else:
        raise RecordInvalid(
            field, f'{value!r} is not an amount: give a decimal string such as "1234.50".'
        )
    if not amount.is_finite() or amount < 0:
        raise RecordInvalid(field, f"{value!r} is not an amount of zero or more.")
    minor = amount.scaleb(exponent)
    if minor != minor.to_integral_value():
        raise RecordInvalid(
            field,
            f"{value} has more decimals than {currency} allows ({exponent}).",
        )
    return int(minor)


def parse_time(value, *, field: str) -> datetime:
    """An ISO 8601 time that carries its offset; a naive time is refused."""
    if not isinstance(value, str):
        raise RecordInvalid(field, "Give a time as an ISO 8601 string with an offset.")
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise RecordInvalid(field, f"{value!r} is not an ISO 8601 time.") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise RecordInvalid(
            field,
            f"{value!r} has no offset: give it as e.g. 2026-03-01T09:30:00+01:00 or ...Z.",
        )
    return parsed


def parse_date(value, *, field: str, tz: ZoneInfo) -> date:
    """A calendar date (YYYY-MM-DD), or a time with an offset read in the workspace zone."""
    if not isinstance(value, str):
        raise RecordInvalid(field, "Give a date as YYYY-MM-DD.")
    text = value.strip()
    if len(text) == 10:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise RecordInvalid(field, f"{value!r} is not a date (YYYY-MM-DD).") from None
    return parse_time(text, field=field).astimezone(tz).date()


# --- invariants ----------------------------------------------------------------------


def _rows_lock(rows) -> None:
    """Wait for the other transactions that refresh these rows' values, so the refresh
    that follows reads their records once committed (its statements take a snapshot
    after the wait). FOR NO KEY UPDATE, in primary-key order: it does not conflict with
    the key-share locks that inserting a child record takes. PostgreSQL only (SQLite
    runs one writer at a time; the queryset is then never run), and only inside a
    transaction, which holds the lock until it commits.
    """
    if not connection.features.has_select_for_update or not connection.in_atomic_block:
        return
    locked = rows.select_for_update(no_key=True).order_by("pk")
    list(locked.values_list("pk", flat=True))


def calls_replaced_refresh(*, workspace: Workspace) -> int:
    """Call.replaced is True exactly for the calls another call reschedules."""
    replacing = Call.objects.filter(workspace=workspace, rescheduled_from=OuterRef("pk"))
    calls = Call.objects.filter(workspace=workspace)
    changed = calls.filter(replaced=False).filter(Exists(replacing)).update(replaced=True)
    changed += calls.filter(replaced=True).exclude(Exists(replacing)).update(replaced=False)
    return changed


def calls_outcome_refresh(*, workspace: Workspace, call_ids: Iterable | None = None) -> int:
    """Call.outcome (and offer_made, where recorded) from the call's latest Outcome."""
    calls = Call.objects.filter(workspace=workspace)
    if call_ids is not None:
        call_ids = list(call_ids)
        if not call_ids:
            return 0
        calls = calls.filter(pk__in=call_ids)
    latest = Outcome.objects.filter(call=OuterRef("pk")).order_by("-at", "-external_id", "-pk")
    latest_offer = latest.filter(offer_made__isnull=False)
    return calls.update(
        outcome=Coalesce(Subquery(latest.values("result")[:1]), Value("")),
        offer_made=Coalesce(Subquery(latest_offer.values("offer_made")[:1]), F("offer_made")),
    )


def leads_first_contact_refresh(*, workspace: Workspace, lead_ids: Iterable | None = None) -> int:
    """Lead.first_contact_at is the earliest touch by a member."""
    leads = Lead.objects.filter(workspace=workspace)
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return 0
        leads = leads.filter(pk__in=lead_ids)
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    first = (
        Touch.objects.filter(lead=OuterRef("pk"), member__isnull=False)
        .order_by()
        .values("lead")
        .annotate(first=Min("at"))
        .values("first")
    )
    return leads.update(first_contact_at=Subquery(first[:1]))


def leads_sales_refresh(*, workspace: Workspace, lead_ids: Iterable | None = None) -> int:
    """The cash of the leads' sales, then Lead.has_sale and Lead.cash_collected."""
    leads = Lead.objects.filter(workspace=workspace)
    sales = Sale.objects.filter(workspace=workspace)
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return 0
        leads = leads.filter(pk__in=lead_ids)
        sales = sales.filter(lead__in=lead_ids)
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    money = models.BigIntegerField()
    paid = (
        Payment.objects.filter(sale=OuterRef("pk"), status=Payment.Status.SUCCEEDED)
        .order_by()
        .values("sale")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    sales.update(cash_collected=Coalesce(Subquery(paid[:1]), Value(0), output_field=money))
    cash = (
        Sale.objects.filter(lead=OuterRef("pk"))
        .order_by()
        .values("lead")
        .annotate(total=Sum("cash_collected"))
        .values("total")
    )
    return leads.update(
        has_sale=Exists(Sale.objects.filter(lead=OuterRef("pk"))),
        cash_collected=Coalesce(Subquery(cash[:1]), Value(0), output_field=money),
    )


def registrations_booked_refresh(
    *, workspace: Workspace, lead_ids: Iterable | None = None, event_ids: Iterable | None = None
) -> int:
    """Registration.booked_after for the leads' or events' registrations (all when both
    are None)."""
    registrations = Registration.objects.filter(workspace=workspace)
    if lead_ids is not None or event_ids is not None:
        lead_ids, event_ids = list(lead_ids or ()), list(event_ids or ())
        if not lead_ids and not event_ids:
            return 0
        registrations = registrations.filter(Q(lead__in=lead_ids) | Q(event__in=event_ids))
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
        # An event whose start is moving in another transaction: wait for its new time.
        _rows_lock(
            WebinarEvent.objects.filter(
                Q(pk__in=event_ids) | Q(pk__in=registrations.values("event"))
            )
        )
    starts = WebinarEvent.objects.filter(pk=OuterRef(OuterRef("event"))).values("starts_at")
    booked = Call.objects.filter(lead=OuterRef("lead"), booked_at__gte=Subquery(starts[:1]))
    return registrations.update(booked_after=Exists(booked))


# Leads per statement when progress is refreshed for given leads (SQLite's bound
# parameters stay well below its limit).
_PROGRESS_CHUNK = 500


def funnel_progress_refresh(
    *, workspace: Workspace, lead_ids: Iterable | None = None, funnels: Iterable | None = None
) -> None:
    """FunnelProgress of the given leads (all leads when None) in the given funnels.

    Set-based: one statement per funnel (and chunk of leads) walks the stages in order,
    each step joining the leads that reached the step before to the events of one stage
    at or after that time.
    """
    if funnels is None:
        funnels = Funnel.objects.filter(workspace=workspace).prefetch_related("stages")
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    for funnel in funnels:
        stages = list(funnel.stages.all())
        progress = FunnelProgress.objects.filter(funnel=funnel)
        if lead_ids is None:
            chunks = [None]
        else:
            chunks = [
                lead_ids[i : i + _PROGRESS_CHUNK] for i in range(0, len(lead_ids), _PROGRESS_CHUNK)
            ]
        for chunk in chunks:
            (progress if chunk is None else progress.filter(lead__in=chunk)).delete()
            if stages:
                funnel_progress_insert(
                    workspace_id=funnel.workspace_id,
                    funnel_id=funnel.pk,
                    stage_ids=[stage.pk for stage in stages],
                    lead_ids=chunk,
                )


def funnel_progress_insert(
    *, workspace_id, funnel_id: int, stage_ids: list[int], lead_ids: list | None
) -> None:
    """Insert the progress rows of one funnel (stages in order) for the leads (or all)."""
    quote = connection.ops.quote_name
    events = quote(FunnelEvent._meta.db_table)
    lead, at = quote("lead_id"), quote("at")
    in_stage = f"e.{quote('funnel_id')} = %s AND e.{quote('stage_id')} = %s"
    lead_pk = Lead._meta.pk
    params: list = [funnel_id, stage_ids[0]]
    only = ""
    if lead_ids is not None:
        only = f" AND e.{lead} IN ({', '.join(['%s'] * len(lead_ids))})"
        params += [lead_pk.get_db_prep_value(pk, connection) for pk in lead_ids]
    steps = [
        f"s0 AS MATERIALIZED (SELECT e.{lead} AS lead, MIN(e.{at}) AS reached "
        f"FROM {events} e WHERE {in_stage}{only} GROUP BY e.{lead})"
    ]
    for index, stage_id in enumerate(stage_ids[1:], start=1):
        steps.append(
            f"s{index} AS MATERIALIZED (SELECT prev.lead AS lead, MIN(e.{at}) AS reached "
            f"FROM s{index - 1} prev JOIN {events} e ON e.{lead} = prev.lead "
            f"WHERE {in_stage} AND e.{at} >= prev.reached GROUP BY prev.lead)"
        )
        params += [funnel_id, stage_id]
    depth = " + ".join(
        ["1"] + [f"CASE WHEN s{i}.lead IS NULL THEN 0 ELSE 1 END" for i in range(1, len(stage_ids))]
    )
    joins = "".join(f" LEFT JOIN s{i} ON s{i}.lead = s0.lead" for i in range(1, len(stage_ids)))
    columns = ", ".join(
        quote(name) for name in ("workspace_id", "funnel_id", "lead_id", "entered_at", "depth")
    )
    sql = (
        f"WITH {', '.join(steps)} INSERT INTO {quote(FunnelProgress._meta.db_table)} "
        f"({columns}) SELECT %s, %s, s0.lead, s0.reached, {depth} FROM s0{joins}"
    )
    params += [Workspace._meta.pk.get_db_prep_value(workspace_id, connection), funnel_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def workspace_invariants_refresh(*, workspace: Workspace) -> None:
    calls_replaced_refresh(workspace=workspace)
    calls_outcome_refresh(workspace=workspace)
    leads_first_contact_refresh(workspace=workspace)
    leads_sales_refresh(workspace=workspace)
    funnel_progress_refresh(workspace=workspace)
    registrations_booked_refresh(workspace=workspace)


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


def member_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    name: str,
    email: str,
    role: str,
    joined_at: date | None = None,
):
    if role not in Member.Role.values:
        raise RecordInvalid("role", f"Unknown role {role!r}; use one of {', '.join(Member.Role)}.")
    email = email.strip().lower()
    if not email or "@" not in email:
        raise RecordInvalid("email", "Give the member's email address.")
    existing = None
    if external_id is not None:
        existing = Member.objects.filter(workspace=workspace, external_id=external_id).first()
    by_email = Member.objects.filter(workspace=workspace, email__iexact=email).first()
    if existing is None and by_email is not None:
        if by_email.external_id not in (None, external_id):
            raise RecordInvalid("email", f"{email} is already the member {by_email.external_id!r}.")
        existing = by_email
    elif existing is not None and by_email is not None and by_email.pk != existing.pk:
        raise RecordInvalid("email", f"{email} is already another member of this workspace.")
    values = {"name": name or email, "email": email, "role": role, "joined_at": joined_at}
    if existing is None:
        return Member.objects.create(workspace=workspace, external_id=external_id, **values), True
    values["external_id"] = external_id if external_id is not None else existing.external_id
    changed = [key for key, value in values.items() if getattr(existing, key) != value]
    for key in changed:
        setattr(existing, key, values[key])
    if changed:
        existing.save(update_fields=changed)
    return existing, False


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
):
    _same_workspace(workspace, "setter", setter)
    return _upsert(
        Lead,
        workspace=workspace,
        external_id=external_id,
        values={
            "created_at": created_at,
            "name": name,
            "email": email,
            "status": status or "new",
            "setter": setter,
            "utm_source": utm_source,
            "utm_medium": utm_medium,
            "utm_campaign": utm_campaign,
            "utm_content": utm_content,
        },
    )


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
    leads = {lead.pk, before.get("lead_id")} - {None}
    if refresh:
        calls_replaced_refresh(workspace=workspace)
        calls_outcome_refresh(workspace=workspace, call_ids=[call.pk])
        registrations_booked_refresh(workspace=workspace, lead_ids=leads)
    elif touched is not None:
        touched |= leads
    return call, created


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
    if call is not None:
        lead = lead or call.lead
        member = member or call.closer
    outcome, created, before = _upsert_changes(
        Outcome,
        workspace=workspace,
        external_id=external_id,
        values={
            "call": call,
            "lead": lead,
            "member": member,
            "result": result,
            "offer_made": offer_made,
            "reason": reason,
            "notes": notes,
            "at": at,
        },
    )
    _refresh_or_collect(
        {before.get("call_id"), call.pk if call else None},
        touched,
        lambda ids: calls_outcome_refresh(workspace=workspace, call_ids=ids),
    )
    return outcome, created


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
        sale.instalments.all().delete()
        Instalment.objects.bulk_create(
            [Instalment(sale=sale, due_date=due, amount=amount) for due, amount in instalments]
        )
    if "closer_id" in before or "setter_id" in before:
        Payment.objects.filter(sale=sale).update(closer_id=sale.closer_id, setter_id=sale.setter_id)
    _refresh_or_collect(
        {lead.pk, before.get("lead_id")},
        touched,
        lambda ids: leads_sales_refresh(workspace=workspace, lead_ids=ids),
    )
    return sale, created


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
    # A refund names its payment; its sale follows the payment's.
    Refund.objects.filter(payment=payment).exclude(sale=sale).update(sale=sale)
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
    return _upsert(
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
    if external_id is not None:
        same_day = same_day.exclude(external_id=external_id)
    clash = same_day.first()
    if clash is not None:
        if clash.external_id is not None:
            raise RecordInvalid(
                "date", f"This member already has report {clash.external_id!r} for {date}."
            )
        # A report filed in the app for that day becomes this record: one per member per day.
        clash.external_id = external_id
        clash.save(update_fields=["external_id"])
    return _upsert(
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
    _same_workspace(workspace, "event", event)
    _same_workspace(workspace, "lead", lead)
    if left_at is not None and joined_at is None:
        raise RecordInvalid("joined_at", "A registrant who left must have joined.")
    if left_at is not None and left_at < joined_at:
        raise RecordInvalid("left_at", "left_at cannot come before joined_at.")
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


def funnels_progress_touch(*, workspace: Workspace, pairs: Iterable[tuple]) -> None:
    """Refresh the progress of (funnel id, lead id) pairs, one pass per funnel."""
    by_funnel: dict = {}
    for funnel_id, lead_id in pairs:
        by_funnel.setdefault(funnel_id, set()).add(lead_id)
    funnels = Funnel.objects.filter(workspace=workspace, pk__in=by_funnel).prefetch_related(
        "stages"
    )
    for funnel in funnels:
        funnel_progress_refresh(
            workspace=workspace, lead_ids=by_funnel[funnel.pk], funnels=[funnel]
        )


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
    if basis not in CommissionRule.Basis.values:
        raise RecordInvalid(
            "basis", f"Unknown basis {basis!r}; use cash_collected or revenue_booked."
        )
    if slot not in CommissionRule.Slot.values:
        raise RecordInvalid("slot", f"Unknown slot {slot!r}; use closer or setter.")
    if not (Decimal(0) <= rate <= Decimal(1)) or rate != rate.quantize(Decimal("0.0001")):
        raise RecordInvalid("rate", "A rate is a fraction from 0 to 1 with at most 4 decimals.")
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


# --- the import ----------------------------------------------------------------------

# Types in the order they are written, so a record may name one of an earlier type
# wherever it stands in the file.
IMPORT_TYPES = (
    "member",
    "lead",
    "touch",
    "webinar_event",
    "registration",
    "call",
    "outcome",
    "sale",
    "payment",
    "refund",
    "eod",
    "funnel_event",
    "commission_rule",
)

_MODELS = {
    "member": Member,
    "lead": Lead,
    "touch": Touch,
    "call": Call,
    "outcome": Outcome,
    "sale": Sale,
    "payment": Payment,
    "refund": Refund,
    "eod": EodReport,
    "webinar_event": WebinarEvent,
    "registration": Registration,
    "funnel_event": FunnelEvent,
    "commission_rule": CommissionRule,
}


@dataclass
class _Line:
    number: int
    type: str
    id: str
    data: dict


@dataclass
class ImportResult:
    counts: dict = field(default_factory=dict)  # type -> {"created": n, "updated": n}

    @property
    def total(self) -> int:
        return sum(c["created"] + c["updated"] for c in self.counts.values())


class _Reader:
    """Reads one line's members into writer arguments, resolving references."""

    def __init__(self, workspace: Workspace, data: dict, cache: dict | None = None):
        self.workspace = workspace
        self.data = data
        self.tz = ZoneInfo(workspace.timezone)
        # (model, id) -> record, shared by the lines of one import: a record named by
        # many lines is read once. Only records of earlier types are named, so none of
        # them changes after it is cached.
        self.cache = {} if cache is None else cache

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def text(self, name: str, *, required=False, default="", max_length=200) -> str:
        value = self.data.get(name)
        if value is None:
            if required:
                raise RecordInvalid(name, "This member is required.")
            return default
        if not isinstance(value, str):
            raise RecordInvalid(name, "Give this as a string.")
        if len(value) > max_length:
            raise RecordInvalid(name, f"At most {max_length} characters.")
        return value

    def time(self, name: str, *, required=True) -> datetime | None:
        if not self.has(name):
            if required:
                raise RecordInvalid(name, "This member is required (ISO 8601 with an offset).")
            return None
        return parse_time(self.data[name], field=name)

    def date(self, name: str, *, required=True) -> date | None:
        if not self.has(name):
            if required:
                raise RecordInvalid(name, "This member is required (YYYY-MM-DD).")
            return None
        return parse_date(self.data[name], field=name, tz=self.tz)

    def money(self, name: str) -> int:
        if not self.has(name):
            raise RecordInvalid(name, "This member is required.")
        return money_to_minor(
            self.data[name],
            exponent=self.workspace.currency_exponent,
            currency=self.workspace.currency,
            field=name,
        )

    def boolean(self, name: str) -> bool | None:
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, bool):
            raise RecordInvalid(name, "Give true or false.")
        return value

    def ref(self, model, name: str, *, required=True):
        """The record of this workspace whose external id is the member's value.

        A record made in the app (no external id) may be named by its own id.
        """
        value = self.data.get(name)
        if value is None:
            if required:
                raise RecordInvalid(name, "This member is required.")
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value:
            raise RecordInvalid(name, "Give the id of the record it names, as a string.")
        obj = self.cache.get((model, value))
        if obj is not None:
            return obj
        rows = model.objects.filter(workspace=self.workspace).order_by()
        obj = rows.filter(external_id=value).first()
        if obj is None:
            try:
                obj = rows.filter(pk=uuid.UUID(value)).first()
            except ValueError:
                obj = None
        if obj is None:
            raise RecordInvalid(
                name,
                f"No {model._meta.verbose_name} with id {value!r} in this workspace (import it first).",
            )
        self.cache[(model, value)] = obj
        return obj


def _write(reader: _Reader, type_: str, external_id: str, touched: dict):
    r, ws = reader, reader.workspace
    if type_ == "member":
        return member_upsert(
            workspace=ws,
            external_id=external_id,
            name=r.text("name"),
            email=r.text("email", required=True),
            role=r.text("role", required=True),
            joined_at=r.date("joined_at", required=False),
        )
    if type_ == "lead":
        return lead_upsert(
            workspace=ws,
            external_id=external_id,
            created_at=r.time("created_at"),
            name=r.text("name"),
            email=r.text("email"),
            status=r.text("status", default="new", max_length=40),
            setter=r.ref(Member, "setter", required=False),
            utm_source=r.text("utm_source"),
            utm_medium=r.text("utm_medium"),
            utm_campaign=r.text("utm_campaign"),
            utm_content=r.text("utm_content"),
        )
    if type_ == "touch":
        return touch_upsert(
            workspace=ws,
            external_id=external_id,
            lead=r.ref(Lead, "lead"),
            at=r.time("at"),
            member=r.ref(Member, "member", required=False),
            channel=r.text("channel", max_length=40),
            touched=touched["leads"],
        )
    if type_ == "call":
        scheduled_for = r.time("scheduled_for")
        rescheduled_from = None
        # May name a call later in the file: resolved once every call is written.
        if r.has("rescheduled_from") and not isinstance(r.data["rescheduled_from"], str | int):
            raise RecordInvalid("rescheduled_from", "Give the id of the call it replaces.")
        call, created = call_upsert(
            workspace=ws,
            external_id=external_id,
            lead=r.ref(Lead, "lead"),
            booked_at=r.time("booked_at", required=False) or scheduled_for,
            scheduled_for=scheduled_for,
            closer=r.ref(Member, "closer", required=False),
            setter=r.ref(Member, "setter", required=False),
            status=r.text("status", default=Call.Status.SCHEDULED),
            rescheduled_from=rescheduled_from,
            attendance=r.text("attendance"),
            offer_made=r.boolean("offer_made"),
            refresh=False,
            touched=touched["booking_leads"],
        )
        touched["calls"].add(call.pk)
        if r.has("rescheduled_from"):
            touched["reschedules"].append((call, str(r.data["rescheduled_from"])))
        return call, created
    if type_ == "outcome":
        call = r.ref(Call, "call", required=False)
        return outcome_upsert(
            workspace=ws,
            external_id=external_id,
            result=r.text("result", required=True),
            at=r.time("at"),
            call=call,
            lead=r.ref(Lead, "lead", required=call is None),
            member=r.ref(Member, "member", required=False),
            offer_made=r.boolean("offer_made"),
            reason=r.text("reason"),
            notes=r.text("notes", max_length=10000),
            touched=touched["calls"],
        )
    if type_ == "sale":
        call = r.ref(Call, "call", required=False)
        lead = r.ref(Lead, "lead", required=call is None) or call.lead
        instalments = None
        if r.has("instalments"):
            items = r.data["instalments"]
            if not isinstance(items, list):
                raise RecordInvalid("instalments", "Give a list of {due_date, amount}.")
            instalments = []
            for index, item in enumerate(items):
                if not isinstance(item, dict):
                    raise RecordInvalid(f"instalments.{index}", "Give {due_date, amount}.")
                sub = _Reader(ws, item)
                try:
                    instalments.append((sub.date("due_date"), sub.money("amount")))
                except RecordInvalid as error:
                    raise RecordInvalid(
                        f"instalments.{index}.{error.field}", error.message
                    ) from None
        return sale_upsert(
            workspace=ws,
            external_id=external_id,
            lead=lead,
            call=call,
            origin=r.text("origin") or None,
            closed_at=r.time("closed_at"),
            closer=r.ref(Member, "closer", required=False),
            setter=r.ref(Member, "setter", required=False),
            contract_value=r.money("contract_value"),
            payment_plan=r.text("payment_plan"),
            instalments=instalments,
            touched=touched["sale_leads"],
        )
    if type_ == "payment":
        return payment_upsert(
            workspace=ws,
            external_id=external_id,
            sale=r.ref(Sale, "sale"),
            paid_at=r.time("paid_at"),
            amount=r.money("amount"),
            status=r.text("status", default=Payment.Status.SUCCEEDED),
            touched=touched["sale_leads"],
        )
    if type_ == "refund":
        return refund_upsert(
            workspace=ws,
            external_id=external_id,
            payment=r.ref(Payment, "payment"),
            at=r.time("at"),
            amount=r.money("amount"),
            kind=r.text("kind", default=Refund.Kind.REFUND),
        )
    if type_ == "eod":
        fields = r.data.get("fields") or {}
        if not isinstance(fields, dict):
            raise RecordInvalid("fields", "Give the report's counts and text as an object.")
        return eod_upsert(
            workspace=ws,
            external_id=external_id,
            member=r.ref(Member, "member"),
            date=r.date("date"),
            submitted_at=r.time("submitted_at"),
            fields=fields,
        )
    if type_ == "webinar_event":
        return webinar_event_upsert(
            workspace=ws,
            external_id=external_id,
            name=r.text("name", required=True),
            starts_at=r.time("starts_at"),
            pitch_at=r.time("pitch_at", required=False),
            touched=touched["events"],
        )
    if type_ == "registration":
        return registration_upsert(
            workspace=ws,
            external_id=external_id,
            event=r.ref(WebinarEvent, "event"),
            lead=r.ref(Lead, "lead"),
            registered_at=r.time("registered_at"),
            joined_at=r.time("joined_at", required=False),
            left_at=r.time("left_at", required=False),
            touched=touched["booking_leads"],
        )
    if type_ == "funnel_event":
        return funnel_event_upsert(
            workspace=ws,
            external_id=external_id,
            lead=r.ref(Lead, "lead"),
            funnel_key=r.text("funnel", required=True, max_length=64),
            stage_key=r.text("stage", required=True, max_length=64),
            at=r.time("at"),
            touched=touched["funnel_leads"],
        )
    if type_ == "commission_rule":
        raw = r.data.get("rate")
        if raw is None or isinstance(raw, bool) or not isinstance(raw, str | int | float | Decimal):
            raise RecordInvalid("rate", "Give the rate as a fraction, e.g. 0.1.")
        try:
            rate = Decimal(str(raw).strip())
        except InvalidOperation:
            raise RecordInvalid("rate", f"{raw!r} is not a number.") from None
        if not rate.is_finite():
            raise RecordInvalid("rate", f"{raw!r} is not a number.")
        return commission_rule_upsert(
            workspace=ws,
            external_id=external_id,
            member=r.ref(Member, "member"),
            basis=r.text("basis", required=True),
            slot=r.text("slot", required=True),
            rate=rate,
        )
    raise AssertionError(type_)


def _parse_lines(lines: Iterable[str]) -> list[_Line]:
    parsed = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw, parse_float=Decimal)
        except ValueError as error:
            raise ImportLineError(number, None, f"not valid JSON ({error}).") from None
        if not isinstance(data, dict):
            raise ImportLineError(number, None, "each line must be one JSON object.")
        type_ = data.get("type")
        if type_ not in IMPORT_TYPES:
            raise ImportLineError(
                number, "type", f"unknown type {type_!r}; use one of {', '.join(IMPORT_TYPES)}."
            )
        external_id = data.get("id")
        if isinstance(external_id, int) and not isinstance(external_id, bool):
            external_id = str(external_id)
        if not isinstance(external_id, str) or not external_id.strip():
            raise ImportLineError(number, "id", "every record carries its own id, a string.")
        if len(external_id) > 200:
            raise ImportLineError(number, "id", "an id has at most 200 characters.")
        parsed.append(_Line(number=number, type=type_, id=external_id, data=data))
    return parsed


def records_import(
    *,
    workspace: Workspace,
    lines: Iterable[str],
    actor: Actor = IMPORT_ACTOR,
    source: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> ImportResult:
    """Write every record of a JSON Lines file, or none: one transaction.

    Raises ImportLineError naming the first line (and member) that cannot be used.
    """
    parsed = _parse_lines(lines)
    order = {name: index for index, name in enumerate(IMPORT_TYPES)}
    parsed.sort(key=lambda line: (order[line.type], line.number))
    counts: Counter = Counter()
    touched = {
        "leads": set(),
        "calls": set(),
        "reschedules": [],
        "sale_leads": set(),
        "funnel_leads": set(),
        "booking_leads": set(),
        "events": set(),
    }
    line_of_call = {}
    cache = {}
    currency = workspace.currency
    with transaction.atomic():
        for done, line in enumerate(parsed, start=1):
            record_currency = line.data.get("currency")
            try:
                if record_currency is not None and str(record_currency).upper() != currency:
                    raise RecordInvalid(
                        "currency",
                        f"This workspace keeps {currency}; a record in {record_currency} is refused.",
                    )
                reader = _Reader(workspace, line.data, cache)
                obj, created = _write(reader, line.type, line.id, touched)
            except RecordInvalid as error:
                raise ImportLineError(line.number, error.field, error.message) from None
            except IntegrityError as error:
                raise ImportLineError(
                    line.number, None, f"conflicts with a record already held ({error})."
                ) from None
            cache[(_MODELS[line.type], line.id)] = obj
            if line.type == "call":
                line_of_call[obj.pk] = line.number
            counts[(line.type, "created" if created else "updated")] += 1
            if progress is not None:
                progress(done, len(parsed))
        for call, target_id in touched["reschedules"]:
            number = line_of_call[call.pk]
            reader = _Reader(workspace, {"rescheduled_from": target_id}, cache)
            try:
                target = reader.ref(Call, "rescheduled_from")
                if target.pk == call.pk:
                    raise RecordInvalid("rescheduled_from", "A call cannot replace itself.")
            except RecordInvalid as error:
                raise ImportLineError(number, error.field, error.message) from None
            if call.rescheduled_from_id != target.pk:
                Call.objects.filter(pk=call.pk).update(rescheduled_from=target)
        # Calls no longer rescheduling anything, imported again without the member.
        calls_replaced_refresh(workspace=workspace)
        calls_outcome_refresh(workspace=workspace, call_ids=touched["calls"])
        leads_first_contact_refresh(workspace=workspace, lead_ids=touched["leads"])
        leads_sales_refresh(workspace=workspace, lead_ids=touched["sale_leads"])
        funnels_progress_touch(workspace=workspace, pairs=touched["funnel_leads"])
        registrations_booked_refresh(
            workspace=workspace, lead_ids=touched["booking_leads"], event_ids=touched["events"]
        )

        result = ImportResult(
            counts={
                type_: {
                    "created": counts[(type_, "created")],
                    "updated": counts[(type_, "updated")],
                }
                for type_ in IMPORT_TYPES
                if counts[(type_, "created")] or counts[(type_, "updated")]
            }
        )
        audit_record(
            actor=actor,
            action="records.imported",
            target_type="workspace",
            target_id=workspace.pk,
            workspace=workspace,
            detail={"source": source, "records": result.total, "counts": result.counts},
        )
    return result
