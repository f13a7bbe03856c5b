"""Zoom events to records: a webinar event, and per registrant a lead and a registration.

Records are keyed on Zoom's ids: the webinar event's external id is the webinar's id, a
registration's is `zoom:<webinar id>:<email>`, a lead Zoom makes `zoom:<email>` (a lead
that already has the email is used as it is).

Deliveries come in any order, and some twice (a webhook and the backfill). So an event is
not applied as a change: the records are computed again from every stored event about the
same object, whatever their order —
- a webinar's topic and start are those of its latest event (by Zoom's `event_ts`) that
  carries them;
- a registration's time is the earliest registration event's (else the earliest join),
  its first join the earliest join, its last leave the latest leave, none while a join
  is later than every leave (the person came back);
- a leave whose person has neither registered nor joined yet waits for them.
The pitch time of a webinar event is the workspace's: Zoom never writes it.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from django.db import models

from core.locks import lock
from core.times import from_epoch, parse_iso
from workspaces.models import Lead, WebinarEvent
from workspaces.services import (
    lead_upsert,
    registration_upsert,
    registrations_write,
    webinar_event_upsert,
)

from ..base import Applied, Described, Held, Ignored
from ..models import Event


class EventType(models.TextChoices):
    """The Zoom events the service maps."""

    WEBINAR_CREATED = "webinar.created"
    WEBINAR_UPDATED = "webinar.updated"
    REGISTRATION_CREATED = "webinar.registration_created"
    PARTICIPANT_JOINED = "webinar.participant_joined"
    PARTICIPANT_LEFT = "webinar.participant_left"


WEBINAR_TYPES = (EventType.WEBINAR_CREATED, EventType.WEBINAR_UPDATED)
REGISTERED = EventType.REGISTRATION_CREATED
JOINED = EventType.PARTICIPANT_JOINED
LEFT = EventType.PARTICIPANT_LEFT
PERSON_TYPES = (REGISTERED, JOINED, LEFT)


def payload_object(payload: dict) -> dict:
    inner = payload.get("payload") if isinstance(payload, dict) else None
    obj = inner.get("object") if isinstance(inner, dict) else None
    return obj if isinstance(obj, dict) else {}


def webinar_id(obj: dict) -> str:
    value = obj.get("id")
    if isinstance(value, bool) or value in (None, ""):
        return ""
    return str(value)


def _person(event_type: str, obj: dict) -> dict:
    person = obj.get("registrant" if event_type == REGISTERED else "participant")
    return person if isinstance(person, dict) else {}


def person_email(event_type: str, obj: dict) -> str:
    email = _person(event_type, obj).get("email")
    return email.strip().lower() if isinstance(email, str) else ""


def person_id(event_type: str, obj: dict) -> str:
    """The registrant's or participant's own id, so two people's events at the same
    millisecond are told apart."""
    person = _person(event_type, obj)
    for key in ("participant_uuid", "id", "user_id"):
        value = person.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
            return str(value)
    return ""


def person_key(webinar: str, email: str) -> str:
    return f"{webinar}|{email}" if email else webinar


def zoom_time(value) -> datetime | None:
    """Zoom's times: ISO 8601 in UTC ("2026-03-05T17:00:00Z")."""
    return parse_iso(value, naive_is_utc=True)


def _sent(payload: dict) -> int:
    value = payload.get("event_ts")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _sent_time(payload: dict) -> datetime | None:
    sent = _sent(payload)
    return from_epoch(sent, per_second=1000) if sent else None


def _serialize(connection_id, key: str) -> None:
    """Wait for the other applies about the same webinar or person (PostgreSQL: a lock held
    until the transaction ends), so each computes from what the one before it committed and
    a new lead is made once. Callers take the webinar's lock before the person's."""
    lock(f"zoom|{connection_id}|{key}")


def _by_zoom_clock(events: list[Event]) -> list[Event]:
    return sorted(events, key=lambda item: (_sent(item.payload), item.event_id))


def _stored(event: Event, object_id: str) -> list[Event]:
    """Every event about the object (this one included), oldest first by Zoom's clock."""
    events = list(
        Event.objects.filter(connection_id=event.connection_id, object_id=object_id)
        .exclude(state=Event.State.DISMISSED)
        .exclude(pk=event.pk)
        .only("pk", "event_id", "event_type", "payload")
    )
    events.append(event)
    return _by_zoom_clock(events)


