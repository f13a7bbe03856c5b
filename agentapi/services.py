"""Writes of the agent API: change-log entries, drafts and the four sales forms.

Each service is one transaction that also records its audit event. Forms write the real
sales records (calls, outcomes, sales, instalments, payments, EOD reports) and keep the
invariants of workspaces/models.py: Call.outcome is the result of the call's latest
Outcome. A form is filed once per submission_id: a second filing answers the first answer.
"""

from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.errors import Conflict, InvalidField, Unprocessable
from core.locks import advisory_key
from core.times import utc_iso as _iso
from workspaces.models import Call, EodReport, Instalment, Lead, Outcome, Payment, Sale
from workspaces.services import calls_outcome_refresh, leads_sales_refresh

from .models import ChangeLogEntry, Draft, FormSubmission
from .serializers import DRAFT_FIELD_SERIALIZERS, money_major, validated

# A filed time may run this far ahead of the server's clock (the caller's clock may be fast).
CLOCK_LEEWAY = timedelta(minutes=5)


@dataclass(frozen=True)
class FiledForm:
    """The answer of a filing: its status, its body, and whether it repeats the first."""

    status_code: int
    body: dict
    replayed: bool = False


def _serialize_on(name: str) -> None:
    """Make concurrent transactions that name the same thing wait for each other.

    PostgreSQL: a transaction-level advisory lock. SQLite runs one writer at a time.
    """
    if connection.vendor != "postgresql":
        return
    lock_id = advisory_key(name)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id])


def _created_by(actor: Actor) -> dict:
    return {
        "created_by_kind": actor.kind,
        "created_by_id": str(actor.id or ""),
        "created_by_label": (actor.label or "")[:200],
    }


def _not_in_future(field: str, moment) -> None:
    if moment > timezone.now() + CLOCK_LEEWAY:
        raise InvalidField(field, f"{field} is in the future; give when it happened.")


def workspace_today(workspace):
    return timezone.now().astimezone(ZoneInfo(workspace.timezone)).date()


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
    return entry


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


def draft_create(*, workspace, actor: Actor, member, form: str, fields: dict) -> Draft:
    """Propose a form for member to check. The caller has refused money members already."""
    checked = validated(
        DRAFT_FIELD_SERIALIZERS[form],
        fields,
        context={
            "draft": True,
            "exponent": workspace.currency_exponent,
            "currency": workspace.currency,
        },
        prefix="fields",
        partial=True,
    )
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


def _file_once(*, workspace, member, actor: Actor, form: str, submission_id, draft, write):
    """Run write() once per submission_id, closing the draft it checks; see FiledForm."""
    with transaction.atomic():
        if submission_id is not None:
            _serialize_on(f"form-submission:{workspace.pk}:{submission_id}")
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
                return FiledForm(earlier.status_code, earlier.response, replayed=True)
        if draft is not None:
            draft = Draft.objects.select_for_update().get(pk=draft.pk)
            if draft.form != form:
                raise InvalidField(
                    "draft_id", f"draft_id: this draft is for the {draft.form} form."
                )
            if draft.status != Draft.Status.OPEN:
                raise Conflict(
                    "This draft was filed already; file without draft_id or check another.",
                    reason="refused.draft_closed",
                    field="draft_id",
                )
        status_code, body = write()
        body = {
            "form": form,
            "submission_id": str(submission_id) if submission_id else None,
            "member_id": str(member.pk),
            "filed_at": _iso(timezone.now()),
            "draft_id": str(draft.pk) if draft else None,
            **body,
        }
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
                detail={"form": form, "submission_id": body["submission_id"]},
            )
        if submission_id is not None:
            FormSubmission.objects.create(
                workspace=workspace,
                member=member,
                form=form,
                submission_id=submission_id,
                status_code=status_code,
                response=body,
            )
    return FiledForm(status_code, body)


