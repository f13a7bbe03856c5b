"""Writers of calls and their outcomes."""

from __future__ import annotations

from datetime import datetime

from django.db import models
from django.db.models import Exists, OuterRef

from core.transactions import in_transaction
from events.services import event_record, events_bulk_record

from ..kept import (
    calls_outcome_refresh,
    leads_calls_refresh,
    registrations_booked_refresh,
)
from ..models import (
    Call,
    Lead,
    Member,
    Outcome,
    Workspace,
)
from ..shapes import (
    call_shape,
    outcome_shape,
)
from .base import RecordInvalid, refresh_or_collect, same_workspace, upsert_changes


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
    same_workspace(workspace, "lead", lead)
    same_workspace(workspace, "closer", closer)
    same_workspace(workspace, "setter", setter)
    same_workspace(workspace, "rescheduled_from", rescheduled_from)
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
    call, created, before = upsert_changes(
        Call, workspace=workspace, external_id=external_id, values=values
    )
    event = _call_event(call, created, before)
    leads = {lead.pk, before.get("lead_id")} - {None}
    if refresh:
        # Only the calls it replaces, now or before, can change (not the whole workspace's).
        replaced_leads = _calls_replaced_set(
            {call.rescheduled_from_id, before.get("rescheduled_from_id")}
        )
        calls_outcome_refresh(workspace=workspace, call_ids=[call.pk])
        registrations_booked_refresh(workspace=workspace, lead_ids=leads)
        leads_calls_refresh(workspace=workspace, lead_ids=leads | replaced_leads)
    elif touched is not None:
        touched |= leads
    if event is not None:
        event_record(workspace=workspace, type=event, data=call_shape(call))
    return call, created


def _calls_replaced_set(call_ids: set) -> set:
    """Call.replaced of these calls, from whether another call names them in
    rescheduled_from: what calls_replaced_refresh does for the whole workspace, for the
    only calls a write can change. Returns their leads, whose bookings may change."""
    call_ids = call_ids - {None}
    if not call_ids:
        return set()
    calls = Call.objects.filter(pk__in=call_ids)
    calls.update(replaced=Exists(Call.objects.filter(rescheduled_from=OuterRef("pk"))))
    return set(calls.values_list("lead_id", flat=True))


def _call_check(workspace: Workspace, values: dict) -> None:
    """call_upsert's checks of one call's values."""
    for field in ("lead", "closer", "setter", "rescheduled_from"):
        same_workspace(workspace, field, values.get(field))
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


_CALL_FIELDS = (
    "lead",
    "booked_at",
    "scheduled_for",
    "closer",
    "setter",
    "status",
    "rescheduled_from",
    "attendance",
)


