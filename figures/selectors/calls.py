"""/calls: bookings, attendance, closes and offers of the calls at their final time in the
period, counted with one conditional aggregate (per bucket for a series)."""

from __future__ import annotations

from functools import reduce
from operator import or_

from django.db.models import Count, DateTimeField, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.compiled import CompiledQuery
from workspaces.models import Call

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import AWAITING_OUTCOME, NO_NUMERATOR
from . import days as rollups
from .base import (
    BUCKETED_PARAMS,
    CLOSED_OUTCOMES,
    Counts,
    Figures,
    Span,
    added,
    added_per_bucket,
    buckets_params,
    figures_params,
    live_calls,
    totals,
)
from .family import Family


def calls_conditions(now) -> dict:
    """The calls each count of /calls counts, as conditions on live_calls: the one
    definition its aggregate (calls_totals), its series (per bucket) and its list
    (calls_of_figure, the records pages) are built from."""
    scheduled = Q(status=Call.Status.SCHEDULED)
    unmarked = scheduled & Q(attendance="")
    taken = scheduled & Q(attendance=Call.Attendance.SHOWED)
    return {
        "booked": scheduled,
        "cancelled": Q(status=Call.Status.CANCELLED),
        "taken": taken,
        "no_show": scheduled & Q(attendance=Call.Attendance.NO_SHOW),
        "awaiting": unmarked & Q(scheduled_for__lt=now),
        "upcoming": unmarked & Q(scheduled_for__gte=now),
        "closed": taken & Q(outcome__in=CLOSED_OUTCOMES),
        "offered": taken & Q(offer_made=True),
        "offer_recorded": taken & Q(offer_made__isnull=False),
    }


def _calls_aggregates(now, *, summed: bool = False) -> dict:
    """Each count of calls_conditions over calls, or `summed` over the rows of their daily
    roll-up (figures.rollups: the same columns, `n` calls a row)."""
    conditions = calls_conditions(now).items()
    if summed:
        return {key: Coalesce(Sum("n", filter=condition), 0) for key, condition in conditions}
    return {key: Count("pk", filter=condition) for key, condition in conditions}


CALLS_COUNT_KEYS = (
    "booked",
    "cancelled",
    "taken",
    "no_show",
    "awaiting",
    "upcoming",
    "closed",
    "offered",
    "offer_recorded",
)
# The counts each /calls figure is built from by calls_data: a series of one figure
# counts only those (each conditional count costs a pass over the rows' conditions).
CALLS_COUNTS_OF = {
    "booked": {"booked"},
    "cancelled": {"cancelled"},
    "taken": {"taken"},
    "no_show": {"no_show"},
    "awaiting_outcome": {"awaiting"},
    "upcoming": {"upcoming"},
    "closed": {"closed"},
    "show_rate": {"taken", "no_show", "awaiting"},
    "close_rate": {"closed", "taken"},
    "offer_rate": {"offered", "offer_recorded", "taken"},
}


def _calls_aggregates_of(now, keys, *, summed: bool = False) -> dict:
    aggregates = _calls_aggregates(now, summed=summed)
    if keys is not None:
        aggregates = {key: aggregates[key] for key in aggregates if key in keys}
    return aggregates


def _calls_totals(
    *, workspace, member, start, end, now, keys, rolled=False, starts=None, grouping=None
):
    """The counts of the calls of [start, end), or (`rolled`) of their daily roll-up's
    rows: whole local days before today, of the whole workspace; per bucket with
    `grouping` (base.totals)."""
    if rolled:
        days = rollups.days_of(rollups.CALLS, workspace=workspace, span=Span(start, end))
        aggregates = _calls_aggregates_of(now, keys, summed=True)
        return totals(days, "scheduled_for", aggregates, starts=starts, grouping=grouping)
    calls = live_calls(workspace=workspace, period=Span(start, end), member=member)
    aggregates = _calls_aggregates_of(now, keys)
    return totals(calls, "scheduled_for", aggregates, starts=starts, grouping=grouping)


calls_totals = CompiledQuery(
    _calls_totals, params={**BUCKETED_PARAMS, "now": DateTimeField()}, model=Call
)


def calls_counts(*, workspace, period: Period, member=None, now=None, buckets=None, keys=None):
    """The Counts of _calls_aggregates (only `keys` when given: reading another raises),
    of the period or per bucket start with buckets."""
    now = now or timezone.now()
    cut = rollups.cut(rollups.CALLS, workspace=workspace, period=period, member=member, now=now)
    keys = None if keys is None else tuple(sorted(keys))
    parts = [
        calls_totals(
            **figures_params(workspace=workspace, period=span, member=member),
            now=now,
            keys=keys,
            rolled=rolled,
            **buckets_params(buckets),
        )
        for rolled, span in cut
    ]
    if buckets is None:
        return Counts(added(parts))
    return {start: Counts(counts) for start, counts in added_per_bucket(parts, buckets).items()}


