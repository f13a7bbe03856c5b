"""Reads behind the figures API, each a small fixed number of aggregate queries.

Every selector takes keyword arguments: the `workspace`, a `period`
(figures.period.Period: a UTC range [start, end) plus its local days) and, where it
makes sense, an optional `member` that restricts the figures to the records where that
member holds a slot (a call's or sale's closer or setter, a lead's setter, their own EOD
reports). Selectors return `data` built of figures.envelope.Field objects; the views
wrap it with figures.envelope.envelope_build.

Counting and summing happen in the database (conditional aggregation, subqueries);
Python only arranges the few grouped rows that come back.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connections
from django.db.models import (
    BigIntegerField,
    CharField,
    Count,
    DecimalField,
    F,
    FilteredRelation,
    Func,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce, Trunc
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import InvalidParameter, NotFound
from integrations.selectors import held_count
from workspaces.models import (
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelProgress,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
)

from . import envelope as fields
from .envelope import Note
from .period import Period, local_midnight, local_today, workspace_zone
from .registry import (
    AWAITING_OUTCOME,
    DOES_NOT_NEST,
    METRIC_LIST,
    NO_DATA_SOURCE,
    NO_DENOMINATOR,
    NO_NUMERATOR,
    NOT_COMPUTED,
    TRUNCATED,
    UNPLACED_EVENTS,
)

NONE_LABEL = "(none)"
CLOSED_OUTCOMES = ("closed", "deposit")
OUTCOME_RESULTS = ("closed", "deposit", "follow_up", "no_sale", "disqualified")
SUCCEEDED = Payment.Status.SUCCEEDED
DEFAULT_FUNNEL = "vsl"
LEADS_LIMIT_MAX = 500
LEADS_LIMIT_DEFAULT = 100
WITHIN_MINUTES_MAX = 7 * 24 * 60
WITHIN_MINUTES_DEFAULT = 120


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def member_ref(member) -> dict | None:
    if member is None:
        return None
    return {"id": str(member.pk), "name": member.name, "email": member.email}


def _in(period: Period, field: str) -> Q:
    return Q(**{f"{field}__gte": period.start, f"{field}__lt": period.end})


def _slots(member, prefix: str = "") -> Q:
    """Records where the member holds the closer or setter slot."""
    return Q(**{f"{prefix}closer": member}) | Q(**{f"{prefix}setter": member})


def _live_calls(*, workspace, period: Period, member=None):
    """Calls at their final time in the period (a replaced call no longer counts)."""
    calls = Call.objects.filter(workspace=workspace, replaced=False).filter(
        _in(period, "scheduled_for")
    )
    if member is not None:
        calls = calls.filter(_slots(member))
    return calls


# --- One aggregate, over the whole period or per local day, week or month -------------

INTERVALS = ("day", "week", "month")
SERIES_POINTS_MAX = 1000


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


class WidthBucket(Func):
    """PostgreSQL's width_bucket(time, ARRAY[bucket starts]): 1 for the first bucket."""

    output_field = IntegerField()

    def __init__(self, expression, starts):
        super().__init__(expression)
        self.starts = list(starts)

    def as_sql(self, compiler, connection, **extra):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"width_bucket({sql}, %s::timestamptz[])", (*params, self.starts)


def _totals(queryset, time_field: str, aggregates: dict, buckets: Buckets | None):
    """queryset.aggregate(**aggregates); with buckets, {local bucket start: that dict}."""
    if buckets is None:
        return queryset.aggregate(**aggregates)
    if connections[queryset.db].vendor == "postgresql":
        days = [day for day, _ in buckets.starts]
        bucket = WidthBucket(F(time_field), [instant for _, instant in buckets.starts])
        rows = queryset.annotate(_bucket=bucket).order_by().values("_bucket")
        return {days[row.pop("_bucket") - 1]: row for row in rows.annotate(**aggregates)}
    bucket = Trunc(time_field, buckets.interval, tzinfo=buckets.zone)
    rows = queryset.annotate(_bucket=bucket).order_by().values("_bucket").annotate(**aggregates)
    return {buckets.key(row.pop("_bucket")): row for row in rows}


# --- /calls ---------------------------------------------------------------------------


def _calls_aggregates(now) -> dict:
    scheduled = Q(status=Call.Status.SCHEDULED)
    unmarked = scheduled & Q(attendance="")
    taken = scheduled & Q(attendance=Call.Attendance.SHOWED)
    return {
        "booked": Count("pk", filter=scheduled),
        "cancelled": Count("pk", filter=Q(status=Call.Status.CANCELLED)),
        "taken": Count("pk", filter=taken),
        "no_show": Count("pk", filter=scheduled & Q(attendance=Call.Attendance.NO_SHOW)),
        "awaiting": Count("pk", filter=unmarked & Q(scheduled_for__lt=now)),
        "upcoming": Count("pk", filter=unmarked & Q(scheduled_for__gte=now)),
        "closed": Count("pk", filter=taken & Q(outcome__in=CLOSED_OUTCOMES)),
        "offered": Count("pk", filter=taken & Q(offer_made=True)),
        "offer_recorded": Count("pk", filter=taken & Q(offer_made__isnull=False)),
    }


CALLS_COUNT_KEYS = ("booked", "cancelled", "taken", "no_show", "awaiting", "upcoming",
                    "closed", "offered", "offer_recorded")  # fmt: skip
# The counts each /calls figure is built from by _calls_data: a series of one figure
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


