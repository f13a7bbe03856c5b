"""The values kept on records for the figures, and their refreshes.

Some values are derived from other records and kept on the rows the figures read:
a call's outcome and whether it was replaced, a lead's first contact, bookings and shows,
sales and cash,
a registration's booking after the event, and each lead's progress through each
funnel. This module owns how each is computed, set-based, for given rows or a whole
workspace; the writers of workspaces.services call these after writing (or collect
what to refresh, for the import to refresh once).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django.db import connection, models
from django.db.models import Exists, F, Min, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from .contact import counted_touches
from .models import (
    Call,
    Funnel,
    FunnelEvent,
    FunnelProgress,
    Lead,
    Outcome,
    Payment,
    Registration,
    Sale,
    Touch,
    UtmTags,
    WebinarEvent,
    Workspace,
)

UTM_FIELDS = ("utm_source", "utm_medium", "utm_campaign", "utm_content")


def utm_digest(tags: tuple[str, str, str, str]) -> str:
    """UtmTags.digest of a combination: SHA-256 of the four tags joined by U+001F (the
    migration that made UtmTags computes the same in SQL)."""
    return hashlib.sha256("\x1f".join(tags).encode()).hexdigest()


def utm_tags_ids(*, workspace: Workspace, combinations: Iterable[tuple]) -> dict[tuple, int]:
    """{(source, medium, campaign, content): UtmTags id} of the workspace, each made if
    new. Two writers making the same combination at once both get the one row (the
    insert skips a conflict, and PostgreSQL makes the second insert wait for the first's
    transaction)."""
    wanted = {tuple(tags): utm_digest(tuple(tags)) for tags in combinations}
    if not wanted:
        return {}
    tags_of = {digest: tags for tags, digest in wanted.items()}
    held = UtmTags.objects.filter(workspace=workspace)
    found = dict(held.filter(digest__in=sorted(tags_of)).values_list("digest", "pk"))
    missing = sorted(digest for digest in tags_of if digest not in found)
    if missing:
        UtmTags.objects.bulk_create(
            [
                UtmTags(
                    workspace=workspace,
                    source=tags_of[d][0],
                    medium=tags_of[d][1],
                    campaign=tags_of[d][2],
                    content=tags_of[d][3],
                    digest=d,
                )
                for d in missing
            ],
            ignore_conflicts=True,
        )
        found.update(held.filter(digest__in=missing).values_list("digest", "pk"))
    return {tags: found[digest] for tags, digest in wanted.items()}


def utm_tags_of(values) -> tuple[str, str, str, str]:
    """The four UTM tags of a Lead or of a dict of a lead's values."""
    if isinstance(values, dict):
        return tuple(values.get(name, "") for name in UTM_FIELDS)
    return tuple(getattr(values, name) for name in UTM_FIELDS)


def _rows_lock(rows) -> None:
    """Wait for the other transactions that refresh these rows' values, so the refresh
    that follows reads their records once committed (its statements take a snapshot
    after the wait). FOR NO KEY UPDATE, in primary-key order: it does not conflict with
    the key-share locks that inserting a child record takes. PostgreSQL only (SQLite
    runs one writer at a time; the queryset is then never run), and only inside a
    transaction, which holds the lock until it commits.
    """
    if not connection.features.has_select_for_update or not connection.in_atomic_block:
        return
    locked = rows.select_for_update(no_key=True).order_by("pk")
    list(locked.values_list("pk", flat=True))


def calls_replaced_refresh(*, workspace: Workspace) -> int:
    """Call.replaced is True exactly for the calls another call reschedules; the leads of
    the calls that changed have their bookings refreshed (leads_calls_refresh)."""
    replacing = Call.objects.filter(workspace=workspace, rescheduled_from=OuterRef("pk"))
    calls = Call.objects.filter(workspace=workspace)
    now_replaced = Q(replaced=False) & Q(Exists(replacing))
    no_longer = Q(replaced=True) & ~Q(Exists(replacing))
    leads = set(calls.filter(now_replaced | no_longer).order_by().values_list("lead_id", flat=True))
    if not leads:
        return 0
    changed = calls.filter(now_replaced).update(replaced=True)
    changed += calls.filter(no_longer).update(replaced=False)
    leads_calls_refresh(workspace=workspace, lead_ids=leads)
    return changed


