"""Daily roll-ups: the leads created, the calls, the past-call forms, the leads' cohort (per
UTM combination) and the funnels' entries of each local day of a workspace, counted per
value of the columns the /leads, /calls, /outcomes, /attribution, /acquisition and /funnel
figures read (figures/models.py).

A figure of whole local days reads the roll-up for its days and the records for the rest,
the period cut into runs of days (figures/selectors/days.py): a day is read from the
records when it is today (its calls turn from upcoming to awaiting as the hours pass), when
a write touched it since it was last counted, or when the workspace has no roll-up of the
kind yet (or one counted in another time zone). A member's figures read the records (the
roll-ups count the whole workspace). The answer is therefore always the records' own: the
roll-up only spares reading them.

Who keeps them:
- database triggers (figures/triggers.py, created by the migrations), in the transaction
  of every write of a counted record, leave its old and new time in RollupDirty while the
  workspace has a RollupState of the kind;
- `rollups_refresh` (the beat, every ROLLUPS_REFRESH_SECONDS, on a queue and a pool of
  its own) counts the dirty days again, at most ROLLUPS_DAYS_PER_ROUND a round shared among
  the workspaces that have some (the others wait for the next round, read from the records
  meanwhile), and removes the dirty rows it counted, and builds the roll-ups of workspaces that have
  none, or not of every kind (ROLLUPS_BUILDS_PER_ROUND a round), or whose time zone
  changed;
- `rollups_build` counts every day of a workspace, for the beat and for a bulk load.

A round counts and removes the dirty rows of one snapshot of the database: a dirty row
committed while its day is being counted stays, so the day is read from the records until
the next round.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import date, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Count, F, Max, Min, Model
from django.db.models.functions import TruncDate
from django.utils import timezone

from core.times import workspace_zone
from workspaces.models import Workspace

from .models import RollupDirty, RollupState
from .period import local_midnight
from .selectors.base import Span
from .selectors.days import KINDS, Kind, day_span, days_of, dirty_days

logger = logging.getLogger(__name__)
CREATE_BATCH = 2000


def _day_runs(days: set[date]) -> list[tuple[date, date]]:
    """Consecutive days as (first, last) runs."""
    runs: list[tuple[date, date]] = []
    for day in sorted(days):
        if runs and runs[-1][1] + timedelta(days=1) == day:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


# --- Counting --------------------------------------------------------------------------


def _counted(kind: Kind, workspace, zone, span: Span) -> list[Model]:
    """The roll-up rows of the records in the span, a row per local day and values."""
    grouped = (
        kind.records(workspace, span)
        .order_by()
        .annotate(_day=TruncDate(kind.time_field, tzinfo=zone))
        .values("_day", *kind.columns)
        .annotate(_n=Count("pk"), **{f"_{name}": total for name, total in kind.sums.items()})
        # Written in day order: a period's rows sit together in the table.
        .order_by("_day")
    )
    return [
        kind.model(
            workspace_id=workspace.pk,
            n=row.pop("_n"),
            **{kind.time_field: local_midnight(row.pop("_day"), zone)},
            **{name: row.pop(f"_{name}") for name in kind.sums},
            **row,
        )
        for row in grouped
    ]


def _days_count(kind: Kind, workspace, zone, days: set[date]) -> int:
    """Count the days again: their rows replaced by the records' counts."""
    written = 0
    for first, last in _day_runs(days):
        span = day_span(first, last, zone)
        days_of(kind, workspace=workspace, span=span).delete()
        rows = _counted(kind, workspace, zone, span)
        kind.model.objects.bulk_create(rows, batch_size=CREATE_BATCH)
        written += len(rows)
    return written


@contextmanager
def _one_snapshot():
    """A transaction whose statements all see the database as at its first one (PostgreSQL's
    REPEATABLE READ; SQLite's transactions already do): the dirty rows it reads, the records
    it counts and the dirty rows it removes are the same moment's, and a write committed
    meanwhile leaves its dirty rows for the next round."""
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        connection = transaction.get_connection()
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def _dirty_rows(workspace_id, kind: Kind):
    return RollupDirty.objects.filter(workspace_id=workspace_id, kind=kind.name)


