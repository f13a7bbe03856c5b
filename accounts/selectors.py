"""What a person's own pages read."""

from workspaces.invitations import invitations_pending_for
from workspaces.models import Agency, Member


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
