"""The links of the header every page shares (templates/base.html): a workspace's pages for
its member, an agency's for its users, and the API docs elsewhere. Each link is offered
only to a role that may open it, and the page's own link is marked as the current one."""

from django import template
from django.urls import reverse

from workspaces.models import Member

register = template.Library()

# The sections of a workspace's settings (templates/tokens/_layout.html): the header's
# Settings link is the current one on each of them.
SETTINGS_SECTIONS = frozenset(
    {"workspace", "members", "import", "tokens", "apps", "webinars", "webhooks"}
)


def _link(id_: str, label: str, url: str, current: bool = False) -> dict:
    return {"id": id_, "label": label, "url": url, "current": current}


def _role(context, workspace) -> str | None:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    member = context.get("member")
    if (
        isinstance(member, Member)
        and member.workspace_id == workspace.pk
        and (member.user_id == user.pk)
    ):
        return member.role if member.is_active else None
    return (
        Member.objects.filter(workspace=workspace, user=user, is_active=True)
        .values_list("role", flat=True)
        .first()
    )


def _agency_links(context, agency, workspace) -> list[dict]:
    request = context.get("request")
    url_name = getattr(getattr(request, "resolver_match", None), "url_name", None)
    links = [
        _link(
            "nav-console",
            agency.name,
            reverse("agency-console", args=[agency.pk]),
            url_name == "agency-console",
        ),
        _link(
            "nav-tokens",
            "Tokens",
            reverse("agency-tokens", args=[agency.pk]),
            context.get("section") == "tokens",
        ),
    ]
    if workspace is not None:
        # A client's workspace, opened from the console.
        links.append(_link("nav-overview", workspace.name, request.path, True))
    return links


def _workspace_links(context, workspace) -> list[dict]:
    role = _role(context, workspace)
    if role is None:
        return []
    section = context.get("section")
    links = []
    if role in Member.WORKSPACE_WIDE_ROLES:
        links.append(
            _link(
                "nav-overview",
                "Overview",
                reverse("dashboard-overview", args=[workspace.pk]),
                section == "overview",
            )
        )
        if context.get("has_spend"):
            # What the leads cost, shown by the figure pages of a workspace with spend.
            links.append(
                _link(
                    "nav-acquisition",
                    "Acquisition",
                    reverse("dashboard-acquisition", args=[workspace.pk]),
                    section == "acquisition",
                )
            )
    links.append(
        _link(
            "nav-board",
            "My board",
            reverse("dashboard-board", args=[workspace.pk]),
            section == "board",
        )
    )
    if role in Member.WORKSPACE_WIDE_ROLES:
        # Owners, admins and managers set the month's goals.
        links.append(
            _link(
                "nav-goals",
                "Goals",
                reverse("dashboard-goals", args=[workspace.pk]),
                section == "goals",
            )
        )
        # Managers place or dismiss held events there; owners and admins also connect.
        links.append(
            _link(
                "nav-integrations",
                "Integrations",
                reverse("settings-integrations", args=[workspace.pk]),
                section == "integrations",
            )
        )
    if role in Member.ADMIN_ROLES:
        # Settings open on the workspace's own settings, the first of its sections.
        links.append(
            _link(
                "nav-settings",
                "Settings",
                reverse("settings-workspace", args=[workspace.pk]),
                section in SETTINGS_SECTIONS,
            )
        )
    return links


@register.inclusion_tag("_shell_links.html", takes_context=True)
def shell_links(context):
    workspace = context.get("workspace")
    agency = context.get("agency")
    if agency is not None:
        links = _agency_links(context, agency, workspace)
    elif workspace is not None:
        links = _workspace_links(context, workspace)
    else:
        links = []
    if not links:
        links = [_link("api-docs", "API docs", reverse("docs-figures"))]
    return {"links": links}
