"""/payments and /commission: cash paid, refunds and the period's sales (one aggregate
each over its own time column), and what each member is owed under their commission rule."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db.models import (
    BigIntegerField,
    CharField,
    Count,
    DecimalField,
    F,
    OuterRef,
    Q,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce

from core.compiled import CompiledQuery
from integrations.providers import PROVIDERS
from integrations.selectors import held_count
from workspaces.models import CommissionRule, Member, Payment, Refund, Sale

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import DOES_NOT_NEST, MONEY, NOT_COMPUTED, UNPLACED_EVENTS
from .base import (
    BUCKETED_PARAMS,
    FIGURES_PARAMS,
    SUCCEEDED,
    Counts,
    Figures,
    Span,
    buckets_params,
    figures_params,
    held_by,
    in_period,
    member_ref_of,
    per_bucket,
    pk_of,
    totals,
)
from .family import Family

_MINOR_SUM = {"output_field": BigIntegerField()}


# The records of each part of /payments and /commission, defined once: the payments that
# succeeded in the period (by when they were paid), the refunds of the period, the sales
# closed in it.


def payments_paid_in(*, workspace, period: Period | Span):
    return Payment.objects.filter(workspace=workspace, status=SUCCEEDED).filter(
        in_period(period, "paid_at")
    )


def refunds_in(*, workspace, period: Period | Span):
    return Refund.objects.filter(workspace=workspace).filter(in_period(period, "at"))


def sales_closed_in(*, workspace, period: Period | Span):
    return Sale.objects.filter(workspace=workspace).filter(in_period(period, "closed_at"))


def _payments_querysets(*, workspace, period: Period | Span, member=None) -> dict:
    """{part: (queryset, its time column, its aggregates)} of payments_counts."""
    payments = payments_paid_in(workspace=workspace, period=period)
    refunds = refunds_in(workspace=workspace, period=period)
    sales = sales_closed_in(workspace=workspace, period=period)
    if member is not None:
        payments = payments.filter(held_by(member, "sale__"))
        refunds = refunds.filter(held_by(member, "sale__"))
        sales = sales.filter(held_by(member))
    return {
        "cash": (payments, "paid_at", {"cash": Coalesce(Sum("amount"), 0, **_MINOR_SUM)}),
        "refunds": (refunds, "at", {"refunded": Coalesce(Sum("amount"), 0, **_MINOR_SUM)}),
        # Cash collected to date on the period's sales: each sale keeps the sum of its
        # succeeded payments, so a sale with more cash than its contract value shows.
        "sales": (
            sales,
            "closed_at",
            {
                "sales": Count("pk"),
                "revenue": Coalesce(Sum("contract_value"), 0, **_MINOR_SUM),
                "collected": Coalesce(Sum("cash_collected"), 0, **_MINOR_SUM),
                "over_collected": Count("pk", filter=Q(cash_collected__gt=F("contract_value"))),
            },
        ),
    }


def payments_of_figure(*, workspace, period: Period, part: str, member=None):
    """The records a /payments part adds up ("cash": the succeeded payments of
    cash_collected, "refunds": the refunds of refunded, "sales": the sales of revenue_booked),
    from the querysets its aggregate is taken over; and their time column."""
    queryset, time_field, _ = _payments_querysets(
        workspace=workspace, period=period, member=member
    )[part]
    return queryset, time_field


def _payments_part(*, part: str, workspace, member, start, end, starts=None, grouping=None):
    """A part's aggregate over [start, end); per bucket with `grouping` (base.totals)."""
    queryset, time_field, aggregates = _payments_querysets(
        workspace=workspace, period=Span(start, end), member=member
    )[part]
    return totals(queryset, time_field, aggregates, starts=starts, grouping=grouping)


payments_part = CompiledQuery(_payments_part, params=BUCKETED_PARAMS, model=Payment)

# The counts and sums of each part's aggregate (_payments_querysets).
PAYMENT_PART_KEYS = {
    "cash": ("cash",),
    "refunds": ("refunded",),
    "sales": ("sales", "revenue", "collected", "over_collected"),
}
_PAYMENT_PARTS = tuple(PAYMENT_PART_KEYS)


def payments_counts(*, workspace, period: Period, member=None, buckets=None, parts=None):
    """Cash paid, refunds and the period's sales (per bucket with buckets), each from one
    aggregate over its own time column, as Counts. `parts` limits the queries to those
    named ("cash", "refunds", "sales"): reading a count of another raises."""
    parts = parts or set(_PAYMENT_PARTS)
    # A bucket with none of a part's records counts 0 of it.
    zero = {key: 0 for part in _PAYMENT_PARTS if part in parts for key in PAYMENT_PART_KEYS[part]}
    params = figures_params(workspace=workspace, period=period, member=member)
    if buckets is None:
        found = Counts(zero)
        for part in _PAYMENT_PARTS:
            if part in parts:
                found.update(payments_part(part=part, **params))
        return found
    grouped = [
        per_bucket(payments_part(part=part, **params, **buckets_params(buckets)), buckets)
        for part in _PAYMENT_PARTS
        if part in parts
    ]
    starts = set().union(*(part.keys() for part in grouped))
    return {
        start: Counts(
            {**zero, **{k: v for part in grouped for k, v in part.get(start, {}).items()}}
        )
        for start in starts
    }