def _webinar_values(events: list[Event]) -> dict:
    """Topic and start from the latest events carrying them."""
    values = {}
    for item in events:
        obj = payload_object(item.payload)
        if isinstance(obj.get("topic"), str) and obj["topic"].strip():
            values["name"] = obj["topic"].strip()[:200]
        start = zoom_time(obj.get("start_time"))
        if start is not None:
            values["starts_at"] = start
    return values


def _webinar_write(workspace, external_id: str, values: dict) -> WebinarEvent:
    existing = WebinarEvent.objects.filter(workspace=workspace, external_id=external_id).first()
    name = values.get("name") or (existing.name if existing else f"Zoom webinar {external_id}")
    starts_at = values.get("starts_at") or existing.starts_at
    webinar, _created = webinar_event_upsert(
        workspace=workspace,
        external_id=external_id,
        name=name,
        starts_at=starts_at,
        # The workspace sets the pitch time; Zoom knows nothing of it.
        pitch_at=existing.pitch_at if existing else None,
    )
    return webinar


def _webinar(event: Event, workspace, webinar: str) -> Applied | Held:
    _serialize(event.connection_id, webinar)
    values = _webinar_values(_stored(event, webinar))
    known = WebinarEvent.objects.filter(workspace=workspace, external_id=webinar).exists()
    if "starts_at" not in values and not known:
        return Held(
            Event.HoldCode.WAITING,
            f"Webinar {webinar}'s start time has not arrived yet.",
            waits_for=webinar,
        )
    _webinar_write(workspace, webinar, values)
    return Applied(records=(webinar,))


def _webinar_for_person(event: Event, workspace, webinar: str) -> WebinarEvent | None:
    """The webinar event a registration or attendance belongs to; made from the webinar's
    own events, else from this event's copy of the webinar, when Zoom's webinar events have
    not arrived."""
    existing = WebinarEvent.objects.filter(workspace=workspace, external_id=webinar).first()
    if existing is not None:
        return existing
    events = list(
        Event.objects.filter(connection_id=event.connection_id, object_id=webinar)
        .exclude(state=Event.State.DISMISSED)
        .only("pk", "event_id", "event_type", "payload")
    )
    values = _webinar_values(_by_zoom_clock(events))
    if "starts_at" not in values:
        values = {**_webinar_values([event]), **values}
    if "starts_at" not in values:
        return None
    return _webinar_write(workspace, webinar, values)


def _name(event_type: str, person: dict) -> str:
    if event_type == REGISTERED:
        parts = [person.get("first_name"), person.get("last_name")]
        return " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())
    name = person.get("user_name") or person.get("name")
    return name.strip() if isinstance(name, str) else ""


def _lead_kept(lead: Lead, email: str, name: str, created_at: datetime) -> bool:
    """Whether the lead found by the email is used as it is: one Zoom did not make, or one
    it made that already says what these events say of the person (a time no later than
    theirs: another webinar's events may know an earlier one, and the earliest stays)."""
    if lead.external_id != f"zoom:{email}":
        return True
    return lead.created_at <= created_at and lead.name == (name or lead.name)


def _lead(workspace, email: str, name: str, created_at: datetime) -> Lead:
    """The lead with the email; made when new. A lead Zoom made follows what Zoom's events
    say of the person (its earliest time in any webinar, the registrant's name), whatever
    their order."""
    own_id = f"zoom:{email}"
    lead = (
        Lead.objects.filter(workspace=workspace, email__iexact=email)
        .order_by("created_at", "pk")
        .first()
    )
    if lead is not None and _lead_kept(lead, email, name, created_at):
        return lead
    lead, _created = lead_upsert(
        workspace=workspace,
        external_id=own_id,
        created_at=min(created_at, lead.created_at) if lead else created_at,
        name=name or (lead.name if lead else ""),
        email=lead.email if lead else email,
        status=lead.status if lead else "new",
        setter=lead.setter if lead else None,
        utm_source=lead.utm_source if lead else "",
        utm_medium=lead.utm_medium if lead else "",
        utm_campaign=lead.utm_campaign if lead else "",
        utm_content=lead.utm_content if lead else "",
    )
    return lead


