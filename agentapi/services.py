"""Writes of the agent API: change-log entries, drafts and the four sales forms.

Each service is one transaction that also records its audit event. Forms write the real
sales records (calls, outcomes, sales, instalments, payments, leads, EOD reports)
through the writers of workspaces.services, which keep the values derived from them,
and return what they wrote (a Filing) for the view to answer. A form is filed once per
submission_id: a second filing returns the first filing's kept answer instead.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.errors import Conflict, InvalidField, Unprocessable
from core.locks import lock as advisory_lock
from core.times import local_today
from core.times import utc_iso as _iso
from events.services import event_record
from workspaces.kept import leads_sales_refresh
from workspaces.models import Call, EodReport, Instalment, Lead, Member, Outcome, Payment, Sale
from workspaces.services import (
    RecordInvalid,
    ad_spend_upsert,
    call_attendance_record,
    eod_upsert,
    lead_upsert,
    outcome_upsert,
    payment_upsert,
    sale_upsert,
)

from . import answers
from .models import ChangeLogEntry, Draft, FormSubmission

# A filed time may run this far ahead of the server's clock (the caller's clock may be fast).
CLOCK_LEEWAY = timedelta(minutes=5)


def _created_by(actor: Actor) -> dict:
    return {
        "created_by_kind": actor.kind,
        "created_by_id": str(actor.id or ""),
        "created_by_label": (actor.label or "")[:200],
    }


def _not_in_future(field: str, moment) -> None:
    if moment > timezone.now() + CLOCK_LEEWAY:
        raise InvalidField(field, f"{field} is in the future; give when it happened.")


# --- Change log ----------------------------------------------------------------------------


def change_create(
    *, workspace, actor: Actor, effective_at, kind: str, title: str, what: str, why: str = ""
) -> ChangeLogEntry:
    with transaction.atomic():
        entry = ChangeLogEntry.objects.create(
            workspace=workspace,
            effective_at=effective_at,
            kind=kind,
            title=title,
            what=what,
            why=why,
            **_created_by(actor),
        )
        audit_record(
            actor=actor,
            action="change_log.created",
            target_type="change_log_entry",
            target_id=entry.pk,
            workspace=workspace,
            reason=why,
            detail={"kind": kind, "title": title, "effective_at": _iso(effective_at)},
        )
        event_record(workspace=workspace, type="change.created", data=answers.change_answer(entry))
    return entry


# --- Ad spend ------------------------------------------------------------------------------


def ad_spend_write(*, workspace, actor: Actor, data: dict):
    """Write one ad spend record (made, or replaced when its id is known) with its audit
    event, in one transaction. Returns (record, created)."""
    values = {key: value for key, value in data.items() if key not in ("id", "currency")}
    with transaction.atomic():
        try:
            spend, created = ad_spend_upsert(workspace=workspace, external_id=data["id"], **values)
        except RecordInvalid as error:
            raise InvalidField(error.field, f"{error.field}: {error.message}") from None
        audit_record(
            actor=actor,
            action="ad_spend.created" if created else "ad_spend.replaced",
            target_type="ad_spend",
            target_id=spend.pk,
            workspace=workspace,
            detail={
                "id": spend.external_id,
                "date": spend.date.isoformat(),
                "platform": spend.platform,
                "amount": spend.amount,
            },
        )
    return spend, created


# --- Drafts --------------------------------------------------------------------------------


def _draft_references_check(*, workspace, member, form: str, fields: dict) -> None:
    """A post-call draft names a call of this workspace that its member holds a slot on."""
    if form != Draft.Form.POST_CALL or "call_id" not in fields:
        return
    call = Call.objects.filter(workspace=workspace, pk=fields["call_id"]).first()
    if call is None:
        raise InvalidField("fields.call_id", "fields.call_id: no call of this workspace has it.")
    if member.pk not in (call.closer_id, call.setter_id):
        raise InvalidField(
            "fields.call_id",
            "fields.call_id: the draft's member holds neither the closer nor the setter slot "
            "of this call.",
        )


def draft_create(
    *, workspace, actor: Actor, member, form: str, fields: dict, checked: dict
) -> Draft:
    """Propose a form for member to check: `fields` as given, `checked` as the view read
    them (money members refused already)."""
    _draft_references_check(workspace=workspace, member=member, form=form, fields=checked)
    with transaction.atomic():
        draft = Draft.objects.create(
            workspace=workspace, member=member, form=form, fields=fields, **_created_by(actor)
        )
        audit_record(
            actor=actor,
            action="draft.created",
            target_type="draft",
            target_id=draft.pk,
            workspace=workspace,
            detail={"form": form, "member_id": str(member.pk)},
        )
    return draft


# --- Forms ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaleFiled:
    sale: Sale
    instalments: list[Instalment]
    payment: Payment | None
    cash: int


@dataclass
class Filing:
    """What one filing of a form wrote, for the view to answer; or, for a second filing
    with the same submission_id, the first filing's kept answer (`earlier`)."""

    form: str
    member: Member
    submission_id: object = None
    draft: Draft | None = None
    earlier: FormSubmission | None = None
    filed_at: datetime | None = None
    call: Call | None = None
    outcome: Outcome | None = None
    sale: SaleFiled | None = None
    lead: Lead | None = None
    lead_created: bool = False
    platform: str = ""
    report: EodReport | None = None
    edited: bool = False