def _collection_rate(counts: dict, ws) -> fields.Field:
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
    return collection_rate


# Each /payments figure from the counts, in the order an answer writes them.
_PAYMENTS_FIELDS = {
    "cash_collected": lambda c, ws: fields.money(
        "payments.cash_collected", c["cash"], workspace=ws
    ),
    "refunded": lambda c, ws: fields.money("payments.refunded", c["refunded"], workspace=ws),
    "net_cash": lambda c, ws: fields.money(
        "payments.net_cash", c["cash"] - c["refunded"], workspace=ws
    ),
    "sales": lambda c, ws: fields.count("payments.sales", c["sales"], workspace=ws),
    "revenue_booked": lambda c, ws: fields.money(
        "payments.revenue_booked", c["revenue"], workspace=ws
    ),
    "average_sale": lambda c, ws: fields.average_money(
        "payments.average_sale", c["revenue"], c["sales"], workspace=ws
    ),
    "collection_rate": _collection_rate,
}


def _payments_counter(*, workspace, period: Period, member, buckets, now, keys):
    """payments_counts of the parts that count `keys`."""
    parts = {part for part, part_keys in PAYMENT_PART_KEYS.items() if set(part_keys) & set(keys)}
    return payments_counts(
        workspace=workspace, period=period, member=member, buckets=buckets, parts=parts
    )


_SALES_KEYS = frozenset(PAYMENT_PART_KEYS["sales"])
PAYMENTS = Family(
    name="payments",
    count_keys=tuple(key for part in _PAYMENT_PARTS for key in PAYMENT_PART_KEYS[part]),
    fields=_PAYMENTS_FIELDS,
    counter=_payments_counter,
    # Cash and refunds each from their own aggregate; every other figure from the sales'.
    counts_of={
        "cash_collected": frozenset(PAYMENT_PART_KEYS["cash"]),
        "refunded": frozenset(PAYMENT_PART_KEYS["refunds"]),
        "net_cash": frozenset(PAYMENT_PART_KEYS["cash"] + PAYMENT_PART_KEYS["refunds"]),
        **dict.fromkeys(
            ("sales", "revenue_booked", "average_sale", "collection_rate"), _SALES_KEYS
        ),
    },
)


def payments_data(counts: dict, workspace, figures=None) -> dict:
    """The /payments figures (only `figures` when given) from payments_counts' Counts."""
    return PAYMENTS.data(counts, workspace, figures)


def payments_figures(*, workspace, period: Period, member=None) -> Figures:
    counts = payments_counts(workspace=workspace, period=period, member=member)
    notes = () if member is not None else unplaced_notes(workspace=workspace, period=period)
    return Figures(payments_data(counts, workspace), notes=notes)


# --- /commission ----------------------------------------------------------------------


def _commission_members(*, workspace, member):
    """The members /commission lists, each with their rule's basis, slot and rate."""
    rules = CommissionRule.objects.filter(workspace=workspace, member=OuterRef("pk"))
    members = Member.objects.filter(workspace=workspace, is_active=True).filter(
        Q(role__in=sorted(Member.REPORTING_ROLES))
        | Q(pk__in=CommissionRule.objects.filter(workspace=workspace).values("member"))
    )
    if member is not None:
        members = members.filter(pk=member)
    # The columns each row answers with, not whole members.
    return (
        members.annotate(
            rule_basis=Subquery(rules.values("basis")[:1], output_field=CharField()),
            rule_slot=Subquery(rules.values("slot")[:1], output_field=CharField()),
            rule_rate=Subquery(
                rules.values("rate")[:1], output_field=DecimalField(max_digits=6, decimal_places=4)
            ),
        )
        .order_by("name", "pk")
        .values_list("pk", "name", "email", "role", "rule_basis", "rule_slot", "rule_rate")
    )


def _commission_basis(*, part: str, workspace, period: Period | Span):
    """The records /commission adds up for a part ("cash", "sales", "refunds"), the prefix
    of their closer and setter columns and the column summed."""
    if part == "refunds":
        queryset = refunds_in(workspace=workspace, period=period)
        prefix, amount = "sale__", "amount"
    elif part == "sales":
        queryset = sales_closed_in(workspace=workspace, period=period)
        prefix, amount = "", "contract_value"
    else:
        # Payments carry their sale's closer and setter: no join to the sales.
        queryset = payments_paid_in(workspace=workspace, period=period)
        prefix, amount = "", "amount"
    return queryset, prefix, amount


COMMISSION_TIME = {"cash": "paid_at", "sales": "closed_at", "refunds": "at"}


