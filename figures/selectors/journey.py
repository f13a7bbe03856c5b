"""/leads/{id}/journey: everything held about one lead, in time order."""

from __future__ import annotations

from collections import namedtuple

from django.db.models import (
    BigIntegerField,
    BooleanField,
    CharField,
    DateTimeField,
    F,
    IntegerField,
    Q,
    UUIDField,
    Value,
)
from django.db.models.functions import Cast

from core.compiled import CompiledQuery
from core.errors import NotFound
from core.ids import parse_uuid
from core.times import instant_parse, utc_iso
from workspaces import contact
from workspaces.identifiers import IDENTIFIERS
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
from .base import Figures, member_ref_of
from .leads import lead_row

# --- the records, in one statement ----------------------------------------------------------

# Every kind of record the journey shows, as rows of the same columns: which kind (its
# place in KINDS), its moment and up to two more, two ids, two texts, an amount, a flag and
# up to two members. Each kind names the columns it fills (by a field's name, or an
# expression); the others are null.
COLUMNS = {
    "kind": IntegerField(),
    "at": DateTimeField(),
    "at_b": DateTimeField(),
    "at_c": DateTimeField(),
    "id_a": UUIDField(),
    "id_b": UUIDField(),
    "text_a": CharField(),
    "text_b": CharField(),
    "number": BigIntegerField(),
    "flag": BooleanField(),
    "m1": UUIDField(),
    "m1_name": CharField(),
    "m1_email": CharField(),
    "m2": UUIDField(),
    "m2_name": CharField(),
    "m2_email": CharField(),
}


# A row of the records' statement, its values by COLUMNS' names.
Record = namedtuple("Record", COLUMNS)


def _member(slot: str, relation: str) -> dict[str, str]:
    return {
        slot: relation,
        f"{slot}_name": f"{relation}__name",
        f"{slot}_email": f"{relation}__email",
    }


def _touches(workspace, lead):
    """A touch, with why it is not a first contact (null when it is one)."""
    records = Touch.objects.filter(workspace=workspace, lead=lead)
    return records, {
        "at": "at",
        "text_a": "channel",
        "text_b": contact.not_counted_reason(),
        **_member("m1", "member"),
    }


def _registrations(workspace, lead):
    records = Registration.objects.filter(workspace=workspace, lead=lead)
    return records, {
        "at": "registered_at",
        "at_b": "joined_at",
        "at_c": "left_at",
        "id_a": "event",
        "text_a": "event__name",
    }


def _calls(workspace, lead):
    records = Call.objects.filter(workspace=workspace, lead=lead)
    return records, {
        "at": "booked_at",
        "at_b": "scheduled_for",
        "id_a": "pk",
        "id_b": "rescheduled_from",
        "text_a": "status",
        "text_b": "attendance",
        "flag": "replaced",
        **_member("m1", "closer"),
        **_member("m2", "setter"),
    }


_OUTCOME = {
    "at": "at",
    "id_a": "call",
    "text_a": "result",
    "text_b": "reason",
    "flag": "offer_made",
    **_member("m1", "member"),
}


def _outcomes_by_lead(workspace, lead):
    """Outcomes that name the lead: past-call forms, and most outcomes of its calls."""
    return Outcome.objects.filter(workspace=workspace, lead=lead), _OUTCOME


def _outcomes_by_call(workspace, lead):
    """Outcomes of the lead's calls that do not name the lead (the model allows it)."""
    records = Outcome.objects.filter(
        ~Q(lead=lead) | Q(lead__isnull=True),
        workspace=workspace,
        call__workspace=workspace,
        call__lead=lead,
    )
    return records, _OUTCOME


def _sales(workspace, lead):
    records = Sale.objects.filter(workspace=workspace, lead=lead)
    return records, {
        "at": "closed_at",
        "id_a": "pk",
        "text_a": "origin",
        "number": "contract_value",
        **_member("m1", "closer"),
        **_member("m2", "setter"),
    }


def _payments(workspace, lead):
    records = Payment.objects.filter(workspace=workspace, sale__lead=lead)
    return records, {
        "at": "paid_at",
        "id_a": "pk",
        "id_b": "sale",
        "text_a": "status",
        "number": "amount",
    }


def _refunds(workspace, lead):
    records = Refund.objects.filter(workspace=workspace, sale__lead=lead)
    return records, {
        "at": "at",
        "id_a": "payment",
        "id_b": "sale",
        "text_a": "kind",
        "number": "amount",
    }


def _funnel_events(workspace, lead):
    records = FunnelEvent.objects.filter(workspace=workspace, lead=lead)
    return records, {"at": "at", "text_a": "funnel__key", "text_b": "stage__key"}


def _as_rows(kind: int, records, named: dict[str, str]):
    columns = {
        f"j_{name}": (
            Value(kind, output_field=field)
            if name == "kind"
            else (F(named[name]) if isinstance(named[name], str) else named[name])
            if name in named
            # Typed: PostgreSQL would read a bare NULL as text.
            else Cast(Value(None), output_field=field)
        )
        for name, field in COLUMNS.items()
    }
    return records.order_by().annotate(**columns).values_list(*columns)


def _journey_query(*, part: str, workspace, lead):
    """The lead's row ("lead"), or every record about the lead as rows of COLUMNS, each
    kind's records in one UNION ALL ("records")."""
    if part == "lead":
        leads = Lead.objects.filter(workspace=workspace, pk=lead).select_related("setter")
        # As .first() reads it.
        return (leads if leads.ordered else leads.order_by("pk"))[:1]
    first, *rest = (_as_rows(n, *read(workspace, lead)) for n, (read, _events) in enumerate(KINDS))
    return first.union(*rest, all=True)


