"""/webinar: registrations, attendance, stay to pitch and bookings of the period's events,
or of one event."""

from __future__ import annotations

from django.db.models import Count, F, Q, UUIDField

from core.compiled import Aggregate, CompiledQuery
from core.errors import InvalidParameter
from core.ids import parse_uuid
from core.times import utc_iso
from workspaces.models import Registration, WebinarEvent

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import NO_DATA_SOURCE, NO_NUMERATOR
from .base import FIGURES_PARAMS, Figures, Span, figures_params, in_period, pk_of


def _webinar_query(*, part: str, workspace, event, member, start, end):
    """One of the /webinar queries: the workspace's event of that id, as .first() reads
    it ("event"); whether the workspace has any event ("any_event", a row or none); or the
    counts of the registrations to that event, or to the workspace's events that start in
    the period [start, end) when event is None ("counts")."""
    if part == "event":
        events = WebinarEvent.objects.filter(workspace=workspace, pk=event)
        return (events if events.ordered else events.order_by("pk"))[:1]
    if part == "any_event":
        return WebinarEvent.objects.filter(workspace=workspace).values_list("pk")[:1]
    if event is not None:
        registrations = Registration.objects.filter(workspace=workspace, event=event)
    else:
        # Through the workspace's events of the period (webinar_ws_starts), then their
        # registrations by event (registration_event_counts: an index-only scan).
        registrations = Registration.objects.filter(
            workspace=workspace, event__workspace=workspace
        ).filter(in_period(Span(start, end), "event__starts_at"))
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
    return Aggregate(
        registrations,
        registrations=Count("pk"),
        attended=Count("pk", filter=attended),
        stayed=Count("pk", filter=stayed),
        unpitched=Count("pk", filter=attended & Q(event__pitch_at__isnull=True)),
        booked=Count("pk", filter=attended & Q(booked_after=True)),
    )


webinar_query = CompiledQuery(
    _webinar_query, params={**FIGURES_PARAMS, "event": UUIDField()}, model=Registration
)


def webinar_figures(
    *, workspace, period: Period, event_id: str | None = None, member=None
) -> Figures:
    """Registrations, attendance, stay to pitch and bookings."""
    common = figures_params(workspace=workspace, period=period, member=member)
    event = None
    if event_id is not None:
        event_uuid = parse_uuid(event_id)
        found = (
            webinar_query(part="event", **{**common, "member": None, "event": event_uuid})
            if event_uuid
            else []
        )
        event = found[0] if found else None
        if event is None:
            raise InvalidParameter(
                "eventId", f"No webinar event of this workspace has id {event_id!r}."
            )
    counts = webinar_query(part="counts", event=pk_of(event), **common)
    notes = []
    if event is None and not webinar_query(
        part="any_event", **{**common, "member": None, "event": None}
    ):
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