def _calls_counts(*, workspace, period: Period, member=None, now=None, buckets=None, keys=None):
    """The counts of _calls_aggregates (only `keys` when given; the others read as 0)."""
    calls = _live_calls(workspace=workspace, period=period, member=member)
    aggregates = _calls_aggregates(now or timezone.now())
    if keys is not None:
        aggregates = {key: aggregates[key] for key in aggregates if key in keys}
    zero = dict.fromkeys(CALLS_COUNT_KEYS, 0)
    totals = _totals(calls, "scheduled_for", aggregates, buckets)
    if buckets is None:
        return {**zero, **totals}
    return {start: {**zero, **counts} for start, counts in totals.items()}


def _calls_data(counts: dict, workspace) -> dict:
    ws = workspace
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
    if counts["taken"] and not counts["offer_recorded"]:
        offer_rate = fields.rate(
            "calls.offer_rate",
            None,
            counts["taken"],
            workspace=ws,
            unavailable=NO_NUMERATOR,
            reason="No taken call in the period has whether an offer was made recorded.",
        )
    else:
        offer_rate = fields.rate(
            "calls.offer_rate", counts["offered"], counts["taken"], workspace=ws
        )
    return {
        "booked": fields.count("calls.booked", counts["booked"], workspace=ws),
        "cancelled": fields.count("calls.cancelled", counts["cancelled"], workspace=ws),
        "taken": fields.count("calls.taken", counts["taken"], workspace=ws),
        "no_show": fields.count("calls.no_show", counts["no_show"], workspace=ws),
        "awaiting_outcome": fields.count(
            "calls.awaiting_outcome", counts["awaiting"], workspace=ws
        ),
        "upcoming": fields.count("calls.upcoming", counts["upcoming"], workspace=ws),
        "closed": fields.count("calls.closed", counts["closed"], workspace=ws),
        "show_rate": fields.rate(
            "calls.show_rate",
            counts["taken"],
            counts["taken"] + counts["no_show"],
            workspace=ws,
            notes=show_notes,
        ),
        "close_rate": fields.rate(
            "calls.close_rate", counts["closed"], counts["taken"], workspace=ws
        ),
        "offer_rate": offer_rate,
    }


def calls_figures(*, workspace, period: Period, member=None, now=None) -> dict:
    counts = _calls_counts(workspace=workspace, period=period, member=member, now=now)
    return _calls_data(counts, workspace)


# --- /outcomes ------------------------------------------------------------------------

OUTCOME_KEYS = (*OUTCOME_RESULTS, "no_show", "cancelled", "awaiting")


def _outcomes_counts(*, workspace, period: Period, member=None, buckets=None):
    """{key: count} of OUTCOME_KEYS (per bucket with buckets): calls by current outcome
    plus past-call forms dated in the period."""
    calls = _live_calls(workspace=workspace, period=period, member=member)
    scheduled = Q(status=Call.Status.SCHEDULED)
    no_outcome = scheduled & Q(outcome="")
    per_call = _totals(
        calls,
        "scheduled_for",
        {
            "cancelled": Count("pk", filter=Q(status=Call.Status.CANCELLED)),
            "no_show": Count("pk", filter=no_outcome & Q(attendance=Call.Attendance.NO_SHOW)),
            "awaiting": Count("pk", filter=no_outcome & ~Q(attendance=Call.Attendance.NO_SHOW)),
            **{r: Count("pk", filter=scheduled & Q(outcome=r)) for r in OUTCOME_RESULTS},
        },
        buckets,
    )
    past = _past_forms(workspace=workspace, period=period, member=member)
    past_counts = _totals(
        past, "at", {key: Count("pk", filter=Q(result=key)) for key in OUTCOME_KEYS}, buckets
    )
    zero = dict.fromkeys(OUTCOME_KEYS, 0)

    def add(one: dict, other: dict) -> dict:
        return {key: one[key] + other[key] for key in OUTCOME_KEYS}

    if buckets is None:
        return add(per_call, past_counts)
    return {
        start: add(per_call.get(start, zero), past_counts.get(start, zero))
        for start in per_call.keys() | past_counts.keys()
    }


def _past_forms(*, workspace, period: Period, member=None):
    past = Outcome.objects.filter(workspace=workspace, call__isnull=True).filter(_in(period, "at"))
    if member is not None:
        past = past.filter(member=member)
    return past


def _outcomes_data(counts: dict, workspace) -> dict:
    data = {}
    for key in OUTCOME_KEYS:
        data[key] = fields.count(f"outcomes.{key}", counts[key], workspace=workspace)
    data["total"] = fields.count(
        "outcomes.total", sum(counts[key] for key in OUTCOME_KEYS), workspace=workspace
    )
    return data


def outcomes_figures(*, workspace, period: Period, member=None) -> dict:
    counts = _outcomes_counts(workspace=workspace, period=period, member=member)
    calls = _live_calls(workspace=workspace, period=period, member=member)
    past = _past_forms(workspace=workspace, period=period, member=member)

    # No-sale reasons: the reason of each call's latest outcome, and of past-call forms.
    latest_reason = Subquery(
        Outcome.objects.filter(call=OuterRef("pk")).order_by("-at").values("reason")[:1]
    )
    call_reasons = (
        calls.filter(status=Call.Status.SCHEDULED, outcome="no_sale")
        .annotate(latest_reason=latest_reason)
        .order_by()
        .values_list("latest_reason")
        .annotate(n=Count("pk"))
    )
    past_reasons = (
        past.filter(result="no_sale").order_by().values_list("reason").annotate(n=Count("pk"))
    )
    reasons: dict[str, int] = {}
    for reason, n in [*call_reasons, *past_reasons]:
        key = reason or NONE_LABEL
        reasons[key] = reasons.get(key, 0) + n

    data = _outcomes_data(counts, workspace)
    data["no_sale_reasons"] = [
        {"reason": reason, "count": n}
        for reason, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    ]
    return data


