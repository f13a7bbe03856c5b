"""/speed-to-lead: the leads of the last minutes not yet contacted, and the share that
were."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Count, DateTimeField, UUIDField
from django.utils import timezone

from core.compiled import Aggregate, CompiledQuery
from core.times import utc_iso
from workspaces import contact
from workspaces.models import Lead

from .. import envelope as fields
from .base import Figures, member_ref_of, pk_of

WITHIN_MINUTES_MAX = 7 * 24 * 60
WITHIN_MINUTES_DEFAULT = 120


def _speed_query(*, part: str, workspace, member, since, now):
    """The leads created from `since` to `now` counted, and how many of them had their
    first contact by `now` (workspaces.contact) ("counts"), or those that had not, oldest
    first ("waiting")."""
    leads = Lead.objects.filter(workspace=workspace, created_at__gte=since, created_at__lte=now)
    if member is not None:
        leads = leads.filter(setter=member)
    contacted = contact.contacted(by=now)
    if part == "counts":
        return Aggregate(leads, total=Count("pk"), contacted=Count("pk", filter=contacted))
    # The columns of the rows only, not whole leads and setters.
    return (
        leads.exclude(contacted)
        .order_by("created_at", "pk")
        .values_list("pk", "name", "email", "created_at", "setter", "setter__name", "setter__email")
    )


speed_query = CompiledQuery(
    _speed_query,
    params={
        "workspace": UUIDField(),
        "member": UUIDField(),
        "since": DateTimeField(),
        "now": DateTimeField(),
    },
    model=Lead,
)


def speed_to_lead(*, workspace, within_minutes: int, member=None, now=None) -> Figures:
    now = now or timezone.now()
    since = now - timedelta(minutes=within_minutes)
    params = {"workspace": workspace.pk, "member": pk_of(member), "since": since, "now": now}
    counts = speed_query(part="counts", **params)
    waiting = speed_query(part="waiting", **params)
    rows = list(
        {
            "id": str(pk),
            "name": name,
            "email": email,
            "created_at": utc_iso(created_at),
            "minutes_waited": int((now - created_at).total_seconds() // 60),
            "setter": member_ref_of(setter, setter_name, setter_email),
            "open_url": f"{settings.BASE_URL}/app/leads/{pk}",
        }
        for pk, name, email, created_at, setter, setter_name, setter_email in waiting
    )
    ws = workspace
    return Figures(
        {
            "within_minutes": within_minutes,
            "since": utc_iso(since),
            "waiting": fields.count(
                "speed_to_lead.waiting", counts["total"] - counts["contacted"], workspace=ws
            ),
            "contacted_rate": fields.rate(
                "speed_to_lead.contacted_rate", counts["contacted"], counts["total"], workspace=ws
            ),
            "leads": rows,
        }
    )