def _sale_create(*, workspace, lead, call, origin, closed_at, closer, setter, data, paid_at):
    sale = Sale.objects.create(
        workspace=workspace,
        lead=lead,
        call=call,
        origin=origin,
        closed_at=closed_at,
        closer=closer,
        setter=setter,
        contract_value=data["contract_value"],
        payment_plan=data.get("payment_plan", ""),
    )
    instalments = Instalment.objects.bulk_create(
        Instalment(sale=sale, due_date=item["due_date"], amount=item["amount"])
        for item in data.get("instalments", [])
    )
    payment = None
    cash = data.get("cash_collected", 0)
    if cash > 0:
        payment = Payment.objects.create(
            workspace=workspace,
            sale=sale,
            paid_at=paid_at,
            amount=cash,
            status=Payment.Status.SUCCEEDED,
            closer=closer,
            setter=setter,
        )
    leads_sales_refresh(workspace=workspace, lead_ids=[lead.pk])
    exponent = workspace.currency_exponent
    return sale, {
        "id": str(sale.pk),
        "origin": sale.origin,
        "lead_id": str(lead.pk),
        "call_id": str(call.pk) if call else None,
        "closer_id": str(closer.pk) if closer else None,
        "setter_id": str(setter.pk) if setter else None,
        "closed_at": _iso(closed_at),
        "currency": workspace.currency,
        "contract_value": money_major(sale.contract_value, exponent),
        "cash_collected": money_major(cash, exponent),
        "payment_id": str(payment.pk) if payment else None,
        "payment_plan": sale.payment_plan,
        "instalments": [
            {"due_date": item.due_date.isoformat(), "amount": money_major(item.amount, exponent)}
            for item in instalments
        ],
    }


def _outcome_answer(outcome: Outcome) -> dict:
    return {
        "id": str(outcome.pk),
        "result": outcome.result,
        "offer_made": outcome.offer_made,
        "reason": outcome.reason,
        "at": _iso(outcome.at),
    }


def form_post_call_file(
    *, workspace, member, actor: Actor, call: Call, data: dict, draft=None
) -> FiledForm:
    """File what happened on a booked call the member holds the closer or setter slot of."""

    def write():
        locked = Call.objects.select_for_update().get(pk=call.pk)
        if locked.status == Call.Status.CANCELLED:
            raise InvalidField("call_id", "call_id: this call was cancelled.")
        if locked.replaced:
            raise InvalidField(
                "call_id", "call_id: this call was rescheduled; file on the call that replaced it."
            )
        now = timezone.now()
        locked.attendance = data["attendance"]
        if "offer_made" in data:
            locked.offer_made = data["offer_made"]
        outcome = sale_answer = None
        if "outcome" in data:
            outcome = Outcome.objects.create(
                workspace=workspace,
                call=locked,
                lead_id=locked.lead_id,
                member=member,
                result=data["outcome"],
                offer_made=data.get("offer_made"),
                reason=data.get("reason", ""),
                notes=data.get("notes", ""),
                at=now,
            )
        locked.save(update_fields=["attendance", "offer_made"])
        if outcome is not None:
            # One definition of "the call's latest outcome", shared with the import.
            calls_outcome_refresh(workspace=workspace, call_ids=[locked.pk])
            locked.refresh_from_db(fields=["outcome", "offer_made"])
        if "contract_value" in data:
            sale, sale_answer = _sale_create(
                workspace=workspace,
                lead=locked.lead,
                call=locked,
                origin=Sale.Origin.CALL,
                closed_at=now,
                closer=locked.closer,
                setter=locked.setter,
                data=data,
                paid_at=now,
            )
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
                "outcome_id": str(outcome.pk) if outcome else None,
                "sale_id": sale_answer["id"] if sale_answer else None,
            },
        )
        return 201, {
            "call": {
                "id": str(locked.pk),
                "attendance": locked.attendance,
                "offer_made": locked.offer_made,
                "outcome": locked.outcome,
            },
            "outcome": _outcome_answer(outcome) if outcome else None,
            "sale": sale_answer,
        }

    return _file_once(
        workspace=workspace,
        member=member,
        actor=actor,
        form=Draft.Form.POST_CALL,
        submission_id=data["submission_id"],
        draft=draft,
        write=write,
    )


def _lead_resolve(*, workspace, lead_ref: dict, lead, at, setter=None) -> tuple[Lead, bool]:
    """The lead named by id (already looked up), or found by email, or made now."""
    if lead is not None:
        return lead, False
    email = lead_ref["email"].strip().lower()
    _serialize_on(f"lead-email:{workspace.pk}:{email}")
    found = (
        Lead.objects.filter(workspace=workspace, email__iexact=email).order_by("created_at").first()
    )
    if found is not None:
        return found, False
    created = Lead.objects.create(
        workspace=workspace,
        name=lead_ref.get("name", ""),
        email=email,
        created_at=min(at, timezone.now()),
        setter=setter,
    )
    return created, True


def _lead_answer(lead: Lead, created: bool) -> dict:
    return {"id": str(lead.pk), "name": lead.name, "email": lead.email, "created": created}


