"""HubSpot contacts to leads.

A webhook event names a contact only (`objectId`); the contact itself is read through
HubSpot's API when the event is applied, so the lead takes the contact as it is then,
whatever order the events come in. One read serves every event received before it: the
worker reads the contacts of all the connection's pending events in one batch call, and
keeps each read for a few minutes (in the cache) for their events' turn.

The lead's external id is `hubspot:<contact id>`. A contact whose email is already a
lead's (made by the import, Calendly or a form) updates that lead instead of making a
second one: its name and UTM values when HubSpot has them, its creation time when
HubSpot's is earlier; the lead keeps its status and setter. A lead made in the app has
no external id to write it through and is kept as it is.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from django.core.cache import cache
from django.db import models
from django.utils import timezone

from core.crypto import decrypt_json
from core.times import from_epoch, parse_iso
from workspaces.identifiers import phone_e164, token_of, workspace_country
from workspaces.models import Lead
from workspaces.services import RecordInvalid, lead_upsert, leads_create

from ..base import Applied, Ignored, ProviderError
from ..models import Event
from . import client as api
from .options import UTM_FIELDS, utm_properties


class EventType(models.TextChoices):
    """The HubSpot events the service maps."""

    CONTACT_CREATION = "contact.creation"
    CONTACT_PROPERTY_CHANGE = "contact.propertyChange"


CREATION = EventType.CONTACT_CREATION
PROPERTY_CHANGE = EventType.CONTACT_PROPERTY_CHANGE
EVENT_TYPES = (CREATION, PROPERTY_CHANGE)
LEAD_PREFIX = "hubspot:"
# How long one read serves the events received before it.
READ_KEPT_SECONDS = 300


def properties_for(connection) -> list[str]:
    mapped = [name for name in utm_properties(connection).values() if name]
    return list(dict.fromkeys([*api.NAME_PROPERTIES, *api.IDENTIFIER_PROPERTIES, *mapped]))


def _identifiers(workspace, props: dict) -> dict:
    """The lead's phone and click ids from the contact's properties. A phone HubSpot holds
    that is no number is left out (the contact still becomes its lead), as is a click id
    that is not one."""
    given = {
        "phone": _text(props.get("phone"), 64),
        "fbclid": _text(props.get("hs_facebook_click_id"), 200),
        "gclid": _text(props.get("hs_google_click_id"), 200),
    }
    try:
        given["phone"] = phone_e164(given["phone"], country=workspace_country(workspace))
    except RecordInvalid:
        given["phone"] = ""
    for name in ("fbclid", "gclid"):
        try:
            token_of(given[name], field=name)
        except RecordInvalid:
            given[name] = ""
    return given


def _cache_key(connection_id, contact_id: str) -> str:
    return f"integrations:hubspot:{connection_id}:{contact_id}"


def _pending_contacts(event: Event) -> list[str]:
    """This event's contact first, then those of the connection's other pending events."""
    others = (
        Event.objects.filter(
            connection_id=event.connection_id,
            state=Event.State.RECEIVED,
            event_type__in=EVENT_TYPES,
        )
        .exclude(object_id__in=("", event.object_id))
        .order_by("pk")
        .values_list("object_id", flat=True)[: api.BATCH_SIZE * 5]
    )
    ids = list(dict.fromkeys([event.object_id, *others]))
    return ids[: api.BATCH_SIZE]


def _read_and_keep(connection, credentials: dict, ids: list[str]) -> dict:
    """The contacts read now in one call, by id, each kept with the time of the read."""
    read_at = timezone.now().timestamp()
    found = api.contacts_read(api.client_for(credentials), ids, properties_for(connection))
    cache.set_many(
        {
            _cache_key(connection.pk, contact_id): {
                "read_at": read_at,
                "contact": found.get(contact_id),
            }
            for contact_id in ids
        },
        READ_KEPT_SECONDS,
    )
    return found


def contact_for(event: Event, connection, credentials: dict) -> dict | None:
    """The event's contact, read after the event was received (None if HubSpot has no
    such contact any more)."""
    kept = cache.get(_cache_key(connection.pk, event.object_id))
    if kept is not None and kept["read_at"] >= event.received_at.timestamp():
        return kept["contact"]
    ids = _pending_contacts(event)
    found = _read_and_keep(connection, credentials, ids)
    return found.get(event.object_id)


def _text(value, limit: int = 200) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _created(contact: dict) -> datetime | None:
    for value in ((contact.get("properties") or {}).get("createdate"), contact.get("createdAt")):
        # A time without an offset is UTC; one outside the calendar's bounds is no time.
        moment = parse_iso(value, naive_is_utc=True)
        if moment is not None:
            return moment
    return None


def lead_write(*, workspace, connection, contact: dict) -> Applied | Ignored:
    """Make or update the contact's lead through the workspace's writer."""
    contact_id = str(contact["id"])
    props = contact.get("properties") or {}
    own_id = f"{LEAD_PREFIX}{contact_id}"
    email = _text(props.get("email"), 254).lower()
    name = " ".join(
        part for part in (_text(props.get("firstname")), _text(props.get("lastname"))) if part
    )[:200]
    created = _created(contact)
    if created is None:
        return Ignored(f"HubSpot's contact {contact_id} has no creation time.")
    mapping = utm_properties(connection)
    utms = {
        field: _text(props.get(mapping[field])) if mapping[field] else "" for field in UTM_FIELDS
    }

    lead = Lead.objects.filter(workspace=workspace, external_id=own_id).first()
    if lead is None and email:
        lead = (
            Lead.objects.filter(workspace=workspace, email__iexact=email)
            .order_by("created_at", "pk")
            .first()
        )
    if lead is None or lead.external_id == own_id:
        lead_upsert(
            workspace=workspace,
            external_id=own_id,
            created_at=created,
            name=name,
            email=email,
            status=lead.status if lead is not None else "new",
            setter=lead.setter if lead is not None else None,
            **utms,
            **(
                _identifiers(workspace, props)
                if lead is None
                else _kept_identifiers(lead, _identifiers(workspace, props))
            ),
        )
        return Applied(records=(contact_id,))
    if not lead.external_id:
        return Ignored(
            f"The lead with the email {email} was made in the app; HubSpot's contact "
            f"{contact_id} leaves it as it is."
        )
    if not any(utms.values()):
        utms = {field: getattr(lead, field) for field in UTM_FIELDS}
    lead_upsert(
        workspace=workspace,
        external_id=lead.external_id,
        created_at=min(lead.created_at, created),
        name=name or lead.name,
        email=lead.email or email,
        status=lead.status,
        setter=lead.setter,
        **utms,
        **_kept_identifiers(lead, _identifiers(workspace, props)),
    )
    return Applied(records=(contact_id,))


def _kept_identifiers(lead, found: dict) -> dict:
    """The contact's identifiers, each kept from the lead where HubSpot holds none."""
    kept = {
        "phone": found["phone"] or lead.phone,
        "gclid": found["gclid"] or lead.gclid,
        "fbp": lead.fbp,
        "gbraid": lead.gbraid,
        "wbraid": lead.wbraid,
    }
    if found["fbclid"]:
        return {**kept, "fbclid": found["fbclid"]}
    return {**kept, "fbc": lead.fbc}


