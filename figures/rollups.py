"""Daily roll-ups: the calls and past-call forms of each local day of a workspace, counted
per value of the columns the /calls and /outcomes figures read (figures/models.py).

A figure of whole local days reads the roll-up for its days and the records for the rest,
the period cut into runs of days (figures/selectors/days.py): a day is read from the
records when it is today (its calls turn from upcoming to awaiting as the hours pass), when
a write touched it since it was last counted, or when the workspace has no roll-up of the
kind yet (or one counted in another time zone). A member's figures read the records (the
roll-ups count the whole workspace). The answer is therefore always the records' own: the roll-up only
spares reading them.

Who keeps them:
- database triggers (migration 0002), in the transaction of every write of a counted
  record, leave its old and new time in RollupDirty while the workspace has a RollupState
  of the kind;
- `rollups_refresh` (the beat, every ROLLUPS_REFRESH_SECONDS) counts the dirty days again
  and removes the dirty rows it counted, and builds the roll-ups of workspaces that have
  none (ROLLUPS_BUILDS_PER_ROUND a round) or whose time zone changed;
- `rollups_build` counts every day of a workspace, for the beat and for a bulk load.

A dirty row written while its day is being counted stays (only the rows read before the
count are removed), so the day is read from the records until the next round.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Max, Min, Model
from django.db.models.functions import TruncDate
from django.utils import timezone

from core.times import workspace_zone
from workspaces.models import Workspace

from .models import RollupDirty, RollupState
from .period import local_midnight
from .selectors.base import Span
from .selectors.days import KINDS, Kind, day_span, days_of

# Dirty rows counted by one refresh of a workspace's roll-up.
DIRTY_BATCH = 5000
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
        .annotate(_n=Count("pk"))
    )
    return [
        kind.model(
            workspace_id=workspace.pk,
            n=row.pop("_n"),
            **{kind.time_field: local_midnight(row.pop("_day"), zone)},
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


def _dirty(workspace_id, kind: Kind) -> list[tuple[int, datetime]]:
    return list(
        RollupDirty.objects.filter(workspace_id=workspace_id, kind=kind.name)
        .order_by("pk")
        .values_list("pk", "at")[:DIRTY_BATCH]
    )


def rollup_build(workspace: Workspace, kind: Kind) -> int:
    """Count every day of the workspace's records of the kind, in its time zone, and mark
    the roll-up built; the rows written. Writes made meanwhile leave their days dirty."""
    zone = workspace_zone(workspace)
    with transaction.atomic():
        # From here on, every write of the records leaves its days dirty.
        RollupState.objects.update_or_create(
            workspace=workspace, kind=kind.name, defaults={"zone": zone.key, "built_at": None}
        )
    with transaction.atomic():
        RollupState.objects.select_for_update().get(workspace=workspace, kind=kind.name)
        seen = list(
            RollupDirty.objects.filter(workspace_id=workspace.pk, kind=kind.name).values_list(
                "pk", flat=True
            )
        )
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
        RollupDirty.objects.filter(pk__in=seen).delete()
        RollupState.objects.filter(workspace=workspace, kind=kind.name).update(
            built_at=timezone.now()
        )
    return written


def rollups_build(workspace: Workspace) -> int:
    """Every roll-up of the workspace, counted from its records."""
    return sum(rollup_build(workspace, kind) for kind in KINDS.values())


def _refresh(workspace_id, kind: Kind) -> int:
    """Count again the days the dirty rows name (a batch of them); the dirty rows read."""
    with transaction.atomic():
        state = (
            RollupState.objects.select_for_update()
            .select_related("workspace")
            .filter(workspace_id=workspace_id, kind=kind.name)
            .first()
        )
        dirty = _dirty(workspace_id, kind)
        if state is None:
            # The workspace has no roll-up (any more): nothing to keep.
            RollupDirty.objects.filter(pk__in=[pk for pk, _ in dirty]).delete()
            return len(dirty)
        if state.built_at is None:
            return 0
        zone = workspace_zone(state.workspace)
        if state.zone != zone.key:
            return 0  # rebuilt by rollups_refresh in the new time zone
        days = {at.astimezone(zone).date() for _, at in dirty}
        _days_count(kind, state.workspace, zone, days)
        RollupDirty.objects.filter(pk__in=[pk for pk, _ in dirty]).delete()
    return len(dirty)


def rollups_refresh(*, builds: int | None = None) -> dict[str, int]:
    """The beat's round: count the dirty days again, rebuild the roll-ups of workspaces
    whose time zone changed, and build those of up to `builds` workspaces without one."""
    builds = settings.ROLLUPS_BUILDS_PER_ROUND if builds is None else builds
    dirty = 0
    for workspace_id, name in (
        RollupDirty.objects.order_by().values_list("workspace_id", "kind").distinct()[:200]
    ):
        kind = KINDS.get(name)
        if kind is None:
            RollupDirty.objects.filter(workspace_id=workspace_id, kind=name).delete()
            continue
        dirty += _refresh(workspace_id, kind)
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
    for workspace in Workspace.objects.exclude(
        pk__in=RollupState.objects.values("workspace_id")
    ).order_by("pk")[: max(0, builds - rebuilt)]:
        rollups_build(workspace)
        built += 1
    return {"dirty": dirty, "rebuilt": rebuilt, "built": built}