@in_transaction
def calls_write_many(
    *, workspace: Workspace, calls: list[dict], touched: set | None = None
) -> list[Call]:
    """Many calls at once, each a dict of call_upsert's values (external_id, lead,
    booked_at, scheduled_for, closer, setter, status, rescheduled_from, attendance,
    offer_made): a call whose external id is new to the workspace is made (one insert); an
    existing one may change its status only (write any other change with call_upsert), in
    one update per status. The kept values are refreshed once for them all, as call_upsert
    refreshes them for one, or, given `touched`, the leads whose bookings changed are added
    to it (the caller refreshes the calls' outcomes too, as with call_upsert's
    refresh=False); each call's event is recorded as call_upsert records it, in the list's
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
            if values.get("offer_made") is not None:
                full["offer_made"] = values["offer_made"]
            call = Call(workspace=workspace, external_id=values["external_id"], **full)
            made.append(call)
            written.append((call, True, {}))
            leads.add(call.lead_id)
            continue
        before = _call_status_change(call, full)
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
    replaced_leads = _calls_replaced_set({call.rescheduled_from_id for call in made})
    if touched is not None:
        touched |= leads | replaced_leads
    else:
        calls_outcome_refresh(workspace=workspace, call_ids=[call.pk for call, _c, _b in written])
        registrations_booked_refresh(workspace=workspace, lead_ids=leads)
        leads_calls_refresh(workspace=workspace, lead_ids=leads | replaced_leads)
    events_bulk_record(
        workspace=workspace,
        events=[
            (event, call_shape(call))
            for call, created, before in written
            if (event := _call_event(call, created, before)) is not None
        ],
    )
    return [call for call, _created, _before in written]


def _call_status_change(call: Call, full: dict) -> dict:
    """What writing these values changes of a held call ({attname: value before}), which
    may be its status only."""
    before = {}
    for name, value in full.items():
        attname = Call._meta.get_field(name).attname
        value = value.pk if isinstance(value, models.Model) else value
        if getattr(call, attname) != value:
            before[attname] = getattr(call, attname)
    if set(before) - {"status"}:
        raise RecordInvalid(
            None,
            f"Call {call.external_id} changes more than its status: write it with call_upsert.",
        )
    return before


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
    same_workspace(workspace, "call", call)
    same_workspace(workspace, "lead", lead)
    same_workspace(workspace, "member", member)
    if result not in Outcome.Result.values:
        raise RecordInvalid(
            "result", f"Unknown result {result!r}; use one of {', '.join(Outcome.Result)}."
        )
    if call is None and lead is None:
        raise RecordInvalid("lead", "An outcome of a past call (no call) names its lead.")
    # A booked call's lead, and its closer unless named: by id, without loading them.
    lead_id = lead.pk if lead is not None else call.lead_id
    member_id = member.pk if member is not None else (call.closer_id if call else None)
    outcome, created, before = upsert_changes(
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
    refresh_or_collect(
        {before.get("call_id"), call.pk if call else None},
        touched,
        lambda ids: calls_outcome_refresh(workspace=workspace, call_ids=ids),
    )
    return outcome, created


@in_transaction
def outcomes_create(
    *, workspace: Workspace, outcomes: list[dict], touched: set | None = None
) -> list[Outcome]:
    """Many new outcomes at once, each a dict of outcome_upsert's values (external_id,
    result, at, call, lead, member, offer_made, reason, notes), with outcome_upsert's
    checks and its call.outcome_recorded event for each, in one insert. Every external id
    must be new to the workspace (write an existing one with outcome_upsert). The calls
    whose latest outcome may change are refreshed once, or added to `touched`. Returns the
    outcomes made."""
    ids = [values["external_id"] for values in outcomes]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new outcome needs an external id of its own.")
    rows = []
    for values in outcomes:
        call, lead, member = values.get("call"), values.get("lead"), values.get("member")
        same_workspace(workspace, "call", call)
        same_workspace(workspace, "lead", lead)
        same_workspace(workspace, "member", member)
        result = values["result"]
        if result not in Outcome.Result.values:
            raise RecordInvalid(
                "result", f"Unknown result {result!r}; use one of {', '.join(Outcome.Result)}."
            )
        if call is None and lead is None:
            raise RecordInvalid("lead", "An outcome of a past call (no call) names its lead.")
        rows.append(
            Outcome(
                workspace=workspace,
                external_id=values["external_id"],
                call=call,
                lead_id=lead.pk if lead is not None else call.lead_id,
                member_id=member.pk if member is not None else (call.closer_id if call else None),
                result=result,
                offer_made=values.get("offer_made"),
                reason=values.get("reason", ""),
                notes=values.get("notes", ""),
                at=values["at"],
            )
        )
    if Outcome.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "An outcome with one of these external ids exists.")
    made = Outcome.objects.bulk_create(rows)
    events_bulk_record(
        workspace=workspace,
        events=[("call.outcome_recorded", outcome_shape(outcome)) for outcome in made],
    )
    refresh_or_collect(
        {outcome.call_id for outcome in made},
        touched,
        lambda call_ids: calls_outcome_refresh(workspace=workspace, call_ids=call_ids),
    )
    return made


def call_attendance_record(
    *, workspace: Workspace, call: Call, attendance: str, offer_made: bool | None = None
) -> Call:
    """What happened on a call held in the app: its attendance, and whether an offer was
    made (unchanged when None). Its outcome is kept from its outcomes (outcome_upsert)."""
    same_workspace(workspace, "call", call)
    if attendance not in Call.Attendance.values:
        raise RecordInvalid(
            "attendance", f"Unknown attendance {attendance!r}; use showed or no_show."
        )
    call.attendance = attendance
    if offer_made is not None:
        call.offer_made = offer_made
    call.save(update_fields=["attendance", "offer_made"])
    leads_calls_refresh(workspace=workspace, lead_ids=[call.lead_id])
    return call


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
