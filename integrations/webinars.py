"""The workspace's side of its webinar events: their pitch time.

Zoom (or an import) brings a webinar event's name and start; when the offer is pitched
is the workspace's to say, and the stay-to-pitch figures follow it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from audit.services import Actor, audit_record
from core.errors import InvalidField
from workspaces.models import Member, WebinarEvent
from workspaces.services import RecordInvalid, webinar_pitch_update

from .models import Event
from .services import events_release

PITCH_ROLES = Member.WORKSPACE_WIDE_ROLES


def webinar_events_list(*, workspace) -> list[WebinarEvent]:
    """The workspace's webinar events, latest start first."""
    return list(WebinarEvent.objects.filter(workspace=workspace).order_by("-starts_at", "pk"))


def webinar_pitch_set(
    *, event: WebinarEvent, pitch_at: datetime | None, actor: Actor
) -> WebinarEvent:
    """Set (or clear, with None) when the offer is pitched in a webinar event; audited.
    A pitch before the event's start answers 400 naming `pitch_at`.

    A provider's update of the event held because it moved the start past the pitch time
    (held ``invalid``, about the object the event's external id names) is applied again
    once this commits."""
    with transaction.atomic():
        locked = WebinarEvent.objects.select_for_update().select_related("workspace")
        locked = locked.get(pk=event.pk)
        before = locked.pitch_at
        try:
            changed = webinar_pitch_update(event=locked, pitch_at=pitch_at)
        except RecordInvalid as refused:
            raise InvalidField(refused.field or "pitch_at", refused.message) from None
        if changed:
            audit_record(
                actor=actor,
                action="webinar_event.pitch_set",
                target_type="webinar_event",
                target_id=locked.pk,
                workspace=locked.workspace,
                detail={
                    "pitch_at": pitch_at.isoformat() if pitch_at else None,
                    "before": before.isoformat() if before else None,
                },
            )
            if locked.external_id:
                events_release(
                    Event.objects.filter(
                        workspace_id=locked.workspace_id,
                        object_id=locked.external_id,
                        state=Event.State.HELD,
                        hold_code=Event.HoldCode.INVALID,
                    )
                )
    return locked
