"""Daily roll-ups of the records the leads, calls, outcomes, acquisition and funnel figures
count (figures/rollups.py).

A roll-up row counts the records of one workspace's local day that share the values of the
columns a figure groups or filters by. Its time column, named as the record's, holds the
instant that local day begins, so the figures' own conditions and period filters read a
roll-up model as they read the records, counting `n` instead of rows (and adding up a
kind's sums, such as the cohort's shows, instead of counting them).
"""

from django.db import models

from workspaces.models import Workspace


class DayRow(models.Model):
    """What every roll-up row holds: its workspace (the first column of the model's index
    with the time column) and how many records it counts."""

    workspace = models.ForeignKey(
        Workspace, on_delete=models.CASCADE, db_index=False, related_name="+"
    )
    n = models.IntegerField()

    class Meta:
        abstract = True


class LeadDay(DayRow):
    """The leads created on a local day."""

    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["workspace", "created_at"], name="leadday_ws_day")]


class CohortDay(DayRow):
    """The leads created on a local day, per UTM combination (the kept UtmTags, and the
    lead's own four tags), with how many of them have a call that counts, showed, and
    bought, and the cash collected on their sales to date: the cohort /attribution,
    /acquisition and the acquisition series read."""

    created_at = models.DateTimeField()
    # The lead's UtmTags, by its key: no constraint, a combination is never removed alone.
    utm_tags_id = models.BigIntegerField(null=True)
    utm_source = models.CharField(max_length=200, blank=True)
    utm_medium = models.CharField(max_length=200, blank=True)
    utm_campaign = models.CharField(max_length=200, blank=True)
    utm_content = models.CharField(max_length=200, blank=True)
    booked = models.IntegerField()
    shows = models.IntegerField()
    closes = models.IntegerField()
    cash = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["workspace", "created_at"], name="cohortday_ws_day")]


class CallDay(DayRow):
    """The live calls (not replaced) of a local day, per status, attendance, offer and
    outcome."""

    scheduled_for = models.DateTimeField()
    status = models.CharField(max_length=20)
    attendance = models.CharField(max_length=20, blank=True)
    offer_made = models.BooleanField(null=True)
    outcome = models.CharField(max_length=20, blank=True)
    outcome_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["workspace", "scheduled_for"], name="callday_ws_day")]


class PastOutcomeDay(DayRow):
    """The past-call forms (outcomes filed without a call) of a local day, per result and
    reason."""

    at = models.DateTimeField()
    result = models.CharField(max_length=20)
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["workspace", "at"], name="pastoutcomeday_ws_day")]


class FunnelDay(DayRow):
    """The leads that entered a funnel's first stage on a local day, per funnel and how
    many of its stages they reached in order (FunnelProgress.depth)."""

    entered_at = models.DateTimeField()
    # The funnel, by its key: a funnel deleted takes its progress, and so its days, along.
    funnel_id = models.BigIntegerField()
    depth = models.PositiveSmallIntegerField()

    class Meta:
        indexes = [models.Index(fields=["workspace", "entered_at"], name="funnelday_ws_day")]


class RollupState(models.Model):
    """A workspace's roll-up of one kind: being built (built_at empty) or built with the
    local days of `zone`. While a state exists, every write of the kind's records leaves a
    RollupDirty row (database triggers)."""

    workspace = models.ForeignKey(
        Workspace, on_delete=models.CASCADE, db_index=False, related_name="+"
    )
    kind = models.CharField(max_length=20)
    zone = models.CharField(max_length=64)
    built_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace", "kind"], name="rollupstate_ws_kind")
        ]


class RollupDirty(models.Model):
    """An instant whose local day's roll-up may no longer match the records: written by the
    database in the transaction of the write (a record's old and new time), removed once
    that day is counted again."""

    id = models.BigAutoField(primary_key=True)
    # No foreign key: written by triggers, and left behind by a workspace being deleted
    # until the next refresh removes it.
    workspace_id = models.UUIDField()
    kind = models.CharField(max_length=20)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["workspace_id", "kind", "at"], name="rollupdirty_ws_at")]