# --- /payments ------------------------------------------------------------------------

_MINOR_SUM = {"output_field": BigIntegerField()}


def _payments_counts(*, workspace, period: Period, member=None, buckets=None, parts=None):
    """Cash paid, refunds and the period's sales (per bucket with buckets), each from one
    aggregate over its own time column. `parts` limits the queries to those named
    ("cash", "refunds", "sales"); the others read as zero."""
    parts = parts or {"cash", "refunds", "sales"}
    payments = Payment.objects.filter(workspace=workspace, status=SUCCEEDED).filter(
        _in(period, "paid_at")
    )
    refunds = Refund.objects.filter(workspace=workspace).filter(_in(period, "at"))
    sales = Sale.objects.filter(workspace=workspace).filter(_in(period, "closed_at"))
    if member is not None:
        payments = payments.filter(_slots(member, "sale__"))
        refunds = refunds.filter(_slots(member, "sale__"))
        sales = sales.filter(_slots(member))
    zero = {"cash": 0, "refunded": 0, "sales": 0, "revenue": 0, "collected": 0,
            "over_collected": 0}  # fmt: skip
    grouped = []
    if "cash" in parts:
        cash = {"cash": Coalesce(Sum("amount"), 0, **_MINOR_SUM)}
        grouped.append(_totals(payments, "paid_at", cash, buckets))
    if "refunds" in parts:
        refunded = {"refunded": Coalesce(Sum("amount"), 0, **_MINOR_SUM)}
        grouped.append(_totals(refunds, "at", refunded, buckets))
    if "sales" in parts:
        # Cash collected to date on the period's sales: each sale keeps the sum of its
        # succeeded payments, so a sale with more cash than its contract value shows.
        booked = {
            "sales": Count("pk"),
            "revenue": Coalesce(Sum("contract_value"), 0, **_MINOR_SUM),
            "collected": Coalesce(Sum("cash_collected"), 0, **_MINOR_SUM),
            "over_collected": Count("pk", filter=Q(cash_collected__gt=F("contract_value"))),
        }
        grouped.append(_totals(sales, "closed_at", booked, buckets))
    if buckets is None:
        return {**zero, **{k: v for part in grouped for k, v in part.items()}}
    starts = set().union(*(part.keys() for part in grouped))
    return {
        start: {**zero, **{k: v for part in grouped for k, v in part.get(start, {}).items()}}
        for start in starts
    }


def _payments_data(counts: dict, workspace) -> dict:
    ws = workspace
    collected_to_date = counts["collected"]
    over_collected = counts["over_collected"] > 0
    collection_rate = fields.rate(
        "payments.collection_rate",
        collected_to_date,
        counts["revenue"],
        workspace=ws,
        unavailable=DOES_NOT_NEST if over_collected else None,
        reason="A sale closed in the period has more cash collected than its contract value."
        if over_collected
        else None,
        side_values=(
            fields.major_units(collected_to_date, ws),
            fields.major_units(counts["revenue"], ws),
        ),
    )
    cash, refunded = counts["cash"], counts["refunded"]
    return {
        "cash_collected": fields.money("payments.cash_collected", cash, workspace=ws),
        "refunded": fields.money("payments.refunded", refunded, workspace=ws),
        "net_cash": fields.money("payments.net_cash", cash - refunded, workspace=ws),
        "sales": fields.count("payments.sales", counts["sales"], workspace=ws),
        "revenue_booked": fields.money("payments.revenue_booked", counts["revenue"], workspace=ws),
        "average_sale": fields.average_money(
            "payments.average_sale", counts["revenue"], counts["sales"], workspace=ws
        ),
        "collection_rate": collection_rate,
    }


def payments_figures(*, workspace, period: Period, member=None) -> dict:
    counts = _payments_counts(workspace=workspace, period=period, member=member)
    return _payments_data(counts, workspace)


def unplaced_notes(*, workspace, period: Period, provider: str = "stripe") -> list[Note]:
    """An unplaced-events note when events of the provider that happened in the period are
    held (the payments and refunds /payments and /commission leave out)."""
    held = held_count(workspace=workspace, provider=provider, start=period.start, end=period.end)
    if not held:
        return []
    name = {"stripe": "Stripe"}.get(provider, provider)
    what = "payment or refund" if held == 1 else "payments or refunds"
    return [
        Note(
            provider,
            UNPLACED_EVENTS,
            f"{held} {name} {what} in this period {'is' if held == 1 else 'are'} held and left "
            "out of these figures: they could not be placed on a sale. Assign or dismiss them "
            "on the Integrations page.",
        )
    ]


# --- /leads ---------------------------------------------------------------------------


def _utm(value: str) -> str:
    return value or NONE_LABEL


