"""/eod: end-of-day reports expected, submitted and on time, per reporting member and in
all."""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import Count, DateField, F, FilteredRelation, Q

from core.compiled import Aggregate, CompiledQuery
from workspaces.models import EodReport, Member

from .. import envelope as fields
from ..period import Period, local_today
from ..registry import COUNT, NO_DENOMINATOR, RATE
from .base import FIGURES_PARAMS, Figures, member_ref_of, pk_of


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


def _eod_reports(*, workspace, member, first_day, last_day):
    reports = EodReport.objects.filter(workspace=workspace, date__gte=first_day, date__lte=last_day)
    if member is not None:
        reports = reports.filter(member=member)
    return reports


def eod_reports_of_period(*, workspace, period: Period, member=None):
    """The EOD reports eod.submitted counts (of one member with `member`), with their
    member."""
    return _eod_reports(
        workspace=workspace, member=member, first_day=period.first_day, last_day=period.last_day
    ).select_related("member")


def _eod_query(*, part: str, workspace, member, first_day, last_day, last_due, working):
    """The reporting members with their reports of the days first_day..last_day counted
    ("members"; on_due_day: those of a working day up to last_due, from the day they
    joined), or the count of all those reports ("submitted")."""
    if part == "submitted":
        reports = _eod_reports(
            workspace=workspace, member=member, first_day=first_day, last_day=last_day
        )
        return Aggregate(reports, submitted=Count("*"))
    # Join only the period's reports (the join's ON clause), not each member's history.
    period_reports = FilteredRelation(
        "eod_reports",
        condition=Q(eod_reports__date__gte=first_day, eod_reports__date__lte=last_day),
    )
    due_report = (
        Q(period_reports__date__lte=last_due)
        & Q(period_reports__date__iso_week_day__in=[day + 1 for day in working])
        & (Q(joined_at__isnull=True) | Q(period_reports__date__gte=F("joined_at")))
    )
    reporting = Member.objects.filter(
        workspace=workspace, is_active=True, role__in=sorted(Member.REPORTING_ROLES)
    )
    if member is not None:
        reporting = reporting.filter(pk=member)
    # The columns each row answers with, not whole members.
    return (
        reporting.annotate(period_reports=period_reports)
        .annotate(
            submitted=Count("period_reports"),
            on_due_day=Count("period_reports", filter=due_report),
        )
        .order_by("name", "pk")
        .values_list("pk", "name", "email", "role", "joined_at", "submitted", "on_due_day")
    )


eod_query = CompiledQuery(
    _eod_query,
    params={
        "workspace": FIGURES_PARAMS["workspace"],
        "member": FIGURES_PARAMS["member"],
        "first_day": DateField(),
        "last_day": DateField(),
        "last_due": DateField(),
    },
    model=Member,
)


def eod_figures(*, workspace, period: Period, member=None, now=None) -> Figures:
    first, last_due = _due_window(workspace=workspace, period=period, now=now)
    working = tuple(int(day) for day in (workspace.working_days or []))
    params = {
        "workspace": workspace.pk,
        "member": pk_of(member),
        "first_day": period.first_day,
        "last_day": period.last_day,
        "last_due": last_due,
        "working": working,
    }
    rows = eod_query(part="members", **params)
    submitted_total = eod_query(part="submitted", **params)["submitted"]

    expected_of = fields.FieldsOf("eod.expected", COUNT, workspace=workspace)
    submitted_of = fields.FieldsOf("eod.submitted", COUNT, workspace=workspace)
    compliance_of = fields.FieldsOf("eod.compliance_rate", RATE, workspace=workspace)
    member_rows = []
    expected_total = on_due_total = 0
    for pk, name, email, role, joined_at, submitted, on_due_day in rows:
        start = max(first, joined_at) if joined_at else first
        expected = _working_days_between(start, last_due, working)
        expected_total += expected
        on_due_total += on_due_day
        member_rows.append(
            {
                **member_ref_of(pk, name, email),
                "role": role,
                "expected": expected_of.count(expected),
                "submitted": submitted_of.count(submitted),
                "compliance_rate": compliance_of.rate(
                    on_due_day,
                    expected,
                    empty=NO_DENOMINATOR,
                    reason=f"{name} was not due to report on any day of the period."
                    if expected == 0
                    else None,
                ),
            }
        )
    return Figures(
        {
            "expected": expected_of.count(expected_total),
            "submitted": submitted_of.count(submitted_total),
            "compliance_rate": compliance_of.rate(
                on_due_total,
                expected_total,
                empty=NO_DENOMINATOR,
                reason="Nobody was due to report on any day of the period."
                if expected_total == 0
                else None,
            ),
            "members": member_rows,
        }
    )


def eod_days_missed(*, workspace, member, first_day: date, last_day: date) -> list[date]:
    """The working days first_day..last_day (from the day the member joined) on which the
    member filed no end-of-day report, newest first: what their board asks them to file.
    Members who do not report (owners, admins, managers) miss none."""
    if member.role not in Member.REPORTING_ROLES or last_day < first_day:
        return []
    if member.joined_at:
        first_day = max(first_day, member.joined_at)
    working = {int(day) for day in (workspace.working_days or [])}
    filed = set(
        EodReport.objects.filter(
            workspace=workspace, member=member, date__gte=first_day, date__lte=last_day
        ).values_list("date", flat=True)
    )
    days = []
    day = last_day
    while day >= first_day:
        if day.weekday() in working and day not in filed:
            days.append(day)
        day -= timedelta(days=1)
    return days


def eod_filed_on(*, workspace, member, day: date) -> bool:
    return EodReport.objects.filter(workspace=workspace, member=member, date=day).exists()