def leads_calls_refresh(*, workspace: Workspace, lead_ids: Iterable | None = None) -> int:
    """Lead.has_booking: the lead has a call that counts (not cancelled, and not replaced by
    another call); Lead.has_show: one of those is marked showed."""
    leads = Lead.objects.filter(workspace=workspace)
    if lead_ids is not None:
        lead_ids = list(set(lead_ids) - {None})
        if not lead_ids:
            return 0
        leads = leads.filter(pk__in=lead_ids)
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    live = Call.objects.filter(lead=OuterRef("pk"), replaced=False).exclude(
        status=Call.Status.CANCELLED
    )
    return leads.update(
        has_booking=Exists(live),
        has_show=Exists(live.filter(attendance=Call.Attendance.SHOWED)),
    )


def calls_outcome_refresh(*, workspace: Workspace, call_ids: Iterable | None = None) -> int:
    """Call.outcome and Call.outcome_reason (and offer_made, where recorded) from the
    call's latest Outcome."""
    calls = Call.objects.filter(workspace=workspace)
    if call_ids is not None:
        call_ids = list(call_ids)
        if not call_ids:
            return 0
        calls = calls.filter(pk__in=call_ids)
    latest = Outcome.objects.filter(call=OuterRef("pk")).order_by("-at", "-external_id", "-pk")
    latest_offer = latest.filter(offer_made__isnull=False)
    return calls.update(
        outcome=Coalesce(Subquery(latest.values("result")[:1]), Value("")),
        outcome_reason=Coalesce(Subquery(latest.values("reason")[:1]), Value("")),
        offer_made=Coalesce(Subquery(latest_offer.values("offer_made")[:1]), F("offer_made")),
    )


def leads_first_contact_refresh(*, workspace: Workspace, lead_ids: Iterable | None = None) -> int:
    """Lead.first_contact_at is the earliest touch that counts as a first contact
    (workspaces.contact: by a member, at or after the lead's creation)."""
    leads = Lead.objects.filter(workspace=workspace)
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return 0
        leads = leads.filter(pk__in=lead_ids)
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    first = (
        Touch.objects.filter(
            counted_touches(created_at=OuterRef("created_at")), lead=OuterRef("pk")
        )
        .order_by()
        .values("lead")
        .annotate(first=Min("at"))
        .values("first")
    )
    return leads.update(first_contact_at=Subquery(first[:1]))