def _newer_read_applied(event: Event, read_at: float) -> bool:
    """Whether a webhook event of the same contact was applied after this snapshot was
    read (its own read is then the newer one)."""
    return Event.objects.filter(
        connection_id=event.connection_id,
        object_id=event.object_id,
        state=Event.State.APPLIED,
        source=Event.Source.WEBHOOK,
        applied_at__gt=from_epoch(read_at),
    ).exists()


def event_map(*, event: Event, connection, credentials: dict) -> Applied | Ignored:
    if event.event_type not in EVENT_TYPES:
        return Ignored(f"HubSpot's {event.event_type} feeds no record.")
    if not event.object_id:
        return Ignored("The event names no contact.")
    snapshot = event.payload.get("contact") if event.source == Event.Source.BACKFILL else None
    if isinstance(snapshot, dict):
        read_at = float(event.payload.get("readAt") or 0)
        if _newer_read_applied(event, read_at):
            return Ignored(f"Contact {event.object_id} was read again since.")
        contact = snapshot
    else:
        contact = contact_for(event, connection, credentials)
    if contact is None:
        return Ignored(f"HubSpot has no contact {event.object_id} (deleted or merged).")
    return lead_write(workspace=connection.workspace, connection=connection, contact=contact)


# --- The worker's fast path --------------------------------------------------------------
#
# A busy portal's events are mostly new contacts: each makes a lead no other event of the
# batch is about, so the batch's contacts are read in one call (or taken from the reads
# kept for them) and their leads made with leads_create. Left one by one, with the read
# kept for them: a contact whose lead exists (by its id or its email), a backfill's
# snapshot, and a contact another event of the batch is about or shares an email with.