# Per event type: the payload's time field, the list it adds to, and whose name it gives.
_PERSON_TIMES = {
    REGISTERED: ("create_time", 0, "registrant"),
    JOINED: ("join_time", 1, "participant"),
    LEFT: ("leave_time", 2, "participant"),
}


def _person_times(events: list[Event]) -> tuple[list, list, list, dict]:
    """Every registration, join and leave time of one person of one webinar in the stored
    events about them (oldest first), and their names as the registration and the
    participant events give them."""
    times, names = ([], [], []), {}
    for item in events:
        if item.event_type not in _PERSON_TIMES:
            continue
        field, index, whose = _PERSON_TIMES[item.event_type]
        person = _person(item.event_type, payload_object(item.payload))
        at = zoom_time(person.get(field)) or _sent_time(item.payload)
        if at is not None:
            times[index].append(at)
        names.setdefault(whose, _name(item.event_type, person))
    return (*times, names)


def registration_id(webinar: str, email: str) -> str:
    return f"zoom:{webinar}:{email}"


def _attendance(events: list[Event]) -> dict | None:
    """A person's registration from every stored event about them (oldest first): its
    registered_at, joined_at and left_at, and the person's name; None while they have
    neither registered nor joined."""
    registered, joins, leaves, names = _person_times(events)
    if not registered and not joins:
        return None
    left_at = None
    if joins and leaves and max(leaves) >= max(joins):
        left_at = max(leaves)
    return {
        "registered_at": min(registered) if registered else min(joins),
        "joined_at": min(joins) if joins else None,
        "left_at": left_at,
        "name": names.get("registrant") or names.get("participant") or "",
    }


def _person_event(event: Event, workspace, webinar: str) -> Applied | Held | Ignored:
    obj = payload_object(event.payload)
    email = person_email(event.event_type, obj)
    if not email:
        return Ignored("The registrant or participant has no email to find a lead by.")
    key = person_key(webinar, email)
    _serialize(event.connection_id, webinar)
    # A lead is found or made by email across webinars.
    _serialize(event.connection_id, f"lead|{email}")
    attendance = _attendance(_stored(event, key))
    if attendance is None:
        return Held(
            Event.HoldCode.WAITING,
            f"{email} left webinar {webinar} before Zoom's registration or join arrived.",
            waits_for=key,
        )
    webinar_event = _webinar_for_person(event, workspace, webinar)
    if webinar_event is None:
        return Held(
            Event.HoldCode.WAITING,
            f"Webinar {webinar}'s start time has not arrived yet.",
            waits_for=webinar,
        )
    name = attendance.pop("name")
    lead = _lead(workspace, email, name, attendance["registered_at"])
    registration_upsert(
        workspace=workspace,
        external_id=registration_id(webinar, email),
        event=webinar_event,
        lead=lead,
        **attendance,
    )
    return Applied(records=(webinar, key))


def event_map(*, event: Event, connection) -> Applied | Held | Ignored:
    workspace = connection.workspace
    obj = payload_object(event.payload)
    webinar = webinar_id(obj)
    if event.event_type not in (*WEBINAR_TYPES, *PERSON_TYPES):
        return Ignored(f"Zoom's {event.event_type} feeds no record.")
    if not webinar:
        return Ignored("The event names no webinar.")
    if event.event_type in WEBINAR_TYPES:
        return _webinar(event, workspace, webinar)
    return _person_event(event, workspace, webinar)


# --- The worker's fast path -------------------------------------------------------------
#
# A person's registration is computed from every stored event about them, so the events of
# one person key in a batch all end in the same registration, whatever their order. The
# fast path writes those registrations at once when nothing else can change them: the
# webinar event is known, the person has registered or joined, and the lead with the email
# exists and is used as it is (a lead to make or to change goes one by one, under the
# person's lock, as does every key whose email has events of another webinar in the batch).


