"""Reads behind the settings pages."""

from django.db.models import QuerySet

from workspaces.models import Member

from .models import ApiToken, EmbeddedApp

TOKEN_ADMIN_ROLES = Member.ADMIN_ROLES


def api_token_list(*, workspace=None, agency=None) -> QuerySet[ApiToken]:
    """A workspace's or an agency's tokens, newest first; never their digests."""
    tokens = ApiToken.objects.defer("digest").order_by("-created_at")
    if workspace is not None:
        return tokens.filter(workspace=workspace)
    return tokens.filter(agency=agency)


def embedded_app_list(*, workspace) -> QuerySet[EmbeddedApp]:
    return (
        EmbeddedApp.objects.filter(workspace=workspace)
        .select_related("application")
        .order_by("created_at")
    )


def member_for_user(*, workspace, user) -> Member | None:
    """The signed-in person's active membership of the workspace, if any."""
    if not user.is_authenticated:
        return None
    return Member.objects.filter(workspace=workspace, user=user, is_active=True).first()