journey_query = CompiledQuery(
    _journey_query, params={"workspace": UUIDField(), "lead": UUIDField()}, model=Lead
)


# --- the events ------------------------------------------------------------------------------


def lead_journey(*, workspace, lead_id) -> Figures:
    """Everything held about one lead, in time order; 404 for another workspace's lead."""
    lead_uuid = parse_uuid(lead_id)
    if lead_uuid is None:
        raise NotFound("No lead of this workspace has that id.")
    found = journey_query(part="lead", workspace=workspace.pk, lead=lead_uuid)
    if not found:
        raise NotFound("No lead of this workspace has that id.")
    lead = found[0]

    records = [
        Record(*row) for row in journey_query(part="records", workspace=workspace.pk, lead=lead.pk)
    ]
    # Kind by kind, in the order of KINDS (each kind's records as the database gives them).
    records.sort(key=lambda record: record.kind)
    events: list[dict] = [{"at": utc_iso(lead.created_at), "type": "lead.created"}]
    for record in records:
        _read, kind_events = KINDS[record.kind]
        events.extend(kind_events(record, workspace))
    # Stable: events at the same moment keep the order above.
    events.sort(key=lambda event: instant_parse(event["at"]))
    # Which identifiers the ad platforms may know the lead by; never their values.
    identifiers = [name for name in IDENTIFIERS if getattr(lead, name)]
    return Figures({"lead": lead_row(lead), "identifiers": identifiers, "events": events})


def _first_member(record: Record) -> dict | None:
    return member_ref_of(record.m1, record.m1_name, record.m1_email)


def _second_member(record: Record) -> dict | None:
    return member_ref_of(record.m2, record.m2_name, record.m2_email)


def _touch_events(record: Record, workspace) -> list[dict]:
    """A touch, and whether it counts as a first contact (workspaces.contact); when not,
    why, in words."""
    return [
        {
            "at": utc_iso(record.at),
            "type": "touch",
            "channel": record.text_a,
            "member": _first_member(record),
            "counts_as_first_contact": record.text_b is None,
            "not_first_contact_reason": record.text_b,
        }
    ]


def _webinar_events(record: Record, workspace) -> list[dict]:
    """A registration, and the joining and leaving of one who came."""
    event_ref = {"id": str(record.id_a), "name": record.text_a}
    events = [{"at": utc_iso(record.at), "type": "webinar.registered", "event": event_ref}]
    if record.at_b:
        events.append({"at": utc_iso(record.at_b), "type": "webinar.joined", "event": event_ref})
    if record.at_c:
        events.append({"at": utc_iso(record.at_c), "type": "webinar.left", "event": event_ref})
    return events


def _call_events(record: Record, workspace) -> list[dict]:
    """A call's booking (or rescheduling), then its cancellation or attendance; a call
    replaced by a rescheduled one shows only its booking."""
    scheduled_for, status, attendance = utc_iso(record.at_b), record.text_a, record.text_b
    ref = {
        "id": str(record.id_a),
        "scheduled_for": scheduled_for,
        "closer": _first_member(record),
        "setter": _second_member(record),
    }
    booking = {"at": utc_iso(record.at), "type": "call.booked", "call": ref}
    if record.id_b:
        booking = {**booking, "type": "call.rescheduled", "rescheduled_from": str(record.id_b)}
    events = [booking]
    if status == Call.Status.CANCELLED:
        events.append({"at": scheduled_for, "type": "call.cancelled", "call": ref})
    elif attendance and not record.flag:
        events.append({"at": scheduled_for, "type": f"call.{attendance}", "call": ref})
    return events


def _outcome_events(record: Record, workspace) -> list[dict]:
    return [
        {
            "at": utc_iso(record.at),
            "type": "outcome",
            "result": record.text_a,
            "reason": record.text_b,
            "offer_made": record.flag,
            "call_id": str(record.id_a) if record.id_a else None,
            "member": _first_member(record),
        }
    ]


def _sale_events(record: Record, workspace) -> list[dict]:
    return [
        {
            "at": utc_iso(record.at),
            "type": "sale",
            "sale_id": str(record.id_a),
            "origin": record.text_a,
            "contract_value": fields.major_units(record.number, workspace),
            "currency": workspace.currency,
            "closer": _first_member(record),
            "setter": _second_member(record),
        }
    ]


def _payment_events(record: Record, workspace) -> list[dict]:
    return [
        {
            "at": utc_iso(record.at),
            "type": "payment",
            "payment_id": str(record.id_a),
            "sale_id": str(record.id_b),
            "status": record.text_a,
            "amount": fields.major_units(record.number, workspace),
            "currency": workspace.currency,
        }
    ]


def _refund_events(record: Record, workspace) -> list[dict]:
    """A refund or a chargeback, typed by its kind."""
    return [
        {
            "at": utc_iso(record.at),
            "type": record.text_a,
            "payment_id": str(record.id_a),
            "sale_id": str(record.id_b),
            "amount": fields.major_units(record.number, workspace),
            "currency": workspace.currency,
        }
    ]


def _funnel_stage_events(record: Record, workspace) -> list[dict]:
    return [
        {
            "at": utc_iso(record.at),
            "type": "funnel.stage",
            "funnel": record.text_a,
            "stage": record.text_b,
        }
    ]


# Each kind of record: how it is read, and the events it shows; in the order the journey
# lists records of the same moment.
KINDS = (
    (_touches, _touch_events),
    (_registrations, _webinar_events),
    (_calls, _call_events),
    (_outcomes_by_lead, _outcome_events),
    (_outcomes_by_call, _outcome_events),
    (_sales, _sale_events),
    (_payments, _payment_events),
    (_refunds, _refund_events),
    (_funnel_events, _funnel_stage_events),
)
