"""/webinar: registrations, attendance, stay to pitch and bookings of the period's events,
or of one event."""

from __future__ import annotations

from django.db.models import Count, F, Q

from core.errors import InvalidParameter
from core.ids import parse_uuid
from core.times import utc_iso
from workspaces.models import Registration, WebinarEvent

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import NO_DATA_SOURCE, NO_NUMERATOR
from .base import Figures, in_period


def webinar_figures(
    *, workspace, period: Period, event_id: str | None = None, member=None
) -> Figures:
    """Registrations, attendance, stay to pitch and bookings."""
    event = None
    if event_id is not None:
        event_uuid = parse_uuid(event_id)
        event = (
            WebinarEvent.objects.filter(workspace=workspace, pk=event_uuid).first()
            if event_uuid
            else None
        )
        if event is None:
            raise InvalidParameter(
                "eventId", f"No webinar event of this workspace has id {event_id!r}."
            )
        registrations = Registration.objects.filter(workspace=workspace, event=event)
    else:
        # Through the workspace's events of the period (webinar_ws_starts), then their
        # registrations by event (registration_event_lead).
        registrations = Registration.objects.filter(
            workspace=workspace, event__workspace=workspace
        ).filter(in_period(period, "event__starts_at"))
    if member is not None:
        registrations = registrations.filter(lead__setter=member)
    attended = Q(joined_at__isnull=False)
    pitch = F("event__pitch_at")
    stayed = (
        attended
        & Q(event__pitch_at__isnull=False, joined_at__lte=pitch)
        & (Q(left_at__isnull=True) | Q(left_at__gt=pitch))
    )
    # Whether the lead booked a call at or after the event's start is kept on the
    # registration by the services.
    counts = registrations.aggregate(
        registrations=Count("pk"),
        attended=Count("pk", filter=attended),
        stayed=Count("pk", filter=stayed),
        unpitched=Count("pk", filter=attended & Q(event__pitch_at__isnull=True)),
        booked=Count("pk", filter=attended & Q(booked_after=True)),
    )
    notes = []
    if event is None and not WebinarEvent.objects.filter(workspace=workspace).exists():
        notes.append(
            Note("webinar", NO_DATA_SOURCE, "No webinar event has ever been recorded here.")
        )
    ws = workspace
    if counts["unpitched"]:
        no_pitch = "A webinar event attended in this cohort has no pitch time recorded."
        stayed_field = fields.count(
            "webinar.stayed_to_pitch", None, workspace=ws, unavailable=NO_NUMERATOR, reason=no_pitch
        )
        stay_rate = fields.rate(
            "webinar.stay_rate",
            None,
            counts["attended"],
            workspace=ws,
            unavailable=NO_NUMERATOR if counts["attended"] else None,
            reason=no_pitch if counts["attended"] else None,
        )
    else:
        stayed_field = fields.count("webinar.stayed_to_pitch", counts["stayed"], workspace=ws)
        stay_rate = fields.rate(
            "webinar.stay_rate", counts["stayed"], counts["attended"], workspace=ws
        )
    data = {
        "event": None
        if event is None
        else {
            "id": str(event.pk),
            "name": event.name,
            "starts_at": utc_iso(event.starts_at),
            "pitch_at": utc_iso(event.pitch_at),
        },
        "registrations": fields.count(
            "webinar.registrations", counts["registrations"], workspace=ws
        ),
        "attended": fields.count("webinar.attended", counts["attended"], workspace=ws),
        "stayed_to_pitch": stayed_field,
        "booked": fields.count("webinar.booked", counts["booked"], workspace=ws),
        "attendance_rate": fields.rate(
            "webinar.attendance_rate", counts["attended"], counts["registrations"], workspace=ws
        ),
        "stay_rate": stay_rate,
        "booking_rate": fields.rate(
            "webinar.booking_rate", counts["booked"], counts["attended"], workspace=ws
        ),
    }
    return Figures(data, tuple(notes))