def _fast_people(events: list[Event]) -> dict[str, tuple[str, str, list[Event]]]:
    """The batch's person events the fast path may take, by person key: (webinar, email,
    the key's events)."""
    people, unusual = {}, set()
    for event in events:
        if event.event_type not in PERSON_TYPES:
            continue
        obj = payload_object(event.payload)
        webinar, email = webinar_id(obj), person_email(event.event_type, obj)
        if not webinar or not email:
            continue
        key = person_key(webinar, email)
        if not email.isascii() or event.object_id != key:
            # Stored under another key (cut short), or an email a database may case
            # differently than Python does: one by one.
            unusual.add(key)
        people.setdefault(key, (webinar, email, []))[2].append(event)
    emails = Counter(email for _webinar, email, _events in people.values())
    return {
        key: person
        for key, person in people.items()
        if key not in unusual and emails[person[1]] == 1
    }


def _stored_many(connection_id, keys: list[str]) -> dict[str, list[Event]]:
    """Every stored event about each person key, oldest first by Zoom's clock."""
    stored: dict[str, list[Event]] = {key: [] for key in keys}
    for item in (
        Event.objects.filter(connection_id=connection_id, object_id__in=keys)
        .exclude(state=Event.State.DISMISSED)
        .only("pk", "event_id", "event_type", "object_id", "payload")
    ):
        stored[item.object_id].append(item)
    return {key: _by_zoom_clock(events) for key, events in stored.items()}


def _leads_by_email(workspace, emails: list[str]) -> dict[str, Lead]:
    """The lead _lead finds for each (ASCII, lower-case) email: the earliest with the email
    in any case. One statement, served by the workspace's index on Upper(email)."""
    leads: dict[str, Lead] = {}
    found = (
        Lead.objects.with_emails(workspace, emails)
        .order_by("created_at", "pk")
        .only("pk", "workspace", "external_id", "email", "name", "created_at")
    )
    for lead in found:
        leads.setdefault(lead.email_upper.lower(), lead)
    return leads


def _fast_registrations(people: dict, webinars: dict, stored: dict, leads: dict) -> dict:
    """The registration of each person key the fast path writes, by key."""
    registrations = {}
    for key, (webinar, email, _events) in people.items():
        attendance = _attendance(stored.get(key) or [])
        lead = leads.get(email)
        if attendance is None or lead is None:
            continue
        name = attendance.pop("name")
        if not _lead_kept(lead, email, name, attendance["registered_at"]):
            continue
        registrations[key] = {
            "external_id": registration_id(webinar, email),
            "event": webinars[webinar],
            "lead": lead,
            **attendance,
        }
    return registrations


def events_map_many(*, events: list[Event], connection) -> dict[int, Applied]:
    """The worker's fast path (Provider.apply_many): the batch's joins, leaves and
    registrations of people whose lead exists, as the one-by-one path would write them,
    in a few statements. Returns their outcomes by event id; the rest go one by one."""
    people = _fast_people(events)
    if not people:
        return {}
    workspace = connection.workspace
    names = sorted({webinar for webinar, _email, _events in people.values()})
    for webinar in names:
        _serialize(connection.pk, webinar)
    webinars = {
        item.external_id: item
        for item in WebinarEvent.objects.filter(workspace=workspace, external_id__in=names)
    }
    people = {key: person for key, person in people.items() if person[0] in webinars}
    if not people:
        return {}
    stored = _stored_many(connection.pk, sorted(people))
    leads = _leads_by_email(workspace, [email for _webinar, email, _events in people.values()])
    registrations = _fast_registrations(people, webinars, stored, leads)
    registrations_write(workspace=workspace, registrations=list(registrations.values()))
    return {
        event.pk: Applied(records=(people[key][0], key))
        for key in registrations
        for event in people[key][2]
    }


def describe(payload: dict) -> Described:
    """A delivery's id, type, time and object (the webinar, or the webinar and person)."""
    event_type = str(payload.get("event") or "")
    event_ts = payload.get("event_ts")
    obj = payload_object(payload)
    webinar = webinar_id(obj)
    object_id, who = webinar, ""
    if event_type in PERSON_TYPES:
        email = person_email(event_type, obj)
        object_id = person_key(webinar, email)
        who = person_id(event_type, obj) or email
    parts = [event_type, webinar, str(event_ts if event_ts is not None else "")]
    if who:
        parts.append(who)
    return Described(
        event_id="|".join(parts) if event_type and webinar else "",
        event_type=event_type,
        occurred_at=from_epoch(event_ts, per_second=1000),
        object_id=object_id,
    )