def _reads(events: list, connection) -> dict[str, dict | None]:
    """The contact of each event, by contact id: a read kept since the event was received,
    else read now in one call (and kept, as contact_for keeps its reads)."""
    keys: dict[str, Event] = {}
    for event in events:
        # A contact two events name: its read must be newer than the later of the two.
        key = _cache_key(connection.pk, event.object_id)
        if key not in keys or event.received_at > keys[key].received_at:
            keys[key] = event
    kept = cache.get_many(list(keys))
    contacts, stale = {}, []
    for key, event in keys.items():
        read = kept.get(key)
        if read is not None and read["read_at"] >= event.received_at.timestamp():
            contacts[event.object_id] = read["contact"]
        else:
            stale.append(event.object_id)
    if stale:
        # As connection_credentials reads them (its module imports the providers).
        credentials = decrypt_json(connection.credentials_encrypted)
        found = _read_and_keep(connection, credentials, stale)
        contacts.update({contact_id: found.get(contact_id) for contact_id in stale})
    return contacts


def _email(contact: dict | None) -> str:
    props = (contact or {}).get("properties") or {}
    return _text(props.get("email"), 254).lower()


def _batch_emails(events: list, contacts: dict) -> Counter:
    """How many contacts the batch names have each email (a backfill's snapshots too)."""
    emails = Counter(_email(contact) for contact in contacts.values())
    for event in events:
        snapshot = event.payload.get("contact") if event.source == Event.Source.BACKFILL else None
        if isinstance(snapshot, dict):
            emails[_email(snapshot)] += 1
    return emails


def _outcome_fast(contact_id: str, contact: dict | None) -> Ignored | None:
    """The outcome of a contact that makes no lead, as event_map and lead_write give it."""
    if contact is None:
        return Ignored(f"HubSpot has no contact {contact_id} (deleted or merged).")
    if _created(contact) is None:
        return Ignored(f"HubSpot's contact {contact_id} has no creation time.")
    return None


def events_map_many(*, events: list, connection) -> dict:
    """The fast path (see integrations.base.Provider): contacts new to the workspace, read
    in one call, their leads made with leads_create. Returns their outcomes by event pk."""
    workspace = connection.workspace
    named = Counter(event.object_id for event in events)
    # Every webhook event's contact is read (one call), the ones applied one by one too.
    readable = [
        event
        for event in events
        if event.event_type in EVENT_TYPES
        and event.object_id
        and event.source == Event.Source.WEBHOOK
    ]
    webhooks = [event for event in readable if named[event.object_id] == 1]
    if not webhooks:
        return {}
    try:
        contacts = _reads(readable, connection)
    except ProviderError:
        # Applied one by one, which fails the connection as it does.
        return {}
    emails = _batch_emails(events, contacts)
    own = set(
        Lead.objects.filter(
            workspace=workspace,
            external_id__in=[f"{LEAD_PREFIX}{contact_id}" for contact_id in contacts],
        ).values_list("external_id", flat=True)
    )
    asked = {_email(c) for c in contacts.values() if _email(c) and _email(c).isascii()}
    known = set(Lead.objects.with_emails(workspace, asked).values_list("email_upper", flat=True))
    mapping = utm_properties(connection)
    outcomes, leads = {}, []
    for event in webhooks:
        contact = contacts.get(event.object_id)
        outcome = _outcome_fast(event.object_id, contact)
        if outcome is not None:
            outcomes[event.pk] = outcome
            continue
        email = _email(contact)
        if contact is None or str(contact.get("id")) != event.object_id:
            continue
        if f"{LEAD_PREFIX}{event.object_id}" in own:
            continue
        if email and (not email.isascii() or email.upper() in known or emails[email] > 1):
            continue
        props = contact.get("properties") or {}
        name = " ".join(
            part for part in (_text(props.get("firstname")), _text(props.get("lastname"))) if part
        )[:200]
        leads.append(
            {
                "external_id": f"{LEAD_PREFIX}{event.object_id}",
                "created_at": _created(contact),
                "name": name,
                "email": email,
                "status": "new",
                "setter": None,
                **{
                    field: _text(props.get(mapping[field])) if mapping[field] else ""
                    for field in UTM_FIELDS
                },
                **_identifiers(workspace, props),
            }
        )
        outcomes[event.pk] = Applied(records=(event.object_id,))
    if leads:
        leads_create(workspace=workspace, leads=leads)
    return outcomes
