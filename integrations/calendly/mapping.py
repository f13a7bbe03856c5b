"""Calendly events to records: an invitee is a lead and a call.

Every record is written through the workspace's writers. The call's external id is the
invitee's uri, so a webhook and the backfill, or a delivery and its retry, write the same
call once. The lead is found by the invitee's email; one the service makes has the
external id `calendly:<email>`.

Deliveries come in any order and the records end the same:
- `invitee.created` and `invitee.canceled` both carry the whole invitee, so either one
  writes the call; a cancellation is kept once made (Calendly never restores one);
- a reschedule is known from both sides (the new invitee's `old_invitee`, the old
  invitee's cancellation with `new_invitee`): whichever is applied second links the new
  call to the old one;
- a lead the service made takes the name, tracking and creation time of the person's
  earliest invitee;
- a no-show (or its removal) before its call is held waiting for the invitee, and the
  call's attendance is worked out from every no-show of the invitee received so far.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper

from core.times import parse_iso
from workspaces.kept import UTM_FIELDS
from workspaces.models import Call, Lead, Member
from workspaces.services import RecordInvalid, call_upsert, calls_write_many, lead_upsert

from ..base import Applied, Described, Held, Ignored
from ..models import Event


class EventType(models.TextChoices):
    """The Calendly events the service maps."""

    INVITEE_CREATED = "invitee.created"
    INVITEE_CANCELED = "invitee.canceled"
    NO_SHOW_CREATED = "invitee_no_show.created"
    NO_SHOW_DELETED = "invitee_no_show.deleted"


CREATED = EventType.INVITEE_CREATED
CANCELED = EventType.INVITEE_CANCELED
NO_SHOW_CREATED = EventType.NO_SHOW_CREATED
NO_SHOW_DELETED = EventType.NO_SHOW_DELETED
INVITEE_TYPES = (CREATED, CANCELED)
NO_SHOW_TYPES = (NO_SHOW_CREATED, NO_SHOW_DELETED)
EVENT_TYPES = (*INVITEE_TYPES, *NO_SHOW_TYPES)
LEAD_PREFIX = "calendly:"


def _uri(value) -> str:
    if isinstance(value, dict):
        value = value.get("uri")
    return value if isinstance(value, str) else ""


def invitee_of(event_type: str, body: dict) -> str:
    """The uri of the invitee an event is about.

    A no-show comes in either of two shapes: the no-show resource (`uri` the mark,
    `invitee` the invitee), or the invitee resource itself (`uri` the invitee, `no_show`
    its mark, null once removed).
    """
    if event_type in NO_SHOW_TYPES and "invitee" in body:
        return _uri(body.get("invitee"))
    return _uri(body.get("uri"))


def no_show_mark_of(body: dict) -> str:
    """The uri of the no-show mark a no-show event names ("" when it names none: an invitee
    whose mark was removed)."""
    if "invitee" in body:
        return _uri(body.get("uri"))
    return _uri(body.get("no_show"))


def _time(value) -> datetime | None:
    return parse_iso(value)


def _text(value, limit: int = 200) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _body(event: Event) -> dict:
    body = event.payload.get("payload")
    return body if isinstance(body, dict) else {}


def _lead(workspace, invitee: dict, booked_at: datetime) -> Lead:
    """The lead with the invitee's email; made (or, if the service made it, dated back to
    the person's earliest invitee) from this invitee."""
    email = _text(invitee.get("email"), 254).lower()
    tracking = invitee.get("tracking") if isinstance(invitee.get("tracking"), dict) else {}
    own_id = f"{LEAD_PREFIX}{email}"[:200]
    lead = (
        Lead.objects.filter(workspace=workspace, email__iexact=email)
        .order_by("created_at", "pk")
        .first()
    )
    if lead is not None and (lead.external_id != own_id or lead.created_at <= booked_at):
        return lead
    lead, _created = lead_upsert(
        workspace=workspace,
        external_id=own_id,
        created_at=booked_at,
        name=_text(invitee.get("name")),
        email=email,
        status=lead.status if lead is not None else "new",
        setter=lead.setter if lead is not None else None,
        **{field: _text(tracking.get(field)) for field in UTM_FIELDS},
    )
    return lead