def _lead_row(lead) -> dict:
    return {
        "id": str(lead.pk),
        "created_at": iso(lead.created_at),
        "name": lead.name,
        "email": lead.email,
        "source": _utm(lead.utm_source),
        "utm_source": _utm(lead.utm_source),
        "utm_medium": _utm(lead.utm_medium),
        "utm_campaign": _utm(lead.utm_campaign),
        "utm_content": _utm(lead.utm_content),
        "status": lead.status,
        "setter": member_ref(lead.setter),
        "first_contact_at": iso(lead.first_contact_at),
    }


def _leads_created_in(*, workspace, period: Period, member=None):
    leads = Lead.objects.filter(workspace=workspace).filter(_in(period, "created_at"))
    if member is not None:
        leads = leads.filter(setter=member)
    return leads


def _leads_counts(*, workspace, period: Period, member=None, buckets=None):
    leads = _leads_created_in(workspace=workspace, period=period, member=member)
    return _totals(leads, "created_at", {"created": Count("pk")}, buckets)


def _leads_data(counts: dict, workspace) -> dict:
    return {"created": fields.count("leads.created", counts["created"], workspace=workspace)}


def leads_figures(*, workspace, period: Period, member=None) -> dict:
    """leads.created of /leads, without its list."""
    counts = _leads_counts(workspace=workspace, period=period, member=member)
    return _leads_data(counts, workspace)


def leads_list(
    *, workspace, period: Period, limit: int = LEADS_LIMIT_DEFAULT, member=None
) -> tuple[dict, list[Note]]:
    leads = _leads_created_in(workspace=workspace, period=period, member=member)
    created = _leads_counts(workspace=workspace, period=period, member=member)["created"]
    page = list(leads.select_related("setter").order_by("-created_at", "-pk")[:limit])
    notes = []
    if created > len(page):
        notes.append(
            Note(
                "leads",
                TRUNCATED,
                f"{len(page)} of {created} leads listed (limit {limit}); leads.created counts "
                "them all.",
            )
        )
    data = {
        **_leads_data({"created": created}, workspace),
        "leads": fields.Plain(_lead_row(lead) for lead in page),
    }
    return data, notes


# --- /series --------------------------------------------------------------------------

SERIES_ENDPOINTS = ("/api/v1/calls", "/api/v1/outcomes", "/api/v1/payments")
SERIES_METRICS = (
    *(metric.id for metric in METRIC_LIST if metric.endpoint in SERIES_ENDPOINTS),
    "leads.created",
)
# Which of the payments' three aggregates a metric reads.
_PAYMENT_PARTS = {"cash_collected": {"cash"}, "refunded": {"refunds"},
                  "net_cash": {"cash", "refunds"}}  # fmt: skip