def _show_rate(counts: dict, ws) -> fields.Field:
    show_notes = []
    if counts["awaiting"]:
        show_notes.append(
            Note(
                "calls.show_rate",
                AWAITING_OUTCOME,
                f"{counts['awaiting']} call(s) past their start have no attendance recorded; "
                "the show rate leaves them out.",
            )
        )
    return fields.rate(
        "calls.show_rate",
        counts["taken"],
        counts["taken"] + counts["no_show"],
        workspace=ws,
        notes=show_notes,
    )


def _offer_rate(counts: dict, ws) -> fields.Field:
    if counts["taken"] and not counts["offer_recorded"]:
        return fields.rate(
            "calls.offer_rate",
            None,
            counts["taken"],
            workspace=ws,
            unavailable=NO_NUMERATOR,
            reason="No taken call in the period has whether an offer was made recorded.",
        )
    return fields.rate("calls.offer_rate", counts["offered"], counts["taken"], workspace=ws)


# Each /calls figure from the counts (CALLS_COUNTS_OF names those it reads), in the order
# an answer writes them.
_CALLS_FIELDS = {
    "booked": lambda c, ws: fields.count("calls.booked", c["booked"], workspace=ws),
    "cancelled": lambda c, ws: fields.count("calls.cancelled", c["cancelled"], workspace=ws),
    "taken": lambda c, ws: fields.count("calls.taken", c["taken"], workspace=ws),
    "no_show": lambda c, ws: fields.count("calls.no_show", c["no_show"], workspace=ws),
    "awaiting_outcome": lambda c, ws: fields.count(
        "calls.awaiting_outcome", c["awaiting"], workspace=ws
    ),
    "upcoming": lambda c, ws: fields.count("calls.upcoming", c["upcoming"], workspace=ws),
    "closed": lambda c, ws: fields.count("calls.closed", c["closed"], workspace=ws),
    "show_rate": _show_rate,
    "close_rate": lambda c, ws: fields.rate(
        "calls.close_rate", c["closed"], c["taken"], workspace=ws
    ),
    "offer_rate": _offer_rate,
}


def _calls_counter(*, workspace, period: Period, member, buckets, now, keys):
    return calls_counts(
        workspace=workspace, period=period, member=member, now=now, buckets=buckets, keys=keys
    )


CALLS = Family(
    name="calls",
    count_keys=CALLS_COUNT_KEYS,
    fields=_CALLS_FIELDS,
    counter=_calls_counter,
    counts_of=CALLS_COUNTS_OF,
)


def calls_data(counts: dict, workspace, figures=None) -> dict:
    """The /calls figures (only `figures` when given) from calls_counts' Counts."""
    return CALLS.data(counts, workspace, figures)


def calls_figures(*, workspace, period: Period, member=None, now=None) -> Figures:
    counts = calls_counts(workspace=workspace, period=period, member=member, now=now)
    return Figures(calls_data(counts, workspace))


def calls_awaiting_outcome(*, workspace, period: Period, member, now=None, limit: int = 50):
    """The member's calls of the period that are past their start with no attendance
    recorded (the `calls.awaiting_outcome` figure's calls), oldest first, with their lead."""
    now = now or timezone.now()
    return list(
        live_calls(workspace=workspace, period=period, member=member)
        .filter(status=Call.Status.SCHEDULED, attendance="", scheduled_for__lt=now)
        .select_related("lead")
        .order_by("scheduled_for")[:limit]
    )


# The /calls figures a list shows, each with the count of calls_conditions it lists.
LISTED_COUNTS = {
    "booked": "booked",
    "cancelled": "cancelled",
    "taken": "taken",
    "no_show": "no_show",
    "awaiting_outcome": "awaiting",
    "upcoming": "upcoming",
    "closed": "closed",
    # The calls the show rate is taken over: those who showed up and those who did not.
    "show_rate": ("taken", "no_show"),
}


def calls_of_figure(*, workspace, period: Period, figure: str, member=None, now=None):
    """The calls a /calls count figure counts (booked, taken, awaiting_outcome...), or
    the show rate is taken over, as a queryset with their lead, closer and setter; KeyError for another figure."""
    conditions = calls_conditions(now or timezone.now())
    keys = LISTED_COUNTS[figure]
    condition = reduce(
        or_, (conditions[key] for key in ((keys,) if isinstance(keys, str) else keys))
    )
    return (
        live_calls(workspace=workspace, period=period, member=member)
        .filter(condition)
        .select_related("lead", "closer", "setter")
    )
