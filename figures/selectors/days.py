"""The daily roll-ups as the figures read them (figures/rollups.py keeps them): which
roll-up counts which records, and a period cut into runs of local days, each read from a
roll-up or from the records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db.models import BigIntegerField, Count, DateTimeField, Model, Q, Sum, UUIDField
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from core.compiled import CompiledQuery
from core.times import workspace_zone
from workspaces.models import Call, FunnelProgress, Lead, Outcome

from ..models import (
    CallDay,
    CohortDay,
    FunnelDay,
    LeadDay,
    PastOutcomeDay,
    RollupDirty,
    RollupState,
)
from ..period import Period, local_midnight
from .base import Span, funnel_entered_in, in_period, leads_created_in, live_calls, past_forms

# A period cut into more runs than this is read from the records in one pass.
RUNS_MAX = 6


@dataclass(frozen=True)
class Kind:
    """A roll-up: its model, the records it counts (of a workspace, in a Span), their time
    column, the columns it counts them by (named alike in the model) and, beside the count
    `n`, its sums: {model column: the aggregate of the records it holds}."""

    name: str
    model: type[Model]
    time_field: str
    columns: tuple[str, ...]
    records: Callable[..., object]  # (workspace, span, member=None) -> the records
    record_model: type[Model]
    sums: dict = field(default_factory=dict)


def _leads_created(workspace, span, member=None):
    """The leads created in the span: what the leads and cohort roll-ups count."""
    return leads_created_in(workspace=workspace, period=span, member=member)


LEADS = Kind(
    name="leads",
    model=LeadDay,
    time_field="created_at",
    columns=(),
    records=_leads_created,
    record_model=Lead,
)
CALLS = Kind(
    name="calls",
    model=CallDay,
    time_field="scheduled_for",
    columns=("status", "attendance", "offer_made", "outcome", "outcome_reason"),
    records=lambda workspace, span, member=None: live_calls(
        workspace=workspace, period=span, member=member
    ),
    record_model=Call,
)
PAST_OUTCOMES = Kind(
    name="past_outcomes",
    model=PastOutcomeDay,
    time_field="at",
    columns=("result", "reason"),
    records=lambda workspace, span, member=None: past_forms(
        workspace=workspace, period=span, member=member
    ),
    record_model=Outcome,
)
# The leads of the period as /attribution and /acquisition group them: by their kept UtmTags
# (or, without it, their own tags), with the flags and cash the services keep on a lead.
COHORT = Kind(
    name="cohort",
    model=CohortDay,
    time_field="created_at",
    columns=("utm_tags_id", "utm_source", "utm_medium", "utm_campaign", "utm_content"),
    records=_leads_created,
    record_model=Lead,
    sums={
        "booked": Count("pk", filter=Q(has_booking=True)),
        "shows": Count("pk", filter=Q(has_show=True)),
        "closes": Count("pk", filter=Q(has_sale=True)),
        "cash": Coalesce(Sum("cash_collected"), 0, output_field=BigIntegerField()),
    },
)
# The leads that entered a funnel, by the time they entered its first stage: /funnel's
# cohort. A member's funnel reads the records (their setter's leads).
FUNNELS = Kind(
    name="funnels",
    model=FunnelDay,
    time_field="entered_at",
    columns=("funnel_id", "depth"),
    records=lambda workspace, span, member=None: funnel_entered_in(
        workspace=workspace, period=span, member=member
    ),
    record_model=FunnelProgress,
)
KINDS = {kind.name: kind for kind in (LEADS, CALLS, PAST_OUTCOMES, COHORT, FUNNELS)}


def day_span(first: date, last: date, zone) -> Span:
    return Span(local_midnight(first, zone), local_midnight(last + timedelta(days=1), zone))


# --- Reading -------------------------------------------------------------------------


def _rollup_query(*, part: str, workspace, kind=None, zone=None, start=None, end=None):
    """The kinds and time zones of the workspace's built roll-ups ("zones"), or the local
    days (in `zone`) its dirty rows of a kind name, in [start, end) when given ("dirty")."""
    if part == "zones":
        return (
            RollupState.objects.filter(workspace_id=workspace)
            .exclude(built_at=None)
            .values_list("kind", "zone")
        )
    dirty = RollupDirty.objects.filter(workspace_id=workspace, kind=kind)
    if start is not None:
        dirty = dirty.filter(at__gte=start, at__lt=end)
    return dirty.annotate(day=TruncDate("at", tzinfo=zone)).values_list("day").distinct()


rollup_query = CompiledQuery(
    _rollup_query,
    params={"workspace": UUIDField(), "start": DateTimeField(), "end": DateTimeField()},
    model=RollupState,
)


def built_zones(workspace) -> dict[str, str]:
    """{kind: time zone} of the workspace's built roll-ups, read once per workspace object
    (a request's): a roll-up built during a request is read from the next one on."""
    zones = getattr(workspace, "_rollup_zones", None)
    if zones is None:
        zones = dict(rollup_query(part="zones", workspace=workspace.pk))
        workspace._rollup_zones = zones
    return zones


def runs(kind: Kind, *, workspace, period: Period, now: datetime | None = None):
    """The period as runs of local days, each (True, Span) to read from the roll-up or
    (False, Span) from the records; None to read the records over the whole period (no
    roll-up, one of another time zone, a period that is not whole local days, or too many
    runs)."""
    if not settings.FIGURES_ROLLUPS:
        return None
    zone = workspace_zone(workspace)
    if Span(period.start, period.end) != day_span(period.first_day, period.last_day, zone):
        return None
    if built_zones(workspace).get(kind.name) != zone.key:
        return None
    raw = dirty_days(kind, workspace_id=workspace.pk, zone=zone, start=period.start, end=period.end)
    raw.add((now or timezone.now()).astimezone(zone).date())
    cut: list[tuple[bool, date, date]] = []
    day = period.first_day
    while day <= period.last_day:
        rolled = day not in raw
        if cut and cut[-1][0] == rolled:
            cut[-1] = (rolled, cut[-1][1], day)
        else:
            cut.append((rolled, day, day))
        day += timedelta(days=1)
    if len(cut) > RUNS_MAX:
        return None
    return [(rolled, day_span(first, last, zone)) for rolled, first, last in cut]


def cut(kind: Kind, *, workspace, period: Period, member=None, now: datetime | None = None):
    """`runs`, or the whole period from the records: a member's figures, or no roll-up."""
    found = None
    if member is None:
        found = runs(kind, workspace=workspace, period=period, now=now)
    return found if found is not None else [(False, period)]


def dirty_days(kind: Kind, *, workspace_id, zone, start=None, end=None) -> set[date]:
    """The local days the workspace's dirty rows of the kind name (in [start, end) when
    given)."""
    rows = rollup_query(
        part="dirty", workspace=workspace_id, kind=kind.name, zone=zone, start=start, end=end
    )
    return {day for (day,) in rows}


def days_of(kind: Kind, *, workspace, span: Span):
    """The roll-up's rows of the workspace (or its primary key) in the span (their time the
    local day's start)."""
    return kind.model.objects.filter(workspace=workspace).filter(in_period(span, kind.time_field))


def rows_of(kind: Kind, rolled: bool, *, workspace, span: Span, member=None):
    """A run's rows: the roll-up's (`rolled`) or the records'."""
    if rolled:
        return days_of(kind, workspace=workspace, span=span)
    return kind.records(workspace, span, member)
