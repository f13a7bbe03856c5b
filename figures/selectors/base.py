"""What the figures selectors share: the Figures they answer, the constants of the records
they count, the filters by period and member slot, and one aggregate taken over the whole
period or grouped per local day, week or month (Buckets)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from zoneinfo import ZoneInfo

from django.db import connections
from django.db.models import (
    CharField,
    DateTimeField,
    F,
    Func,
    IntegerField,
    Q,
    TextField,
    UUIDField,
    Value,
)
from django.db.models.functions import Trunc

from core.compiled import Aggregate
from workspaces.models import Call, FunnelProgress, Lead, Outcome, Payment

from ..envelope import Note
from ..period import Period

NONE_LABEL = "(none)"
CLOSED_OUTCOMES = ("closed", "deposit")
OUTCOME_RESULTS = ("closed", "deposit", "follow_up", "no_sale", "disqualified")
SUCCEEDED = Payment.Status.SUCCEEDED


class MissingCount(KeyError):
    """A figure read a count its aggregate did not count: a defect, never a 0."""


class Counts(dict):
    """The counts and sums an aggregate counted, by key. Reading a key it did not count
    raises MissingCount (a figure built from a count left out of its aggregate would
    otherwise read 0 and answer a wrong number)."""

    def __missing__(self, key):
        raise MissingCount(f"{key!r} was not counted (counted: {', '.join(sorted(self))})")


@dataclass(frozen=True)
class Figures:
    """What every selector answers: the Envelope's `data` (Fields inside, rendered by
    figures.envelope.envelope_build) and the notes about the data as a whole."""

    data: dict
    notes: tuple[Note, ...] = ()


def member_ref(member) -> dict | None:
    if member is None:
        return None
    return member_ref_of(member.pk, member.name, member.email)


def member_ref_of(pk, name: str | None, email: str | None) -> dict | None:
    """A member as answers name them, from the member's columns (values_list rows; a
    relation without a member reads as None)."""
    if pk is None:
        return None
    return {"id": str(pk), "name": name, "email": email}


# The parameters of most figures queries (core.compiled.CompiledQuery): the workspace's
# and the member's primary keys and the period's bounds, as `Span(start, end)`.
FIGURES_PARAMS = {
    "workspace": UUIDField(),
    "member": UUIDField(),
    "start": DateTimeField(),
    "end": DateTimeField(),
}


@dataclass(frozen=True)
class Span:
    """The bounds in_period reads of a Period, as values or query parameters."""

    start: object
    end: object


def pk_of(record):
    return None if record is None else record.pk


def figures_params(*, workspace, period: Period | Span, member=None) -> dict:
    """The FIGURES_PARAMS of a figures query of the workspace, period and member."""
    return {
        "workspace": workspace.pk,
        "member": pk_of(member),
        "start": period.start,
        "end": period.end,
    }


def in_period(period: Period | Span, field: str) -> Q:
    return Q(**{f"{field}__gte": period.start, f"{field}__lt": period.end})


def funnel_entered_in(*, workspace, period: Period | Span, member=None, funnel=None):
    """The leads' progress in the workspace's funnels (or one funnel's) that entered its
    first stage in the period; of a member's leads (their setter) with `member`."""
    progress = FunnelProgress.objects.filter(workspace=workspace).filter(
        in_period(period, "entered_at")
    )
    if funnel is not None:
        progress = progress.filter(funnel=funnel)
    if member is not None:
        progress = progress.filter(lead__setter=member)
    return progress


def held_by(member, prefix: str = "") -> Q:
    """Records where the member holds the closer or setter slot."""
    return Q(**{f"{prefix}closer": member}) | Q(**{f"{prefix}setter": member})


def utm_label(value: str) -> str:
    return value or NONE_LABEL


def live_calls(*, workspace, period: Period, member=None):
    """Calls at their final time in the period (a replaced call no longer counts)."""
    calls = Call.objects.filter(workspace=workspace, replaced=False).filter(
        in_period(period, "scheduled_for")
    )
    if member is not None:
        calls = calls.filter(held_by(member))
    return calls


def leads_created_in(*, workspace, period: Period | Span, member=None):
    """The leads created in the period (a member's: those they set): what leads.created
    counts, its list shows, the attribution and acquisition cohorts group, defined once."""
    leads = Lead.objects.filter(workspace=workspace).filter(in_period(period, "created_at"))
    if member is not None:
        leads = leads.filter(setter=member)
    return leads


def past_forms(*, workspace, period: Period | Span, member=None):
    """The past-call forms (outcomes filed without a call) dated in the period."""
    past = Outcome.objects.filter(workspace=workspace, call__isnull=True).filter(
        in_period(period, "at")
    )
    if member is not None:
        past = past.filter(member=member)
    return past


# --- Times as text, for long lists -------------------------------------------------


class UtcText(Func):
    """A timestamp as ISO 8601 text in UTC without the zone ("2026-03-02T10:00:00" or
    "...:00.250000"), so long lists skip building a datetime per row.

    PostgreSQL formats it; SQLite already stores timestamps as UTC text.
    """

    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra):
        template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, template="REPLACE(%(expressions)s, ' ', 'T')")