def rollup_build(workspace: Workspace, kind: Kind) -> int:
    """Count every day of the workspace's records of the kind, in its time zone, and mark
    the roll-up built; the rows written. Writes made meanwhile leave their days dirty."""
    zone = workspace_zone(workspace)
    with transaction.atomic():
        # From here on, every write of the records leaves its days dirty.
        RollupState.objects.update_or_create(
            workspace=workspace, kind=kind.name, defaults={"zone": zone.key, "built_at": None}
        )
    with _one_snapshot():
        RollupState.objects.select_for_update().get(workspace=workspace, kind=kind.name)
        kind.model.objects.filter(workspace_id=workspace.pk).delete()
        # The days of all the workspace's records of the model: those counted are among them.
        bounds = kind.record_model.objects.filter(workspace_id=workspace.pk).aggregate(
            first=Min(kind.time_field), last=Max(kind.time_field)
        )
        written = 0
        if bounds["first"] is not None:
            first = bounds["first"].astimezone(zone).date()
            last = bounds["last"].astimezone(zone).date()
            rows = _counted(kind, workspace, zone, day_span(first, last, zone))
            kind.model.objects.bulk_create(rows, batch_size=CREATE_BATCH)
            written = len(rows)
        # The dirty rows of this snapshot: counted above.
        _dirty_rows(workspace.pk, kind).delete()
        RollupState.objects.filter(workspace=workspace, kind=kind.name).update(
            built_at=timezone.now()
        )
    return written


def rollups_build(workspace: Workspace, *, missing: bool = False) -> int:
    """Every roll-up of the workspace (`missing`: those it has no state of), counted from
    its records."""
    held = set()
    if missing:
        held = set(RollupState.objects.filter(workspace=workspace).values_list("kind", flat=True))
    return sum(rollup_build(workspace, kind) for kind in KINDS.values() if kind.name not in held)


def _refresh(workspace_id, kind: Kind, *, days_max: int | None = None) -> tuple[int, int]:
    """Count again the days the dirty rows name (the first `days_max` of them, when given),
    in one snapshot; the dirty rows of the days counted removed, the others left for the
    next round. Returns (dirty rows removed, days counted)."""
    with _one_snapshot():
        state = (
            RollupState.objects.select_for_update()
            .select_related("workspace")
            .filter(workspace_id=workspace_id, kind=kind.name)
            .first()
        )
        if state is None:
            # The workspace has no roll-up (any more): nothing to keep.
            return _dirty_rows(workspace_id, kind).delete()[0], 0
        zone = workspace_zone(state.workspace)
        if state.built_at is None or state.zone != zone.key:
            return 0, 0  # being built, or rebuilt by rollups_refresh in the new time zone
        days = sorted(dirty_days(kind, workspace_id=workspace_id, zone=zone))
        if days_max is not None and len(days) > days_max:
            days = days[: max(days_max, 0)]
            _days_count(kind, state.workspace, zone, set(days))
            removed = 0
            for first, last in _day_runs(set(days)):
                span = day_span(first, last, zone)
                removed += (
                    _dirty_rows(workspace_id, kind)
                    .filter(at__gte=span.start, at__lt=span.end)
                    .delete()[0]
                )
            return removed, len(days)
        _days_count(kind, state.workspace, zone, set(days))
        return _dirty_rows(workspace_id, kind).delete()[0], len(days)


def rollups_refresh(*, builds: int | None = None) -> dict[str, int]:
    """The beat's round: count the dirty days again, rebuild the roll-ups of workspaces
    whose time zone changed, and build those of up to `builds` workspaces without one."""
    builds = settings.ROLLUPS_BUILDS_PER_ROUND if builds is None else builds
    dirty = 0
    pairs = list(
        RollupDirty.objects.order_by().values_list("workspace_id", "kind").distinct()[:200]
    )
    budget = settings.ROLLUPS_DAYS_PER_ROUND
    for position, (workspace_id, name) in enumerate(pairs):
        kind = KINDS.get(name)
        if kind is None:
            RollupDirty.objects.filter(workspace_id=workspace_id, kind=name).delete()
            continue
        # Each (workspace, kind) left gets its share of what is left of the round's days,
        # and at least a day: one workspace's thousands of days never take a round alone.
        share = max(1, budget // (len(pairs) - position))
        try:
            removed, counted = _refresh(workspace_id, kind, days_max=share)
            dirty += removed
            budget = max(0, budget - counted)
        except DatabaseError:
            # Another round counting the same days at once: the next round retries.
            logger.warning("Could not refresh the %s roll-up of %s", name, workspace_id)
    rebuilt = 0
    moved = (
        RollupState.objects.exclude(zone=F("workspace__timezone"))
        .exclude(zone="UTC", workspace__timezone="")
        .select_related("workspace")[:builds]
    )
    for state in moved:
        rollup_build(state.workspace, KINDS[state.kind])
        rebuilt += 1
    built = 0
    # Workspaces without a roll-up of every kind (a kind added since theirs were built).
    complete = (
        RollupState.objects.filter(kind__in=list(KINDS))
        .order_by()
        .values("workspace_id")
        .annotate(kinds=Count("kind"))
        .filter(kinds=len(KINDS))
        .values("workspace_id")
    )
    for workspace in Workspace.objects.exclude(pk__in=complete).order_by("pk")[
        : max(0, builds - rebuilt)
    ]:
        rollups_build(workspace, missing=True)
        built += 1
    return {"dirty": dirty, "rebuilt": rebuilt, "built": built}