def commission_records(*, workspace, period: Period, part: str, member, slot: str):
    """The records behind a member's commission owed: those of the part (their rule's basis,
    or the refunds taken off it) where they hold the rule's slot, as _commission_totals
    sums them; and their time column."""
    queryset, prefix, _ = _commission_basis(part=part, workspace=workspace, period=period)
    return queryset.filter(**{f"{prefix}{slot}": member}), COMMISSION_TIME[part]


def _commission_totals(*, part: str, workspace, member, start, end):
    """Totals of cash paid, sales booked or refunds per (closer, setter) pair: one grouped
    pass over the period's range."""
    queryset, prefix, amount = _commission_basis(
        part=part, workspace=workspace, period=Span(start, end)
    )
    if member is not None:
        queryset = queryset.filter(held_by(member, prefix))
    return (
        queryset.order_by()
        .values_list(f"{prefix}closer", f"{prefix}setter")
        .annotate(t=Sum(amount))
    )


commission_members = CompiledQuery(
    _commission_members,
    params={"workspace": FIGURES_PARAMS["workspace"], "member": FIGURES_PARAMS["member"]},
    model=Member,
)


def _each_slot(sql: str, vendor: str) -> str:
    """On PostgreSQL, _commission_totals' statement grouped by each slot on its own
    (GROUPING SETS) rather than by the (closer, setter) pair: a row per member and slot,
    the other slot's column NULL, a few dozen rows instead of a row per pair (1,500 on a
    large team). Elsewhere the pairs' rows, which slot_totals adds up the same way."""
    if vendor != "postgresql":
        return sql
    head, found, tail = sql.rpartition(" GROUP BY 1, 2")
    if not found or tail:
        raise ValueError(f"Expected a statement grouped by its two first columns: {sql}")
    return f"{head} GROUP BY GROUPING SETS ((1), (2))"


commission_totals = CompiledQuery(
    _commission_totals, params=FIGURES_PARAMS, model=Payment, finish=_each_slot
)


def slot_totals(rows) -> dict:
    """{(slot, member id): total} from commission_totals' rows, per (closer, setter) pair or
    per slot (one id NULL): a pair's total counts for its closer and for its setter."""
    found: dict = {}
    for closer_id, setter_id, total in rows:
        if closer_id is not None:
            found["closer", closer_id] = found.get(("closer", closer_id), 0) + total
        if setter_id is not None:
            found["setter", setter_id] = found.get(("setter", setter_id), 0) + total
    return found


def commission_figures(*, workspace, period: Period, member=None) -> Figures:
    rows = commission_members(workspace=workspace.pk, member=pk_of(member))
    common = figures_params(workspace=workspace, period=period, member=member)

    def per_slot(part: str) -> dict:
        return slot_totals(commission_totals(part=part, **common))

    basis_totals = {
        CommissionRule.Basis.CASH_COLLECTED: per_slot("cash"),
        CommissionRule.Basis.REVENUE_BOOKED: per_slot("sales"),
    }
    refund_totals = per_slot("refunds")

    owed_of = fields.FieldsOf("commission.owed", MONEY, workspace=workspace)
    member_rows = []
    for pk, name, email, role, rule_basis, rule_slot, rule_rate in rows:
        if rule_basis is None:
            owed = owed_of.money(
                None, unavailable=NOT_COMPUTED, reason=f"{name} has no commission rule."
            )
            rule = None
        else:
            basis = basis_totals[rule_basis].get((rule_slot, pk), 0)
            refunded = refund_totals.get((rule_slot, pk), 0)
            rate = Decimal(rule_rate)
            owed_minor = int(((basis - refunded) * rate).quantize(Decimal(1), ROUND_HALF_UP))
            owed = owed_of.money(owed_minor)
            rule = {"basis": rule_basis, "slot": rule_slot, "rate": float(rate)}
            rule["basis_amount"] = fields.major_units(basis, workspace)
            rule["refunded"] = fields.major_units(refunded, workspace)
        member_rows.append(
            {**member_ref_of(pk, name, email), "role": role, "rule": rule, "owed": owed}
        )
    notes = () if member is not None else unplaced_notes(workspace=workspace, period=period)
    return Figures({"members": member_rows}, notes=notes)


def unplaced_notes(*, workspace, period: Period, provider: str = "stripe") -> tuple[Note, ...]:
    """An unplaced-events note when events of the provider that happened in the period are
    held (the payments and refunds /payments and /commission leave out)."""
    held = held_count(workspace=workspace, provider=provider, start=period.start, end=period.end)
    if not held:
        return ()
    known = PROVIDERS.get(provider)
    name = known.name if known is not None else provider
    what = "payment or refund" if held == 1 else "payments or refunds"
    return (
        Note(
            provider,
            UNPLACED_EVENTS,
            f"{held} {name} {what} in this period {'is' if held == 1 else 'are'} held and left "
            "out of these figures: they could not be placed on a sale. Assign or dismiss them "
            "on the Integrations page.",
        ),
    )
