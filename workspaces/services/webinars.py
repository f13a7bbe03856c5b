"""Writers of webinar events and their registrations."""

from __future__ import annotations

from datetime import datetime

from ..kept import (
    registrations_booked_refresh,
)
from ..models import (
    Lead,
    Registration,
    WebinarEvent,
    Workspace,
)
from .base import RecordInvalid, refresh_or_collect, same_workspace, upsert, upsert_changes


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
    event, created, before = upsert_changes(
        WebinarEvent,
        workspace=workspace,
        external_id=external_id,
        values={"name": name, "starts_at": starts_at, "pitch_at": pitch_at},
    )
    if "starts_at" in before:
        refresh_or_collect(
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
    _registration_check(workspace, event=event, lead=lead, joined_at=joined_at, left_at=left_at)
    registration, created = upsert(
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
    refresh_or_collect(
        {lead.pk},
        touched,
        lambda ids: registrations_booked_refresh(workspace=workspace, lead_ids=ids),
    )
    return registration, created


def _registration_check(workspace: Workspace, *, event, lead, joined_at, left_at) -> None:
    same_workspace(workspace, "event", event)
    same_workspace(workspace, "lead", lead)
    if left_at is not None and joined_at is None:
        raise RecordInvalid("joined_at", "A registrant who left must have joined.")
    if left_at is not None and left_at < joined_at:
        raise RecordInvalid("left_at", "left_at cannot come before joined_at.")


_REGISTRATION_FIELDS = ("event", "lead", "registered_at", "joined_at", "left_at")


def registrations_write(
    *, workspace: Workspace, registrations: list[dict], touched: set | None = None
) -> tuple[int, int]:
    """Many registrations at once, each a dict of registration_upsert's values
    (external_id, event, lead, registered_at, joined_at, left_at): one whose external id is
    new to the workspace is made, an existing one updated where it differs, in one insert
    and one update. The booked_after of their leads' registrations is refreshed once (or
    the leads go to `touched`). Returns how many were made and how many changed."""
    ids = [values["external_id"] for values in registrations]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each registration needs an external id of its own.")
    for values in registrations:
        _registration_check(
            workspace,
            event=values["event"],
            lead=values["lead"],
            joined_at=values.get("joined_at"),
            left_at=values.get("left_at"),
        )
    existing = {
        row.external_id: row
        for row in Registration.objects.filter(workspace=workspace, external_id__in=ids)
    }
    made, changed, fields = [], [], set()
    for values in registrations:
        row = existing.get(values["external_id"])
        if row is None:
            made.append(
                Registration(
                    workspace=workspace,
                    external_id=values["external_id"],
                    **{name: values.get(name) for name in _REGISTRATION_FIELDS},
                )
            )
            continue
        differs = _registration_differs(row, values)
        if differs:
            changed.append(row)
            fields |= differs
    Registration.objects.bulk_create(made)
    if changed:
        Registration.objects.bulk_update(changed, fields=sorted(fields))
    refresh_or_collect(
        {values["lead"].pk for values in registrations},
        touched,
        lambda lead_ids: registrations_booked_refresh(workspace=workspace, lead_ids=lead_ids),
    )
    return len(made), len(changed)


def _registration_differs(row: Registration, values: dict) -> set[str]:
    """Set the values on the row; the names of the fields that changed."""
    differs = set()
    for name in _REGISTRATION_FIELDS:
        value = values.get(name)
        if name in ("event", "lead"):
            if getattr(row, f"{name}_id") != value.pk:
                setattr(row, name, value)
                differs.add(name)
        elif getattr(row, name) != value:
            setattr(row, name, value)
            differs.add(name)
    return differs