def utc_text_iso(text: str | None) -> str | None:
    """UtcText as the answers write times (core.times.utc_iso): microseconds only when
    there are any; None stays None."""
    if text is None:
        return None
    if text.endswith(".000000"):
        text = text[:-7]
    return text + "Z"


# --- One aggregate, over the whole period or per local day, week or month -------------


@dataclass(frozen=True)
class Buckets:
    """Group an aggregate by the local day, week (from Monday) or month of a time column.

    `starts` holds each bucket's local start day and the UTC instant it begins (the
    first one clipped to the period), computed with the workspace's timezone, so a bucket
    is a local calendar day, week or month whatever its length across a daylight-saving
    change. PostgreSQL places each record with width_bucket over those instants (a binary
    search, no per-row timezone conversion); other databases truncate the time in the
    workspace's timezone (Trunc with tzinfo). Both give the same buckets.
    """

    interval: str
    zone: ZoneInfo
    starts: tuple[tuple[date, datetime], ...]

    def key(self, value: datetime) -> date:
        return value.astimezone(self.zone).date()

    @cached_property
    def instants_text(self) -> str:
        """The buckets' UTC start instants as one PostgreSQL array literal
        ({2026-08-31T04:00:00+00:00,...}): sent as one text parameter, it costs the driver
        and the server a fraction of a list of timestamps adapted one by one (a 90-day
        series sends it with each of its statements)."""
        return "{" + ",".join(instant.isoformat() for _, instant in self.starts) + "}"


class WidthBucket(Func):
    """PostgreSQL's width_bucket(time, ARRAY[bucket starts]): 1 for the first bucket.
    `starts` is the array's literal text (Buckets.instants_text), or an expression of it
    (a compiled query's parameter)."""

    output_field = IntegerField()

    def __init__(self, expression, starts):
        super().__init__(expression, Value(starts) if isinstance(starts, str) else starts)

    def as_sql(self, compiler, connection, **extra):
        time, starts = self.source_expressions
        time_sql, time_params = compiler.compile(time)
        starts_sql, starts_params = compiler.compile(starts)
        return (
            f"width_bucket({time_sql}, {starts_sql}::timestamptz[])",
            (*time_params, *starts_params),
        )


# The parameters of a figures query that may be grouped per bucket: FIGURES_PARAMS and the
# buckets' start instants (Buckets.instants_text). Their interval and time zone (the
# `grouping`) are part of the statement's shape; both None: not grouped.
BUCKETED_PARAMS = {**FIGURES_PARAMS, "starts": TextField()}


def buckets_params(buckets: Buckets | None) -> dict:
    """The `starts` and `grouping` arguments of a BUCKETED_PARAMS query for the buckets."""
    if buckets is None:
        return {"starts": None, "grouping": None}
    return {"starts": buckets.instants_text, "grouping": (buckets.interval, buckets.zone.key)}


def bucketed(queryset, time_field: str, *, starts, grouping):
    """The queryset annotated with `_bucket`, the bucket of `time_field` (bucket_start
    reads it): PostgreSQL's index of the bucket among `starts` (a text or a compiled
    query's parameter); elsewhere the time truncated to the bucket in its time zone."""
    interval, zone = grouping
    if connections[queryset.db].vendor == "postgresql":
        return queryset.annotate(_bucket=WidthBucket(F(time_field), starts))
    return queryset.annotate(_bucket=Trunc(time_field, interval, tzinfo=ZoneInfo(zone)))


def bucket_start(buckets: Buckets, value) -> date:
    """The local start day of the bucket a row's `_bucket` names (see bucketed)."""
    if isinstance(value, int):
        return buckets.starts[value - 1][0]
    return buckets.key(value)


def totals(queryset, time_field: str, aggregates: dict, *, starts=None, grouping=None):
    """What a BUCKETED_PARAMS query answers: the aggregate of the queryset; grouped
    (`grouping`), its rows per bucket ({"_bucket": ..., each aggregate}: per_bucket)."""
    if grouping is None:
        return Aggregate(queryset, **aggregates)
    rows = bucketed(queryset, time_field, starts=starts, grouping=grouping)
    return rows.order_by().values("_bucket").annotate(**aggregates)


def per_bucket(rows, buckets: Buckets) -> dict:
    """{local bucket start: its aggregates} of the grouped rows `totals` answers."""
    return {bucket_start(buckets, row.pop("_bucket")): row for row in rows}


def added(parts: list[dict]) -> dict:
    """Counts of parts of a period (runs of its days) added key by key: the period's."""
    if len(parts) == 1:
        return parts[0]
    total: dict = {}
    for part in parts:
        for key, value in part.items():
            total[key] = total.get(key, 0) + value
    return total


def added_per_bucket(parts: list, buckets: Buckets) -> dict:
    """{local bucket start: counts} of the grouped rows `totals` answers for each part of a
    period (runs of its days), each bucket's counts added over the parts."""
    grouped: dict = {}
    for rows in parts:
        for start, counts in per_bucket(rows, buckets).items():
            grouped.setdefault(start, []).append(counts)
    return {start: added(counts) for start, counts in grouped.items()}