def _filing_open(*, workspace, member, form: str, submission_id, draft) -> Filing:
    """Within the filing's transaction: the first filing with this submission_id (then
    `earlier` is set), else a new Filing holding its draft, locked and checked open."""
    filing = Filing(form=form, member=member, submission_id=submission_id)
    if submission_id is not None:
        advisory_lock(f"form-submission:{workspace.pk}:{submission_id}")
        earlier = FormSubmission.objects.filter(
            workspace=workspace, submission_id=submission_id
        ).first()
        if earlier is not None:
            if earlier.member_id != member.pk or earlier.form != form:
                raise Unprocessable(
                    "This submission_id was used for another filing; use a new one.",
                    reason="refused.submission_id_reused",
                    field="submission_id",
                )
            filing.earlier = earlier
            return filing
    if draft is not None:
        draft = Draft.objects.select_for_update().get(pk=draft.pk)
        if draft.form != form:
            raise InvalidField("draft_id", f"draft_id: this draft is for the {draft.form} form.")
        if draft.status != Draft.Status.OPEN:
            raise Conflict(
                "This draft was filed already; file without draft_id or check another.",
                reason="refused.draft_closed",
                field="draft_id",
            )
        filing.draft = draft
    return filing


def _filing_close(*, workspace, actor: Actor, filing: Filing) -> Filing:
    """Mark the filing's time, and close the draft it checks."""
    filing.filed_at = timezone.now()
    draft = filing.draft
    if draft is not None:
        draft.status = Draft.Status.FILED
        draft.filed_at = timezone.now()
        draft.save(update_fields=["status", "filed_at"])
        audit_record(
            actor=actor,
            action="draft.filed",
            target_type="draft",
            target_id=draft.pk,
            workspace=workspace,
            detail={
                "form": filing.form,
                "submission_id": str(filing.submission_id) if filing.submission_id else None,
            },
        )
    return filing


def form_answer_keep(*, workspace, filing: Filing, status_code: int, body: dict) -> None:
    """Keep a filing's answer under its submission_id, for a second filing to answer it.
    Runs in the filing's transaction (the request's write)."""
    if filing.submission_id is None or filing.earlier is not None:
        return
    FormSubmission.objects.create(
        workspace=workspace,
        member=filing.member,
        form=filing.form,
        submission_id=filing.submission_id,
        status_code=status_code,
        response=body,
    )