def leads_sales_refresh(*, workspace: Workspace, lead_ids: Iterable | None = None) -> int:
    """The cash of the leads' sales, then Lead.has_sale and Lead.cash_collected."""
    leads = Lead.objects.filter(workspace=workspace)
    sales = Sale.objects.filter(workspace=workspace)
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return 0
        leads = leads.filter(pk__in=lead_ids)
        sales = sales.filter(lead__in=lead_ids)
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    money = models.BigIntegerField()
    paid = (
        Payment.objects.filter(sale=OuterRef("pk"), status=Payment.Status.SUCCEEDED)
        .order_by()
        .values("sale")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    sales.update(cash_collected=Coalesce(Subquery(paid[:1]), Value(0), output_field=money))
    cash = (
        Sale.objects.filter(lead=OuterRef("pk"))
        .order_by()
        .values("lead")
        .annotate(total=Sum("cash_collected"))
        .values("total")
    )
    return leads.update(
        has_sale=Exists(Sale.objects.filter(lead=OuterRef("pk"))),
        cash_collected=Coalesce(Subquery(cash[:1]), Value(0), output_field=money),
    )


def registrations_booked_refresh(
    *, workspace: Workspace, lead_ids: Iterable | None = None, event_ids: Iterable | None = None
) -> int:
    """Registration.booked_after for the leads' or events' registrations (all when both
    are None)."""
    registrations = Registration.objects.filter(workspace=workspace)
    if lead_ids is not None or event_ids is not None:
        lead_ids, event_ids = list(lead_ids or ()), list(event_ids or ())
        if not lead_ids and not event_ids:
            return 0
        registrations = registrations.filter(Q(lead__in=lead_ids) | Q(event__in=event_ids))
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
        # An event whose start is moving in another transaction: wait for its new time.
        _rows_lock(
            WebinarEvent.objects.filter(
                Q(pk__in=event_ids) | Q(pk__in=registrations.values("event"))
            )
        )
    starts = WebinarEvent.objects.filter(pk=OuterRef(OuterRef("event"))).values("starts_at")
    booked = Call.objects.filter(lead=OuterRef("lead"), booked_at__gte=Subquery(starts[:1]))
    return registrations.update(booked_after=Exists(booked))


# Leads per statement when progress is refreshed for given leads (SQLite's bound
# parameters stay well below its limit).
_PROGRESS_CHUNK = 500


def funnel_progress_refresh(
    *, workspace: Workspace, lead_ids: Iterable | None = None, funnels: Iterable | None = None
) -> None:
    """FunnelProgress of the given leads (all leads when None) in the given funnels.

    Set-based: one statement per funnel (and chunk of leads) walks the stages in order,
    each step joining the leads that reached the step before to the events of one stage
    at or after that time.
    """
    if funnels is None:
        funnels = Funnel.objects.filter(workspace=workspace).prefetch_related("stages")
    if lead_ids is not None:
        lead_ids = list(lead_ids)
        if not lead_ids:
            return
        _rows_lock(Lead.objects.filter(pk__in=lead_ids))
    for funnel in funnels:
        stages = list(funnel.stages.all())
        progress = FunnelProgress.objects.filter(funnel=funnel)
        if lead_ids is None:
            chunks = [None]
        else:
            chunks = [
                lead_ids[i : i + _PROGRESS_CHUNK] for i in range(0, len(lead_ids), _PROGRESS_CHUNK)
            ]
        for chunk in chunks:
            (progress if chunk is None else progress.filter(lead__in=chunk)).delete()
            if stages:
                funnel_progress_insert(
                    workspace_id=funnel.workspace_id,
                    funnel_id=funnel.pk,
                    stage_ids=[stage.pk for stage in stages],
                    lead_ids=chunk,
                )


def funnel_progress_insert(
    *, workspace_id, funnel_id: int, stage_ids: list[int], lead_ids: list | None
) -> None:
    """Insert the progress rows of one funnel (stages in order) for the leads (or all)."""
    quote = connection.ops.quote_name
    events = quote(FunnelEvent._meta.db_table)
    lead, at = quote("lead_id"), quote("at")
    in_stage = f"e.{quote('funnel_id')} = %s AND e.{quote('stage_id')} = %s"
    lead_pk = Lead._meta.pk
    params: list = [funnel_id, stage_ids[0]]
    only = ""
    if lead_ids is not None:
        only = f" AND e.{lead} IN ({', '.join(['%s'] * len(lead_ids))})"
        params += [lead_pk.get_db_prep_value(pk, connection) for pk in lead_ids]
    steps = [
        f"s0 AS MATERIALIZED (SELECT e.{lead} AS lead, MIN(e.{at}) AS reached "
        f"FROM {events} e WHERE {in_stage}{only} GROUP BY e.{lead})"
    ]
    for index, stage_id in enumerate(stage_ids[1:], start=1):
        steps.append(
            f"s{index} AS MATERIALIZED (SELECT prev.lead AS lead, MIN(e.{at}) AS reached "
            f"FROM s{index - 1} prev JOIN {events} e ON e.{lead} = prev.lead "
            f"WHERE {in_stage} AND e.{at} >= prev.reached GROUP BY prev.lead)"
        )
        params += [funnel_id, stage_id]
    depth = " + ".join(
        ["1"] + [f"CASE WHEN s{i}.lead IS NULL THEN 0 ELSE 1 END" for i in range(1, len(stage_ids))]
    )
    joins = "".join(f" LEFT JOIN s{i} ON s{i}.lead = s0.lead" for i in range(1, len(stage_ids)))
    columns = ", ".join(
        quote(name) for name in ("workspace_id", "funnel_id", "lead_id", "entered_at", "depth")
    )
    sql = (
        f"WITH {', '.join(steps)} INSERT INTO {quote(FunnelProgress._meta.db_table)} "
        f"({columns}) SELECT %s, %s, s0.lead, s0.reached, {depth} FROM s0{joins}"
    )
    params += [Workspace._meta.pk.get_db_prep_value(workspace_id, connection), funnel_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def workspace_invariants_refresh(*, workspace: Workspace) -> None:
    calls_replaced_refresh(workspace=workspace)
    leads_calls_refresh(workspace=workspace)
    calls_outcome_refresh(workspace=workspace)
    leads_first_contact_refresh(workspace=workspace)
    leads_sales_refresh(workspace=workspace)
    funnel_progress_refresh(workspace=workspace)
    registrations_booked_refresh(workspace=workspace)


def funnels_progress_touch(*, workspace: Workspace, pairs: Iterable[tuple]) -> None:
    """Refresh the progress of (funnel id, lead id) pairs, one pass per funnel."""
    by_funnel: dict = {}
    for funnel_id, lead_id in pairs:
        by_funnel.setdefault(funnel_id, set()).add(lead_id)
    funnels = Funnel.objects.filter(workspace=workspace, pk__in=by_funnel).prefetch_related(
        "stages"
    )
    for funnel in funnels:
        funnel_progress_refresh(
            workspace=workspace, lead_ids=by_funnel[funnel.pk], funnels=[funnel]
        )
