"""Reads of the agent API. Every function takes the workspace it reads, so nothing here
can reach another workspace's rows; an id that is not the workspace's is not found."""

from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

from core.errors import NotFound
from core.ids import parse_uuid
from core.times import utc_iso
from figures.envelope import Field, major_units
from figures.period import Period
from figures.selectors import key_figures
from workspaces.models import Call, EodReport, Lead, Member
from workspaces.validators import logo_is_safe

from .models import ChangeLogEntry, Draft


def _get(queryset, value, message: str):
    pk = parse_uuid(value)
    found = queryset.filter(pk=pk).first() if pk is not None else None
    if found is None:
        raise NotFound(message)
    return found


# --- Look-ups that answer 404 --------------------------------------------------------------


def call_get(*, workspace, call_id) -> Call:
    return _get(
        Call.objects.filter(workspace=workspace).select_related("lead", "closer", "setter"),
        call_id,
        "No call of this workspace has that call_id.",
    )


def lead_get(*, workspace, lead_id) -> Lead:
    return _get(
        Lead.objects.filter(workspace=workspace), lead_id, "No lead of this workspace has that id."
    )


def member_get(*, workspace, member_id) -> Member:
    return _get(
        Member.objects.filter(workspace=workspace, is_active=True),
        member_id,
        "No member of this workspace has that member_id.",
    )


def draft_get_for_member(*, workspace, member, draft_id) -> Draft:
    """A draft of this workspace for this member: another member's draft is not found."""
    return _get(
        Draft.objects.filter(workspace=workspace, member=member),
        draft_id,
        "No draft of yours in this workspace has that draft_id.",
    )


def change_get(*, workspace, change_id) -> ChangeLogEntry:
    return _get(
        ChangeLogEntry.objects.filter(workspace=workspace),
        change_id,
        "No change-log entry of this workspace has that id.",
    )


# --- Display and workspaces ----------------------------------------------------------------


def _programme_for_display(programme: dict, workspace) -> dict:
    """Programmes applied by a plan keep their price in minor units; answer major units."""
    if "price_minor" not in programme:
        return programme
    shown = {key: value for key, value in programme.items() if key != "price_minor"}
    shown["price"] = major_units(programme["price_minor"], workspace)
    shown["currency"] = workspace.currency
    return shown


def display_for(*, workspace) -> dict:
    branding = workspace.branding or {}
    return {
        "workspace_id": workspace.pk,
        "name": workspace.name,
        # Only an https logo is shown, whatever was stored before the rule.
        "logo": branding.get("logo") if logo_is_safe(branding.get("logo")) else "",
        "colours": branding.get("colours") or {},
        "labels": branding.get("labels") or {},
        "modules": branding.get("modules") or [],
        "programmes": [
            _programme_for_display(programme, workspace)
            for programme in branding.get("programmes") or []
        ],
        "currency": workspace.currency,
        "timezone": workspace.timezone,
    }


def workspaces_reached(*, principal) -> list:
    """The workspaces a workspace API token or a member's session token reaches: its own."""
    return [principal.workspace] if principal.workspace.archived_at is None else []


# --- Lists ---------------------------------------------------------------------------------


def changes_list(*, workspace, period):
    """Entries effective in the period (a figures.period.Period), newest first."""
    return list(
        ChangeLogEntry.objects.filter(
            workspace=workspace, effective_at__gte=period.start, effective_at__lt=period.end
        ).order_by("-effective_at", "-created_at")
    )


def drafts_open(*, workspace, member=None):
    """Open drafts, oldest first; only member's own when member is given."""
    drafts = Draft.objects.filter(workspace=workspace, status=Draft.Status.OPEN)
    if member is not None:
        drafts = drafts.filter(member=member)
    return list(drafts.order_by("created_at"))


# --- Around a change -----------------------------------------------------------------------


def _difference(before: Field, after: Field, workspace):
    """after - before in the figure's unit; None when either side is unknown."""
    if before.value is None or after.value is None:
        return None
    if before.unit == "money":
        return major_units(after.raw - before.raw, workspace)
    if before.unit == "rate":
        difference = Decimal(str(after.value)) - Decimal(str(before.value))
        return float(difference.quantize(Decimal("0.0001"), ROUND_HALF_UP))
    return after.value - before.value


def change_compare(*, workspace, change, days: int) -> tuple[Period, dict]:
    """The key figures of the days before the change and of the days from it, side by side.

    Returns the whole span as a Period, and the data (Fields inside) for the Envelope.
    """
    pivot = change.effective_at
    span = timedelta(days=days)
    before = key_figures(workspace=workspace, start=pivot - span, end=pivot).data
    after = key_figures(workspace=workspace, start=pivot, end=pivot + span).data
    period = Period.of_instants(workspace=workspace, start=pivot - span, end=pivot + span)
    return period, {
        "days": days,
        "before": {"from": utc_iso(pivot - span), "to": utc_iso(pivot)},
        "after": {"from": utc_iso(pivot), "to": utc_iso(pivot + span)},
        "figures": {
            metric: {
                "before": before[metric],
                "after": after[metric],
                "difference": _difference(before[metric], after[metric], workspace),
            }
            for metric in before
        },
    }


# --- The EOD form's page ---------------------------------------------------------------------


def eod_reports_filed(*, workspace, member, last_day, days: int = 62) -> dict:
    """The member's end-of-day reports of the `days` days up to last_day, by day: what the
    form shows when a day is filed already (filing it again replaces that report)."""
    first_day = last_day - timedelta(days=days - 1)
    reports = EodReport.objects.filter(
        workspace=workspace, member=member, date__gte=first_day, date__lte=last_day
    ).only("date", "submitted_at", "fields")
    return {report.date: report for report in reports}
