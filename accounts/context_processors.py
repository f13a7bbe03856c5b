"""The navigation every page shows a signed-in person: their workspaces and agencies,
and how many invitations wait for their answer. Read only when a page renders it."""

from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from workspaces.models import Agency, Member


def _places(user) -> dict:
    memberships = (
        Member.objects.filter(user=user, is_active=True, workspace__archived_at__isnull=True)
        .select_related("workspace")
        .order_by("workspace__name")
    )
    places = [
        {
            "name": member.workspace.name,
            "url": reverse(
                "dashboard-overview" if member.is_workspace_wide else "dashboard-board",
                args=[member.workspace_id],
            ),
            "kind": "workspace",
            "id": str(member.workspace_id),
        }
        for member in memberships
    ]
    places += [
        {
            "name": agency.name,
            "url": f"/agency/{agency.pk}/",
            "kind": "agency",
            "id": str(agency.pk),
        }
        for agency in Agency.objects.filter(users=user).order_by("name")
    ]
    return {"places": places}


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"nav": SimpleLazyObject(lambda: _places(user))}