def _sale_file(*, workspace, lead, call, origin, closed_at, closer, setter, data) -> SaleFiled:
    """A sale with its instalments and a succeeded payment for the cash collected."""
    touched: set = set()
    sale, _created = sale_upsert(
        workspace=workspace,
        external_id=None,
        lead=lead,
        call=call,
        origin=origin,
        closed_at=closed_at,
        closer=closer,
        setter=setter,
        contract_value=data["contract_value"],
        payment_plan=data.get("payment_plan", ""),
        instalments=[(item["due_date"], item["amount"]) for item in data.get("instalments", [])],
        touched=touched,
    )
    payment = None
    cash = data.get("cash_collected", 0)
    if cash > 0:
        payment, _created = payment_upsert(
            workspace=workspace,
            external_id=None,
            sale=sale,
            paid_at=closed_at,
            amount=cash,
            status=Payment.Status.SUCCEEDED,
            touched=touched,
        )
    leads_sales_refresh(workspace=workspace, lead_ids=touched)
    instalments = [
        Instalment(sale=sale, due_date=item["due_date"], amount=item["amount"])
        for item in data.get("instalments", [])
    ]
    return SaleFiled(sale=sale, instalments=instalments, payment=payment, cash=cash)


def form_post_call_file(
    *, workspace, member, actor: Actor, call: Call, data: dict, draft=None
) -> Filing:
    """File what happened on a booked call the member holds the closer or setter slot of."""
    with transaction.atomic():
        filing = _filing_open(
            workspace=workspace,
            member=member,
            form=Draft.Form.POST_CALL,
            submission_id=data["submission_id"],
            draft=draft,
        )
        if filing.earlier is not None:
            return filing
        locked = Call.objects.select_for_update().get(pk=call.pk)
        if locked.status == Call.Status.CANCELLED:
            raise InvalidField("call_id", "call_id: this call was cancelled.")
        if locked.replaced:
            raise InvalidField(
                "call_id", "call_id: this call was rescheduled; file on the call that replaced it."
            )
        now = timezone.now()
        call_attendance_record(
            workspace=workspace,
            call=locked,
            attendance=data["attendance"],
            offer_made=data.get("offer_made"),
        )
        if "outcome" in data:
            # The writer keeps the call's outcome: the result of its latest outcome.
            filing.outcome, _created = outcome_upsert(
                workspace=workspace,
                external_id=None,
                call=locked,
                member=member,
                result=data["outcome"],
                offer_made=data.get("offer_made"),
                reason=data.get("reason", ""),
                notes=data.get("notes", ""),
                at=now,
            )
            locked.refresh_from_db(fields=["outcome", "offer_made"])
        if "contract_value" in data:
            filing.sale = _sale_file(
                workspace=workspace,
                lead=locked.lead,
                call=locked,
                origin=Sale.Origin.CALL,
                closed_at=now,
                closer=locked.closer,
                setter=locked.setter,
                data=data,
            )
        filing.call = locked
        audit_record(
            actor=actor,
            action="form.post_call.filed",
            target_type="call",
            target_id=locked.pk,
            workspace=workspace,
            reason=data.get("reason", ""),
            detail={
                "submission_id": str(data["submission_id"]),
                "attendance": locked.attendance,
                "outcome_id": str(filing.outcome.pk) if filing.outcome else None,
                "sale_id": str(filing.sale.sale.pk) if filing.sale else None,
            },
        )
        return _filing_close(workspace=workspace, actor=actor, filing=filing)


def _lead_resolve(*, workspace, lead_ref: dict, lead, at, setter=None) -> tuple[Lead, bool]:
    """The lead named by id (already looked up), or found by email, or made now."""
    if lead is not None:
        return lead, False
    email = lead_ref["email"].strip().lower()
    advisory_lock(f"lead-email:{workspace.pk}:{email}")
    found = (
        Lead.objects.filter(workspace=workspace, email__iexact=email).order_by("created_at").first()
    )
    if found is not None:
        return found, False
    return lead_upsert(
        workspace=workspace,
        external_id=None,
        name=lead_ref.get("name", ""),
        email=email,
        created_at=min(at, timezone.now()),
        setter=setter,
    )


