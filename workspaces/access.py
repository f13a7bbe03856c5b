"""Who may open a page: the one access policy of every server-rendered page.

A page of a workspace is for its active members; anyone else gets the 404 page, as for an
unknown id (nothing tells them the workspace exists). A member whose role may not use the
page gets the 403 page saying who may. A page of an agency is for the agency's users;
anyone else gets the 404 page. The role sets live on the Member model
(WORKSPACE_WIDE_ROLES, ADMIN_ROLES, REPORTING_ROLES), the same sets the API's checks use.
"""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from core.display import display_activate_workspace

from .models import Agency, Member, Workspace

ROLE_ORDER = [role.value for role in Member.Role]


class PageForbidden(Exception):
    def __init__(self, message: str, *, workspace: Workspace | None = None):
        super().__init__(message)
        self.message = message
        # The workspace the page belongs to: the 403 page keeps its header's links.
        self.workspace = workspace


def page(view):
    """A signed-in page, never cached; PageForbidden renders the 403 page."""

    @wraps(view)
    @login_required
    @never_cache
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PageForbidden as refusal:
            context = {"message": refusal.message, "workspace": refusal.workspace}
            return render(request, "forbidden.html", context, status=403)

    # Read by the test that every signed-in page goes through this policy.
    wrapper.page_policy = True
    return wrapper


def _who(roles) -> str:
    names = sorted(roles, key=ROLE_ORDER.index)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"


def member_or_404(
    request, workspace_id, *, roles=None, doing: str = "uses this page"
) -> tuple[Workspace, Member]:
    """The workspace and the signed-in person's active membership of it; with `roles`, only
    if their role is one of them (else the 403 page, naming who may)."""
    workspace = Workspace.active.filter(pk=workspace_id).first()
    member = None
    if workspace is not None and request.user.is_authenticated:
        member = Member.objects.filter(
            workspace=workspace, user=request.user, is_active=True
        ).first()
    if member is None:
        raise Http404("No workspace has that id.")
    # The page writes its dates in the workspace's time zone and its money as its locale does.
    display_activate_workspace(workspace)
    if roles is not None and member.role not in roles:
        article = "an" if _who(roles)[0] in "aeiou" else "a"
        raise PageForbidden(
            f"Only {article} {_who(roles)} of {workspace.name} {doing}; your role is "
            f"{member.role}. Ask an owner or admin.",
            workspace=workspace,
        )
    return workspace, member


def agency_user_or_404(request, agency_id) -> Agency:
    """The agency, if the signed-in person is one of its users; anyone else gets the 404
    page, as for an unknown id."""
    agency = Agency.objects.filter(pk=agency_id, users=request.user).first()
    if agency is None:
        raise Http404("No agency has that id.")
    return agency