def _closer(workspace, scheduled_event: dict) -> Member | None:
    """The member whose email hosts the event, in the order Calendly lists the hosts."""
    memberships = scheduled_event.get("event_memberships") or []
    emails = [
        _text(item.get("user_email"), 254).lower()
        for item in memberships
        if isinstance(item, dict) and _text(item.get("user_email"))
    ]
    if not emails:
        return None
    hosts = Q()
    for email in emails:
        hosts |= Q(email__iexact=email)
    members = {
        member.email.lower(): member for member in Member.objects.filter(hosts, workspace=workspace)
    }
    return next((members[email] for email in emails if email in members), None)


def _call_write(call: Call, **changes) -> Call:
    """Write an existing call again with some of its values changed."""
    values = {
        "lead": call.lead,
        "booked_at": call.booked_at,
        "scheduled_for": call.scheduled_for,
        "closer": call.closer,
        "setter": call.setter,
        "status": call.status,
        "rescheduled_from": call.rescheduled_from,
        "attendance": call.attendance,
        **changes,
    }
    written, _created = call_upsert(
        workspace=call.workspace, external_id=call.external_id, **values
    )
    return written


def _invitee(event: Event, workspace) -> Applied | Ignored:
    invitee = _body(event)
    uri = invitee_of(event.event_type, invitee)
    scheduled_event = invitee.get("scheduled_event")
    if not isinstance(scheduled_event, dict):
        scheduled_event = {}
    booked_at = _time(invitee.get("created_at"))
    scheduled_for = _time(scheduled_event.get("start_time"))
    if not uri or not _text(invitee.get("email")) or booked_at is None or scheduled_for is None:
        return Ignored("The invitee carries no uri, email, creation time or event start.")
    if len(uri) > 200:
        raise RecordInvalid("uri", "The invitee's uri is longer than 200 characters.")
    existing = (
        Call.objects.filter(workspace=workspace, external_id=uri)
        .select_related("rescheduled_from")
        .first()
    )
    lead = _lead(workspace, invitee, booked_at)
    cancelled = event.event_type == CANCELED and not invitee.get("rescheduled")
    if existing is not None and existing.status == Call.Status.CANCELLED:
        cancelled = True
    replaces = None
    old_uri = _text(invitee.get("old_invitee"), 500)
    if old_uri:
        replaces = Call.objects.filter(workspace=workspace, external_id=old_uri).first()
    if replaces is None and existing is not None:
        replaces = existing.rescheduled_from
    call, _created = call_upsert(
        workspace=workspace,
        external_id=uri,
        lead=lead,
        booked_at=booked_at,
        scheduled_for=scheduled_for,
        closer=_closer(workspace, scheduled_event),
        setter=lead.setter,
        status=Call.Status.CANCELLED if cancelled else Call.Status.SCHEDULED,
        rescheduled_from=replaces,
        attendance=existing.attendance if existing is not None else "",
    )
    records = [uri]
    # The old invitee's cancellation names the new one: link it if it came first.
    new_uri = _text(invitee.get("new_invitee"), 500)
    if event.event_type == CANCELED and invitee.get("rescheduled") and new_uri:
        replacing = Call.objects.filter(workspace=workspace, external_id=new_uri).first()
        if replacing is not None and replacing.rescheduled_from_id != call.pk:
            _call_write(replacing, rescheduled_from=call)
            records.append(new_uri)
    return Applied(records=tuple(records))


def _marked(marks) -> bool:
    """Whether a no-show mark stands: made and not removed, whatever the order the events
    came in. A removal that names no mark (the invitee's shape, `no_show: null`) removes
    every mark made until it."""
    made, removed, cleared_until = {}, set(), None
    for event_type, payload, occurred_at in marks:
        body = (payload or {}).get("payload") or {}
        mark = no_show_mark_of(body) if isinstance(body, dict) else ""
        if event_type == NO_SHOW_CREATED:
            made[mark] = occurred_at
        elif mark:
            removed.add(mark)
        elif occurred_at is not None and (cleared_until is None or occurred_at > cleared_until):
            cleared_until = occurred_at
    return any(
        mark not in removed and (cleared_until is None or (at is not None and at > cleared_until))
        for mark, at in made.items()
    )


