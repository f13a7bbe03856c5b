"""What a person's own pages read."""

import json
from collections import defaultdict
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.db.models import Max, Min
from django.urls import reverse

from workspaces.invitations import invitations_pending_for
from workspaces.models import Agency, Call, Lead, Member, RecordUpload


def user_places(*, user) -> dict:
    """Where a signed-in person can go: workspaces they administer, their agencies, and the
    invitations waiting for their answer."""
    memberships = list(
        Member.objects.filter(user=user, is_active=True, workspace__archived_at__isnull=True)
        .select_related("workspace")
        .order_by("workspace__name")
    )
    agencies = list(Agency.objects.filter(users=user).order_by("name"))
    return {
        "memberships": memberships,
        "admin_memberships": [m for m in memberships if m.role in Member.ADMIN_ROLES],
        "agencies": agencies,
        "invitations": list(invitations_pending_for(user=user)),
    }


# --- the Import page -------------------------------------------------------------------

UPLOADS_SHOWN = 10


def uploads_recent(*, workspace) -> list[RecordUpload]:
    """The workspace's latest uploads, newest first (without their lines)."""
    return list(
        RecordUpload.objects.filter(workspace=workspace)
        .defer("lines", "preview", "errors")
        .order_by("-created_at")[:UPLOADS_SHOWN]
    )


def _ids_by_type(upload: RecordUpload) -> dict[str, list[str]]:
    ids = defaultdict(list)
    for raw in upload.lines.splitlines():
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        if isinstance(data, dict):
            ids[data.get("type")].append(str(data.get("id")))
    return ids


def _days_query(workspace, queryset, time_field: str) -> dict | None:
    """The custom period (workspace days) from the first to the last of the records."""
    span = queryset.aggregate(first=Min(time_field), last=Max(time_field))
    if span["first"] is None:
        return None
    zone = ZoneInfo(workspace.timezone)
    return {
        "range": "custom",
        "from": span["first"].astimezone(zone).date().isoformat(),
        "to": span["last"].astimezone(zone).date().isoformat(),
    }


def upload_links(*, upload: RecordUpload) -> dict[str, dict]:
    """Where the records an upload brought are listed, by type: {"url", "label"}. Leads
    and calls open the app's lists for the days they cover; members the Members page;
    the other types the overview, whose figures they feed."""
    workspace = upload.workspace
    ids = _ids_by_type(upload)
    overview = reverse("dashboard-overview", args=[workspace.pk])
    links = {}
    for record_type in upload.counts:
        links[record_type] = {"url": overview, "label": "See the overview"}
    if "member" in upload.counts:
        links["member"] = {
            "url": reverse("settings-members", args=[workspace.pk]),
            "label": "See the members",
        }
    if "lead" in upload.counts:
        leads = Lead.objects.filter(workspace=workspace, external_id__in=ids["lead"])
        query = _days_query(workspace, leads, "created_at")
        if query is not None:
            url = reverse("dashboard-leads", args=[workspace.pk])
            links["lead"] = {"url": f"{url}?{urlencode(query)}", "label": "See the leads"}
    if "call" in upload.counts:
        calls = Call.objects.filter(workspace=workspace, external_id__in=ids["call"])
        query = _days_query(workspace, calls, "booked_at")
        if query is not None:
            url = reverse("dashboard-calls", args=[workspace.pk])
            links["call"] = {
                "url": f"{url}?{urlencode({'figure': 'booked', **query})}",
                "label": "See the calls",
            }
    return links
