"""The notifications' pages: the Notifications settings of a workspace (owners and admins),
a member's choices (from their account page) and the one-click unsubscribe of a mail
(RFC 8058: a POST with no session, from the mail client; a GET shows the page that
confirms it). Every write goes through notifications.services, with its audit event."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from audit.services import Actor
from workspaces.access import member_or_404, page
from workspaces.models import Member
from workspaces.services import RecordInvalid

from . import services, slack
from .forms import ChoicesForm, NotificationsForm
from .models import Kind
from .rounds import unsubscribe_read


def _initial(row) -> dict:
    return {name: getattr(row, name) for name in services.FIELDS}


def _slack_checked(form: NotificationsForm, workspace) -> str | None:
    """The new Slack address once checked and tested (None when none was given); an error
    on the field, and None, when refused or when the test message did not go."""
    url = form.cleaned_data["slack_webhook_url"]
    if not url:
        return None
    try:
        slack.slack_url_check(url)
    except slack.SlackRefused as refused:
        form.add_error("slack_webhook_url", refused.message)
        return None
    posted = slack.slack_test(url, workspace.name)
    if not posted.ok:
        form.add_error("slack_webhook_url", f"The test message did not reach Slack: {posted.error}")
        return None
    return url


def _save(request, form, workspace, member) -> bool:
    data = form.cleaned_data
    url = _slack_checked(form, workspace)
    if form.errors:
        return False
    try:
        services.settings_update(
            workspace=workspace,
            values={name: data[name] for name in services.FIELDS},
            slack_url=url,
            slack_remove=data["slack_remove"],
            actor=Actor.for_user(request.user),
            by_role=member.role,
        )
    except RecordInvalid as refused:
        form.add_error(refused.field if refused.field in form.fields else None, refused.message)
        return False
    messages.success(
        request,
        "Notifications saved" + (" and the test message sent to Slack." if url else "."),
    )
    return True


@page
def settings_page(request, workspace_id):
    workspace, member = member_or_404(
        request, workspace_id, roles=services.SETTINGS_ROLES, doing="changes the notifications"
    )
    row = services.settings_ensure(workspace)
    form, status = NotificationsForm(initial=_initial(row)), 200
    if request.method == "POST":
        form = NotificationsForm(request.POST)
        if form.is_valid() and _save(request, form, workspace, member):
            return redirect("settings-notifications", workspace.pk)
        status = 400
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "notifications",
        "form": form,
        "has_slack": row.has_slack,
        "zone": workspace.timezone or "UTC",
    }
    return render(request, "notifications/settings.html", context, status=status)


@page
@require_POST
def choices_page(request):
    """A member's choices, posted from their account page: the kinds ticked are received."""
    form = ChoicesForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Those choices could not be read; pick again.")
        return redirect("account")
    workspace, member = member_or_404(request, form.cleaned_data["workspace"])
    services.choices_set(
        member=member,
        received=set(form.cleaned_data["kinds"]),
        actor=Actor.for_user(request.user),
    )
    messages.success(request, f"Your notifications of {workspace.name} are saved.")
    return redirect("account")


def _unsubscribe_member(token: str) -> tuple[Member | None, str | None]:
    read = unsubscribe_read(token)
    if read is None:
        return None, None
    member_id, kind = read
    member = Member.objects.select_related("workspace").filter(pk=member_id).first()
    return member, kind


def _link_actor(member: Member) -> Actor:
    """The unsubscribe link of a mail: it acts for the member it was made for."""
    return Actor(kind="unsubscribe_link", id=str(member.pk), label=member.email)


@csrf_exempt
def unsubscribe_page(request, token: str):
    """GET: the page confirming the unsubscribe (a link scanner's GET changes nothing);
    POST: the unsubscribe itself, one click from the mail client or the page's button."""
    member, kind = _unsubscribe_member(token)
    if member is None:
        context = {"refused": True}
        return render(request, "notifications/unsubscribe.html", context, status=400)
    label = Kind(kind).label
    context = {"member": member, "kind_label": label, "done": False}
    if request.method == "POST":
        services.opt_out(member=member, kind=kind, actor=_link_actor(member))
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(f"Unsubscribed from the {label}.", content_type="text/plain")
        context["done"] = True
    elif request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    return render(request, "notifications/unsubscribe.html", context)