def _no_show(event: Event, workspace) -> Applied | Held | Ignored:
    uri = invitee_of(event.event_type, _body(event))
    if not uri:
        return Ignored("The no-show names no invitee.")
    call = Call.objects.filter(workspace=workspace, external_id=uri).first()
    if call is None:
        return Held(
            Event.HoldCode.WAITING,
            f"The no-show's invitee {uri} has not arrived yet.",
            waits_for=uri,
        )
    # Every no-show of this invitee received so far, marked and removed, whatever their
    # order: the invitee is a no-show while one of its marks is not removed.
    marks = Event.objects.filter(
        connection_id=event.connection_id, object_id=uri, event_type__in=NO_SHOW_TYPES
    ).exclude(state=Event.State.DISMISSED)
    if _marked(marks.values_list("event_type", "payload", "occurred_at")):
        attendance = Call.Attendance.NO_SHOW
    elif call.attendance == Call.Attendance.NO_SHOW:
        attendance = ""
    else:
        # A removed no-show leaves an attendance a person recorded alone.
        attendance = call.attendance
    if attendance != call.attendance:
        _call_write(call, attendance=attendance)
    return Applied(records=())


def event_map(*, event: Event, connection) -> Applied | Held | Ignored:
    workspace = connection.workspace
    if event.event_type in INVITEE_TYPES:
        return _invitee(event, workspace)
    if event.event_type in NO_SHOW_TYPES:
        return _no_show(event, workspace)
    return Ignored(f"Calendly's {event.event_type} feeds no record.")


# --- The worker's fast path --------------------------------------------------------------
#
# Most of a calendar's events are bookings and cancellations of people who are leads
# already: each writes one call and no lead, so the batch's calls are written together
# (calls_write_many) with the values _invitee gives them. Left one by one: a lead to make
# or date back, a reschedule (either side), a no-show, a call that would change more than
# its status, and any invitee another event of the batch is about or names.


def _ascii_email(value) -> str:
    email = _text(value, 254).lower()
    return email if email.isascii() else ""


def _fast_invitee(event: Event) -> dict | None:
    """The event's invitee when the fast path may apply it, else None."""
    if event.event_type not in INVITEE_TYPES:
        return None
    invitee = _body(event)
    uri = invitee_of(event.event_type, invitee)
    scheduled_event = invitee.get("scheduled_event")
    if not uri or len(uri) > 200 or uri != event.object_id or not isinstance(scheduled_event, dict):
        return None
    if invitee.get("rescheduled") or invitee.get("old_invitee") or invitee.get("new_invitee"):
        return None
    if _time(invitee.get("created_at")) is None or _time(scheduled_event.get("start_time")) is None:
        return None
    hosts = scheduled_event.get("event_memberships") or []
    if not isinstance(hosts, list) or not all(isinstance(item, dict) for item in hosts):
        return None
    if any(not _text(h.get("user_email")).isascii() for h in hosts):
        return None
    return invitee if _ascii_email(invitee.get("email")) else None


def _named(events: list) -> Counter:
    """How many events of the batch are about, or name, each invitee."""
    named = Counter(event.object_id for event in events)
    for event in events:
        body = _body(event)
        for key in ("old_invitee", "new_invitee"):
            if isinstance(body.get(key), str):
                named[_text(body.get(key), 500)] += 1
    return named


def _first_leads(workspace, emails: set[str]) -> dict[str, Lead]:
    """By lower-cased email: the earliest lead with that email, as _lead finds it."""
    first: dict[str, Lead] = {}
    leads = (
        Lead.objects.with_emails(workspace, emails)
        .select_related("setter")
        .order_by("created_at", "pk")
    )
    for lead in leads:
        first.setdefault(lead.email_upper.lower(), lead)
    return first