def _next_start(start: date, interval: str) -> date:
    if interval == "day":
        return start + timedelta(days=1)
    if interval == "week":
        return start + timedelta(days=7)
    return date(start.year + start.month // 12, start.month % 12 + 1, 1)


def series_buckets(period: Period, interval: str) -> list[tuple[date, date, date]]:
    """(bucket start, first day, last day) of every day, week (from Monday) or month the
    period touches; the first and last are clipped to the period."""
    if interval == "day":
        start = period.first_day
    elif interval == "week":
        start = period.first_day - timedelta(days=period.first_day.weekday())
    else:
        start = period.first_day.replace(day=1)
    buckets = []
    while start <= period.last_day:
        following = _next_start(start, interval)
        first = max(start, period.first_day)
        last = min(following - timedelta(days=1), period.last_day)
        buckets.append((start, first, last))
        start = following
    return buckets


def series_figures(*, workspace, period: Period, metrics, interval: str, member=None, now=None):
    """{metric id: [{"from", "to", "field"}]} for each metric, one point per local day, week
    or month of the period; empty buckets included (0, or a null rate with its reason).

    Each metric is the figure its endpoint answers for the bucket: the same aggregate
    (_calls_counts, _outcomes_counts, _payments_counts, _leads_counts) grouped by bucket
    instead of taken over the whole period, turned into Fields by the same code.
    """
    zone = workspace_zone(workspace)
    rows = series_buckets(period, interval)
    starts = tuple((start, local_midnight(first, zone)) for start, first, _ in rows)
    buckets = Buckets(interval, zone, starts)
    wanted = {metric_id.split(".", 1)[0] for metric_id in metrics}
    common = {"workspace": workspace, "period": period, "member": member, "buckets": buckets}
    families = {}
    if "calls" in wanted:
        keys = set().union(
            *(CALLS_COUNTS_OF[m.split(".", 1)[1]] for m in metrics if m.startswith("calls."))
        )
        families["calls"] = (_calls_counts(now=now, keys=keys, **common), _calls_data)
    if "outcomes" in wanted:
        families["outcomes"] = (_outcomes_counts(**common), _outcomes_data)
    if "payments" in wanted:
        parts = set().union(
            *(
                _PAYMENT_PARTS.get(m.split(".", 1)[1], {"sales"})
                for m in metrics
                if m.startswith("payments.")
            )  # fmt: skip
        )
        families["payments"] = (_payments_counts(parts=parts, **common), _payments_data)
    if "leads" in wanted:
        families["leads"] = (_leads_counts(**common), _leads_data)

    built = {}
    for family, (grouped, build) in families.items():
        empty = _empty_counts(family)
        built[family] = [build(grouped.get(start) or empty, workspace) for start, _, _ in rows]
    return {
        metric_id: [
            {"from": first.isoformat(), "to": last.isoformat(), "field": data[key]}
            for (_, first, last), data in zip(rows, built[family], strict=True)
        ]
        for metric_id in metrics
        for family, key in [metric_id.split(".", 1)]
    }


def _empty_counts(family: str) -> dict:
    """The aggregate of no record: every count and sum 0."""
    keys = {
        "calls": CALLS_COUNT_KEYS,
        "outcomes": OUTCOME_KEYS,
        "payments": ("cash", "refunded", "sales", "revenue", "collected", "over_collected"),
        "leads": ("created",),
    }[family]
    return dict.fromkeys(keys, 0)


# --- /leads/{id}/journey --------------------------------------------------------------


def lead_journey(*, workspace, lead_id) -> dict:
    """Everything held about one lead, in time order; 404 for another workspace's lead."""
    try:
        lead_uuid = uuid.UUID(str(lead_id))
    except ValueError:
        raise NotFound("No lead of this workspace has that id.") from None
    lead = Lead.objects.filter(workspace=workspace, pk=lead_uuid).select_related("setter").first()
    if lead is None:
        raise NotFound("No lead of this workspace has that id.")

    events: list[dict] = [{"at": iso(lead.created_at), "type": "lead.created"}]
    for touch in Touch.objects.filter(workspace=workspace, lead=lead).select_related("member"):
        events.append(
            {
                "at": iso(touch.at),
                "type": "touch",
                "channel": touch.channel,
                "member": member_ref(touch.member),
            }
        )
    for reg in Registration.objects.filter(workspace=workspace, lead=lead).select_related("event"):
        event_ref = {"id": str(reg.event.pk), "name": reg.event.name}
        events.append(
            {"at": iso(reg.registered_at), "type": "webinar.registered", "event": event_ref}
        )
        if reg.joined_at:
            events.append({"at": iso(reg.joined_at), "type": "webinar.joined", "event": event_ref})
        if reg.left_at:
            events.append({"at": iso(reg.left_at), "type": "webinar.left", "event": event_ref})
    calls = list(
        Call.objects.filter(workspace=workspace, lead=lead).select_related("closer", "setter")
    )
    for call in calls:
        ref = {
            "id": str(call.pk),
            "scheduled_for": iso(call.scheduled_for),
            "closer": member_ref(call.closer),
            "setter": member_ref(call.setter),
        }
        booking = {"at": iso(call.booked_at), "type": "call.booked", "call": ref}
        if call.rescheduled_from_id:
            booking = {
                **booking,
                "type": "call.rescheduled",
                "rescheduled_from": str(call.rescheduled_from_id),
            }
        events.append(booking)
        if call.status == Call.Status.CANCELLED:
            events.append({"at": iso(call.scheduled_for), "type": "call.cancelled", "call": ref})
        elif call.replaced:
            continue
        elif call.attendance:
            events.append(
                {"at": iso(call.scheduled_for), "type": f"call.{call.attendance}", "call": ref}
            )
    # By the lead (past-call forms) or by one of its calls: two indexed lookups, no join.
    outcomes = Outcome.objects.filter(workspace=workspace).filter(
        Q(lead=lead) | Q(call_id__in=[call.pk for call in calls])
    )
    for outcome in outcomes.select_related("member"):
        events.append(
            {
                "at": iso(outcome.at),
                "type": "outcome",
                "result": outcome.result,
                "reason": outcome.reason,
                "offer_made": outcome.offer_made,
                "call_id": str(outcome.call_id) if outcome.call_id else None,
                "member": member_ref(outcome.member),
            }
        )
    for sale in Sale.objects.filter(workspace=workspace, lead=lead).select_related(
        "closer", "setter"
    ):
        events.append(
            {
                "at": iso(sale.closed_at),
                "type": "sale",
                "sale_id": str(sale.pk),
                "origin": sale.origin,
                "contract_value": fields.major_units(sale.contract_value, workspace),
                "currency": workspace.currency,
                "closer": member_ref(sale.closer),
                "setter": member_ref(sale.setter),
            }
        )
    for payment in Payment.objects.filter(workspace=workspace, sale__lead=lead):
        events.append(
            {
                "at": iso(payment.paid_at),
                "type": "payment",
                "payment_id": str(payment.pk),
                "sale_id": str(payment.sale_id),
                "status": payment.status,
                "amount": fields.major_units(payment.amount, workspace),
                "currency": workspace.currency,
            }
        )
    for refund in Refund.objects.filter(workspace=workspace, sale__lead=lead):
        events.append(
            {
                "at": iso(refund.at),
                "type": refund.kind,
                "payment_id": str(refund.payment_id),
                "sale_id": str(refund.sale_id),
                "amount": fields.major_units(refund.amount, workspace),
                "currency": workspace.currency,
            }
        )
    funnel_events = FunnelEvent.objects.filter(workspace=workspace, lead=lead).select_related(
        "funnel", "stage"
    )
    for event in funnel_events:
        events.append(
            {
                "at": iso(event.at),
                "type": "funnel.stage",
                "funnel": event.funnel.key,
                "stage": event.stage.key,
            }
        )
    events.sort(key=lambda event: datetime.fromisoformat(event["at"]))
    return {"lead": _lead_row(lead), "events": events}


# --- /speed-to-lead -------------------------------------------------------------------


def speed_to_lead(*, workspace, within_minutes: int, member=None, now=None) -> dict:
    now = now or timezone.now()
    since = now - timedelta(minutes=within_minutes)
    leads = Lead.objects.filter(workspace=workspace, created_at__gte=since, created_at__lte=now)
    if member is not None:
        leads = leads.filter(setter=member)
    contacted = Q(first_contact_at__isnull=False, first_contact_at__lte=now)
    counts = leads.aggregate(total=Count("pk"), contacted=Count("pk", filter=contacted))
    waiting = list(leads.exclude(contacted).select_related("setter").order_by("created_at", "pk"))
    rows = [
        {
            "id": str(lead.pk),
            "name": lead.name,
            "email": lead.email,
            "created_at": iso(lead.created_at),
            "minutes_waited": int((now - lead.created_at).total_seconds() // 60),
            "setter": member_ref(lead.setter),
            "open_url": f"{settings.BASE_URL}/app/leads/{lead.pk}",
        }
        for lead in waiting
    ]
    ws = workspace
    return {
        "within_minutes": within_minutes,
        "since": iso(since),
        "waiting": fields.count(
            "speed_to_lead.waiting", counts["total"] - counts["contacted"], workspace=ws
        ),
        "contacted_rate": fields.rate(
            "speed_to_lead.contacted_rate", counts["contacted"], counts["total"], workspace=ws
        ),
        "leads": rows,
    }


# --- /eod -----------------------------------------------------------------------------


def _working_days_between(first: date, last: date, working_days) -> int:
    """How many of the days first..last (included) fall on a working weekday."""
    if last < first:
        return 0
    days = (last - first).days + 1
    full_weeks, rest = divmod(days, 7)
    working = set(working_days)
    total = full_weeks * len(working)
    for offset in range(rest):
        if (first + timedelta(days=full_weeks * 7 + offset)).weekday() in working:
            total += 1
    return total


def _due_window(*, workspace, period: Period, now=None) -> tuple[date, date]:
    return period.first_day, min(period.last_day, local_today(workspace, now))


def eod_figures(*, workspace, period: Period, member=None, now=None) -> dict:
    first, last_due = _due_window(workspace=workspace, period=period, now=now)
    working = [int(day) for day in (workspace.working_days or [])]
    # Join only the period's reports (the join's ON clause), not each member's history.
    period_reports = FilteredRelation(
        "eod_reports",
        condition=Q(
            eod_reports__date__gte=period.first_day, eod_reports__date__lte=period.last_day
        ),
    )
    due_report = (
        Q(period_reports__date__lte=last_due)
        & Q(period_reports__date__iso_week_day__in=[day + 1 for day in working])
        & (Q(joined_at__isnull=True) | Q(period_reports__date__gte=F("joined_at")))
    )
    reporting = Member.objects.filter(
        workspace=workspace, is_active=True, role__in=sorted(Member.REPORTING_ROLES)
    )
    reports = EodReport.objects.filter(
        workspace=workspace, date__gte=period.first_day, date__lte=period.last_day
    )
    if member is not None:
        reporting = reporting.filter(pk=member.pk)
        reports = reports.filter(member=member)
    rows = list(
        reporting.annotate(period_reports=period_reports)
        .annotate(
            submitted=Count("period_reports"),
            on_due_day=Count("period_reports", filter=due_report),
        )
        .order_by("name", "pk")
    )
    submitted_total = reports.count()

    ws = workspace
    member_rows = []
    expected_total = on_due_total = 0
    for row in rows:
        start = max(first, row.joined_at) if row.joined_at else first
        expected = _working_days_between(start, last_due, working)
        expected_total += expected
        on_due_total += row.on_due_day
        member_rows.append(
            {
                **member_ref(row),
                "role": row.role,
                "expected": fields.count("eod.expected", expected, workspace=ws),
                "submitted": fields.count("eod.submitted", row.submitted, workspace=ws),
                "compliance_rate": fields.rate(
                    "eod.compliance_rate",
                    row.on_due_day,
                    expected,
                    workspace=ws,
                    empty=NO_DENOMINATOR,
                    reason=f"{row.name} was not due to report on any day of the period."
                    if expected == 0
                    else None,
                ),
            }
        )
    return {
        "expected": fields.count("eod.expected", expected_total, workspace=ws),
        "submitted": fields.count("eod.submitted", submitted_total, workspace=ws),
        "compliance_rate": fields.rate(
            "eod.compliance_rate",
            on_due_total,
            expected_total,
            workspace=ws,
            empty=NO_DENOMINATOR,
            reason="Nobody was due to report on any day of the period."
            if expected_total == 0
            else None,
        ),
        "members": member_rows,
    }


# --- /attribution ---------------------------------------------------------------------

UTM_FIELDS = ("utm_source", "utm_medium", "utm_campaign", "utm_content")


def attribution_figures(*, workspace, period: Period, member=None) -> dict:
    """Leads, closes and cash per UTM combination for the leads created in the period.

    One grouped pass over the period's leads (lead_ws_created): whether a lead has a sale
    and the cash collected on its sales are kept on the lead by the services.
    """
    leads = Lead.objects.filter(workspace=workspace).filter(_in(period, "created_at"))
    if member is not None:
        leads = leads.filter(setter=member)
    grouped = (
        leads.order_by()
        .values_list(*UTM_FIELDS)
        .annotate(
            n=Count("pk"),
            closes=Count("pk", filter=Q(has_sale=True)),
            cash=Coalesce(Sum("cash_collected"), 0, output_field=BigIntegerField()),
        )
    )
    ws = workspace
    rows = []
    for row in sorted(grouped, key=lambda r: (-r[4], tuple(_utm(v) for v in r[:4]))):
        key, n, row_closes, row_cash = tuple(row[:4]), row[4], row[5], row[6]
        rows.append(
            {
                **{name: _utm(value) for name, value in zip(UTM_FIELDS, key, strict=True)},
                "leads": fields.count("attribution.leads", n, workspace=ws),
                "closes": fields.count("attribution.closes", row_closes, workspace=ws),
                "cash_collected": fields.money(
                    "attribution.cash_collected", row_cash, workspace=ws
                ),
                "close_rate": fields.rate("attribution.close_rate", row_closes, n, workspace=ws),
            }
        )
    return {"rows": rows}


# --- /commission ----------------------------------------------------------------------


def commission_figures(*, workspace, period: Period, member=None) -> dict:
    payments = Payment.objects.filter(workspace=workspace, status=SUCCEEDED).filter(
        _in(period, "paid_at")
    )
    sales = Sale.objects.filter(workspace=workspace).filter(_in(period, "closed_at"))
    refunds = Refund.objects.filter(workspace=workspace).filter(_in(period, "at"))
    rules = CommissionRule.objects.filter(workspace=workspace, member=OuterRef("pk"))
    members = Member.objects.filter(workspace=workspace, is_active=True).filter(
        Q(role__in=sorted(Member.REPORTING_ROLES))
        | Q(pk__in=CommissionRule.objects.filter(workspace=workspace).values("member"))
    )
    if member is not None:
        members = members.filter(pk=member.pk)
    rows = members.annotate(
        rule_basis=Subquery(rules.values("basis")[:1], output_field=CharField()),
        rule_slot=Subquery(rules.values("slot")[:1], output_field=CharField()),
        rule_rate=Subquery(
            rules.values("rate")[:1], output_field=DecimalField(max_digits=6, decimal_places=4)
        ),
    ).order_by("name", "pk")
    if member is not None:
        payments = payments.filter(_slots(member))
        sales = sales.filter(_slots(member))
        refunds = refunds.filter(_slots(member, "sale__"))

    def per_slot(queryset, prefix: str, amount: str) -> dict:
        """{(slot, member id): total}, from one grouped pass over the period's range.

        Rows come back per (closer, setter) pair, a few dozen at most; adding the
        pairs up per slot is arithmetic on those groups, not on records.
        """
        totals: dict = {}
        grouped = (
            queryset.order_by()
            .values_list(f"{prefix}closer", f"{prefix}setter")
            .annotate(t=Sum(amount))
        )
        for closer_id, setter_id, total in grouped:
            for key in (("closer", closer_id), ("setter", setter_id)):
                totals[key] = totals.get(key, 0) + total
        return totals

    basis_totals = {
        # Payments carry their sale's closer and setter: no join to the sales.
        CommissionRule.Basis.CASH_COLLECTED: per_slot(payments, "", "amount"),
        CommissionRule.Basis.REVENUE_BOOKED: per_slot(sales, "", "contract_value"),
    }
    refund_totals = per_slot(refunds, "sale__", "amount")

    ws = workspace
    member_rows = []
    for row in rows:
        if row.rule_basis is None:
            owed = fields.money(
                "commission.owed",
                None,
                workspace=ws,
                unavailable=NOT_COMPUTED,
                reason=f"{row.name} has no commission rule.",
            )
            rule = None
        else:
            basis = basis_totals[row.rule_basis].get((row.rule_slot, row.pk), 0)
            refunded = refund_totals.get((row.rule_slot, row.pk), 0)
            rate = Decimal(row.rule_rate)
            owed_minor = int(((basis - refunded) * rate).quantize(Decimal(1), ROUND_HALF_UP))
            owed = fields.money("commission.owed", owed_minor, workspace=ws)
            rule = {"basis": row.rule_basis, "slot": row.rule_slot, "rate": float(rate)}
            rule["basis_amount"] = fields.major_units(basis, ws)
            rule["refunded"] = fields.major_units(refunded, ws)
        member_rows.append({**member_ref(row), "role": row.role, "rule": rule, "owed": owed})
    return {"members": member_rows}


# --- /funnel --------------------------------------------------------------------------


def _funnel_stage_counts(*, workspace, funnel, stages, period: Period, member=None) -> list:
    """How many of the cohort reached each stage, every earlier stage first, in one query.

    The cohort is the leads whose earliest event at the first stage is in the period;
    the services keep, per lead, that time and how many stages it reached in order
    (FunnelProgress), so this is one conditional count over the indexed range
    (workspace, funnel, entered_at).
    """
    progress = FunnelProgress.objects.filter(workspace=workspace, funnel=funnel).filter(
        _in(period, "entered_at")
    )
    if member is not None:
        progress = progress.filter(lead__setter=member)
    counts = progress.aggregate(
        **{f"s{index}": Count("depth", filter=Q(depth__gt=index)) for index in range(len(stages))}
    )
    return [counts[f"s{index}"] for index in range(len(stages))]


def funnel_figures(*, workspace, period: Period, funnel_key: str | None = None, member=None):
    """One funnel's stages for the cohort of leads that entered its first stage in the period.

    Returns (data, notes). An unknown funnel name answers 400 naming the existing ones.
    """
    key = funnel_key or DEFAULT_FUNNEL
    funnels = {
        f.key: f for f in Funnel.objects.filter(workspace=workspace).prefetch_related("stages")
    }
    funnel = funnels.get(key)
    if funnel is None:
        if funnel_key is None and not funnels:
            return {"funnel": key, "stages": []}, [
                Note("funnel", NO_DATA_SOURCE, "This workspace has no funnel yet.")
            ]
        raise InvalidParameter(
            "funnel",
            f"No funnel named {key!r} in this workspace.",
            funnels=sorted(funnels),
        )
    stages = list(funnel.stages.all())
    if not stages:
        return {"funnel": key, "stages": []}, [
            Note("funnel", NO_DATA_SOURCE, f"The funnel {key} has no stages.")
        ]
    counts = _funnel_stage_counts(
        workspace=workspace, funnel=funnel, stages=stages, period=period, member=member
    )
    ws = workspace
    rows = []
    previous = None
    for index, stage in enumerate(stages):
        n = counts[index]
        if previous is None:
            stage_rate = fields.rate(
                "funnel.stage_rate",
                n,
                None,
                workspace=ws,
                unavailable=NO_DENOMINATOR,
                reason="The first stage has no previous stage.",
            )
        else:
            stage_rate = fields.rate("funnel.stage_rate", n, previous, workspace=ws)
        rows.append(
            {
                "name": stage.key,
                "count": fields.count("funnel.stage_count", n, workspace=ws),
                "rate": stage_rate,
            }
        )
        previous = n
    return {"funnel": key, "stages": rows}, []


# --- /webinar -------------------------------------------------------------------------


def webinar_figures(*, workspace, period: Period, event_id: str | None = None, member=None):
    """Registrations, attendance, stay to pitch and bookings. Returns (data, notes)."""
    event = None
    if event_id is not None:
        try:
            event_uuid = uuid.UUID(str(event_id))
        except ValueError:
            event_uuid = None
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
        ).filter(_in(period, "event__starts_at"))
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
    return {
        "event": None
        if event is None
        else {
            "id": str(event.pk),
            "name": event.name,
            "starts_at": iso(event.starts_at),
            "pitch_at": iso(event.pitch_at),
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
    }, notes


# --- /audit-events --------------------------------------------------------------------


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


def _utc_text_iso(text: str) -> str:
    """UtcText as the answers write times (iso()): microseconds only when there are any."""
    if text.endswith(".000000"):
        text = text[:-7]
    return text + "Z"


def audit_events_list(*, workspace, period: Period) -> dict:
    events = (
        AuditEvent.objects.filter(workspace=workspace)
        .filter(_in(period, "at"))
        .order_by("-at", "-pk")
        .annotate(at_text=UtcText("at"))
        .values_list(
            "at_text",
            "actor_kind",
            "actor_id",
            "actor_label",
            "action",
            "target_type",
            "target_id",
            "reason",
        )
    )
    return {
        "events": fields.Plain(
            {
                "at": _utc_text_iso(at),
                "actor": {"kind": kind, "id": actor_id, "label": label},
                "action": action,
                "target": {"type": target_type, "id": target_id},
                "reason": reason,
            }
            for at, kind, actor_id, label, action, target_type, target_id, reason in events
        )
    }


# --- Reused by the agent API ----------------------------------------------------------


def member_board(*, workspace, member, period: Period, now=None) -> dict:
    """The member's own figures: calls as closer or setter, closes, cash, commission, EOD.

    Wrap it with figures.envelope.envelope_build(workspace=..., period=..., data=...).
    """
    calls = calls_figures(workspace=workspace, period=period, member=member, now=now)
    payments = payments_figures(workspace=workspace, period=period, member=member)
    commission_rows = commission_figures(workspace=workspace, period=period, member=member)[
        "members"
    ]
    if commission_rows:
        owed = commission_rows[0]["owed"]
    else:
        owed = fields.money(
            "commission.owed",
            None,
            workspace=workspace,
            unavailable=NOT_COMPUTED,
            reason=f"{member.name} has no commission rule.",
        )
    eod = eod_figures(workspace=workspace, period=period, member=member, now=now)
    return {
        "member": {**member_ref(member), "role": member.role},
        "calls": calls,
        "payments": {
            key: payments[key]
            for key in ("sales", "revenue_booked", "cash_collected", "refunded", "net_cash")
        },
        "commission": {"owed": owed},
        "eod": {key: eod[key] for key in ("expected", "submitted", "compliance_rate")},
    }


KEY_FIGURES = (
    "calls.booked",
    "calls.show_rate",
    "calls.close_rate",
    "payments.cash_collected",
    "payments.revenue_booked",
    "leads.created",
)


def key_figures(*, workspace, start, end, now=None) -> dict:
    """The key figures of a range, by metric id, each a Field.

    start/end are aware datetimes (the range is [start, end)) or dates (local days of
    the workspace, both included, like from/to). Field.raw holds the unrounded value
    (minor units for money; (numerator, denominator) for a rate) for differences.
    """
    if isinstance(start, datetime) and isinstance(end, datetime):
        period = Period.of_instants(workspace=workspace, start=start, end=end)
    else:
        period = Period.of_days(workspace=workspace, first_day=start, last_day=end)
    calls = calls_figures(workspace=workspace, period=period, now=now)
    payments = payments_figures(workspace=workspace, period=period)
    leads = _leads_data(_leads_counts(workspace=workspace, period=period), workspace)
    return {
        "calls.booked": calls["booked"],
        "calls.show_rate": calls["show_rate"],
        "calls.close_rate": calls["close_rate"],
        "payments.cash_collected": payments["cash_collected"],
        "payments.revenue_booked": payments["revenue_booked"],
        "leads.created": leads["created"],
    }