def form_past_call_file(
    *, workspace, member, actor: Actor, lead=None, data: dict, draft=None
) -> Filing:
    """File a call that happened with no booking: an outcome (and a sale) on the lead."""
    _not_in_future("occurred_at", data["occurred_at"])
    with transaction.atomic():
        filing = _filing_open(
            workspace=workspace,
            member=member,
            form=Draft.Form.PAST_CALL,
            submission_id=data["submission_id"],
            draft=draft,
        )
        if filing.earlier is not None:
            return filing
        occurred_at = data["occurred_at"]
        filing.lead, filing.lead_created = _lead_resolve(
            workspace=workspace, lead_ref=data["lead"], lead=lead, at=occurred_at
        )
        filing.outcome, _created = outcome_upsert(
            workspace=workspace,
            external_id=None,
            call=None,
            lead=filing.lead,
            member=member,
            result=data["outcome"],
            offer_made=data.get("offer_made"),
            reason=data.get("reason", ""),
            notes=data.get("notes", ""),
            at=occurred_at,
        )
        if "contract_value" in data:
            filing.sale = _sale_file(
                workspace=workspace,
                lead=filing.lead,
                call=None,
                origin=Sale.Origin.PAST_CALL,
                closed_at=occurred_at,
                closer=member,
                setter=filing.lead.setter,
                data=data,
            )
        audit_record(
            actor=actor,
            action="form.past_call.filed",
            target_type="outcome",
            target_id=filing.outcome.pk,
            workspace=workspace,
            reason=data.get("reason", ""),
            detail={
                "submission_id": str(data["submission_id"]),
                "lead_id": str(filing.lead.pk),
                "lead_created": filing.lead_created,
                "sale_id": str(filing.sale.sale.pk) if filing.sale else None,
            },
        )
        return _filing_close(workspace=workspace, actor=actor, filing=filing)


def form_dm_close_file(
    *, workspace, member, actor: Actor, lead=None, data: dict, draft=None
) -> Filing:
    """File a sale agreed over messages, with no call; the member holds its setter slot."""
    _not_in_future("closed_at", data["closed_at"])
    with transaction.atomic():
        filing = _filing_open(
            workspace=workspace,
            member=member,
            form=Draft.Form.DM_CLOSE,
            submission_id=data["submission_id"],
            draft=draft,
        )
        if filing.earlier is not None:
            return filing
        closed_at = data["closed_at"]
        filing.lead, filing.lead_created = _lead_resolve(
            workspace=workspace, lead_ref=data["lead"], lead=lead, at=closed_at, setter=member
        )
        filing.platform = data["platform"]
        filing.sale = _sale_file(
            workspace=workspace,
            lead=filing.lead,
            call=None,
            origin=Sale.Origin.DM,
            closed_at=closed_at,
            closer=None,
            setter=member,
            data=data,
        )
        audit_record(
            actor=actor,
            action="form.dm_close.filed",
            target_type="sale",
            target_id=filing.sale.sale.pk,
            workspace=workspace,
            detail={
                "submission_id": str(data["submission_id"]),
                "lead_id": str(filing.lead.pk),
                "lead_created": filing.lead_created,
                "platform": data["platform"],
            },
        )
        return _filing_close(workspace=workspace, actor=actor, filing=filing)


def form_eod_file(*, workspace, member, actor: Actor, data: dict, draft=None) -> Filing:
    """File the member's end-of-day report; a second filing for the day edits the first."""
    today = local_today(workspace)
    day = data.get("date") or today
    if day > today:
        raise InvalidField("date", "date is after today in the workspace's timezone.")
    with transaction.atomic():
        filing = _filing_open(
            workspace=workspace,
            member=member,
            form=Draft.Form.EOD,
            submission_id=data.get("submission_id"),
            draft=draft,
        )
        if filing.earlier is not None:
            return filing
        advisory_lock(f"eod:{member.pk}:{day.isoformat()}")
        report, created = eod_upsert(
            workspace=workspace,
            external_id=None,
            member=member,
            date=day,
            submitted_at=timezone.now(),
            fields=data["fields"],
        )
        filing.report, filing.edited = report, not created
        audit_record(
            actor=actor,
            action="form.eod.edited" if filing.edited else "form.eod.filed",
            target_type="eod_report",
            target_id=report.pk,
            workspace=workspace,
            detail={"date": day.isoformat(), "fields": sorted(data["fields"])},
        )
        return _filing_close(workspace=workspace, actor=actor, filing=filing)