def _hosts(workspace, invitees: list[dict]) -> dict[str, Member]:
    """By lower-cased email: the workspace's members who host one of the events."""
    emails = {
        _text(item.get("user_email"), 254).upper()
        for invitee in invitees
        for item in invitee["scheduled_event"].get("event_memberships") or []
        if _text(item.get("user_email"))
    }
    if not emails:
        return {}
    members = (
        Member.objects.filter(workspace=workspace)
        .annotate(email_upper=Upper("email"))
        .filter(email_upper__in=sorted(emails))
    )
    return {member.email.lower(): member for member in members}


def events_map_many(*, events: list, connection) -> dict:
    """The fast path (see integrations.base.Provider): bookings and cancellations of
    existing leads, their calls written with calls_write_many. Returns their outcomes by
    event pk."""
    workspace = connection.workspace
    named = _named(events)
    invitees = {}
    for event in events:
        invitee = _fast_invitee(event)
        if invitee is not None and named[event.object_id] == 1:
            invitees[event.pk] = invitee
    if not invitees:
        return {}
    leads = _first_leads(workspace, {_ascii_email(i.get("email")) for i in invitees.values()})
    uris = [event.object_id for event in events if event.pk in invitees]
    existing = {
        call.external_id: call
        for call in Call.objects.filter(workspace=workspace, external_id__in=uris).select_related(
            "rescheduled_from"
        )
    }
    members = _hosts(workspace, list(invitees.values()))
    outcomes, calls = {}, []
    for event in events:
        invitee = invitees.get(event.pk)
        if invitee is None:
            continue
        booked_at = _time(invitee.get("created_at"))
        lead = leads.get(_ascii_email(invitee.get("email")))
        own_id = f"{LEAD_PREFIX}{_ascii_email(invitee.get('email'))}"[:200]
        # A lead to make, or to date back to this invitee: one by one.
        if lead is None or (lead.external_id == own_id and lead.created_at > booked_at):
            continue
        call = existing.get(event.object_id)
        scheduled_event = invitee["scheduled_event"]
        hosts = [
            _text(item.get("user_email"), 254).lower()
            for item in scheduled_event.get("event_memberships") or []
            if _text(item.get("user_email"))
        ]
        cancelled = event.event_type == CANCELED or (
            call is not None and call.status == Call.Status.CANCELLED
        )
        values = {
            "external_id": event.object_id,
            "lead": lead,
            "booked_at": booked_at,
            "scheduled_for": _time(scheduled_event.get("start_time")),
            "closer": next((members[email] for email in hosts if email in members), None),
            "setter": lead.setter,
            "status": Call.Status.CANCELLED if cancelled else Call.Status.SCHEDULED,
            "rescheduled_from": call.rescheduled_from if call is not None else None,
            "attendance": call.attendance if call is not None else "",
        }
        if call is not None and _differs(call, values) - {"status"}:
            continue
        calls.append(values)
        outcomes[event.pk] = Applied(records=(event.object_id,))
    if calls:
        calls_write_many(workspace=workspace, calls=calls)
    return outcomes


def _differs(call: Call, values: dict) -> set[str]:
    """The fields whose value differs from the call's."""
    differs = set()
    for name, value in values.items():
        if name == "external_id":
            continue
        attname = Call._meta.get_field(name).attname
        value = value.pk if isinstance(value, models.Model) else value
        if getattr(call, attname) != value:
            differs.add(name)
    return differs


def describe(payload: dict) -> Described:
    """A delivery's id, type, time and object (the invitee)."""
    event_type = payload.get("event")
    body = payload.get("payload")
    created_at = payload.get("created_at")
    if not isinstance(body, dict) or not isinstance(event_type, str):
        return Described(event_id="", event_type=str(event_type or ""), occurred_at=None)
    uri = body.get("uri")
    if not event_type or not isinstance(uri, str) or not uri or not created_at:
        return Described(event_id="", event_type=event_type, occurred_at=None)
    return Described(
        # Calendly sends no delivery id: the event, its object and when it was sent.
        event_id=f"{event_type}|{uri}|{created_at}",
        event_type=event_type,
        occurred_at=parse_iso(created_at),
        object_id=invitee_of(event_type, body),
    )