def form_past_call_file(
    *, workspace, member, actor: Actor, lead=None, data: dict, draft=None
) -> FiledForm:
    """File a call that happened with no booking: an outcome (and a sale) on the lead."""
    _not_in_future("occurred_at", data["occurred_at"])

    def write():
        occurred_at = data["occurred_at"]
        the_lead, created = _lead_resolve(
            workspace=workspace, lead_ref=data["lead"], lead=lead, at=occurred_at
        )
        outcome = Outcome.objects.create(
            workspace=workspace,
            call=None,
            lead=the_lead,
            member=member,
            result=data["outcome"],
            offer_made=data.get("offer_made"),
            reason=data.get("reason", ""),
            notes=data.get("notes", ""),
            at=occurred_at,
        )
        sale_answer = None
        if "contract_value" in data:
            _sale, sale_answer = _sale_create(
                workspace=workspace,
                lead=the_lead,
                call=None,
                origin=Sale.Origin.PAST_CALL,
                closed_at=occurred_at,
                closer=member,
                setter=the_lead.setter,
                data=data,
                paid_at=occurred_at,
            )
        audit_record(
            actor=actor,
            action="form.past_call.filed",
            target_type="outcome",
            target_id=outcome.pk,
            workspace=workspace,
            reason=data.get("reason", ""),
            detail={
                "submission_id": str(data["submission_id"]),
                "lead_id": str(the_lead.pk),
                "lead_created": created,
                "sale_id": sale_answer["id"] if sale_answer else None,
            },
        )
        return 201, {
            "lead": _lead_answer(the_lead, created),
            "outcome": _outcome_answer(outcome),
            "sale": sale_answer,
        }

    return _file_once(
        workspace=workspace,
        member=member,
        actor=actor,
        form=Draft.Form.PAST_CALL,
        submission_id=data["submission_id"],
        draft=draft,
        write=write,
    )


def form_dm_close_file(
    *, workspace, member, actor: Actor, lead=None, data: dict, draft=None
) -> FiledForm:
    """File a sale agreed over messages, with no call; the member holds its setter slot."""
    _not_in_future("closed_at", data["closed_at"])

    def write():
        closed_at = data["closed_at"]
        the_lead, created = _lead_resolve(
            workspace=workspace, lead_ref=data["lead"], lead=lead, at=closed_at, setter=member
        )
        sale, sale_answer = _sale_create(
            workspace=workspace,
            lead=the_lead,
            call=None,
            origin=Sale.Origin.DM,
            closed_at=closed_at,
            closer=None,
            setter=member,
            data=data,
            paid_at=closed_at,
        )
        audit_record(
            actor=actor,
            action="form.dm_close.filed",
            target_type="sale",
            target_id=sale.pk,
            workspace=workspace,
            detail={
                "submission_id": str(data["submission_id"]),
                "lead_id": str(the_lead.pk),
                "lead_created": created,
                "platform": data["platform"],
            },
        )
        return 201, {
            "lead": _lead_answer(the_lead, created),
            "platform": data["platform"],
            "sale": sale_answer,
        }

    return _file_once(
        workspace=workspace,
        member=member,
        actor=actor,
        form=Draft.Form.DM_CLOSE,
        submission_id=data["submission_id"],
        draft=draft,
        write=write,
    )


def form_eod_file(*, workspace, member, actor: Actor, data: dict, draft=None) -> FiledForm:
    """File the member's end-of-day report; a second filing for the day edits the first."""
    today = workspace_today(workspace)
    day = data.get("date") or today
    if day > today:
        raise InvalidField("date", "date is after today in the workspace's timezone.")

    def write():
        _serialize_on(f"eod:{member.pk}:{day.isoformat()}")
        now = timezone.now()
        report = EodReport.objects.filter(member=member, date=day).first()
        edited = report is not None
        if edited:
            report.fields = data["fields"]
            report.submitted_at = now
            report.save(update_fields=["fields", "submitted_at"])
        else:
            report = EodReport.objects.create(
                workspace=workspace,
                member=member,
                date=day,
                submitted_at=now,
                fields=data["fields"],
            )
        audit_record(
            actor=actor,
            action="form.eod.edited" if edited else "form.eod.filed",
            target_type="eod_report",
            target_id=report.pk,
            workspace=workspace,
            detail={"date": day.isoformat(), "fields": sorted(data["fields"])},
        )
        return (200 if edited else 201), {
            "edited": edited,
            "report": {
                "id": str(report.pk),
                "date": day.isoformat(),
                "submitted_at": _iso(now),
                "fields": report.fields,
            },
        }

    return _file_once(
        workspace=workspace,
        member=member,
        actor=actor,
        form=Draft.Form.EOD,
        submission_id=data.get("submission_id"),
        draft=draft,
        write=write,
    )
