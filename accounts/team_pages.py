"""Running the team in the app: the Members page and the workspace settings page.

Members (`/settings/<workspace id>/members/`): owners and admins invite, change roles
(only an owner touches the owner and admin roles) and deactivate members (their sessions
end at once); managers read it. Workspace settings (`/settings/<workspace id>/workspace/`,
owners and admins): name, timezone, currency (only while the workspace holds no money
records), working days, branding, and commission rules entered as percentages. Every
write goes through a writer of the workspaces app, with its audit event.
"""

from decimal import Decimal

from django.contrib import messages
from django.db import transaction
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from core import choices, words
from core.errors import InvalidField
from tokens.services import member_access_end, member_minted_tokens
from workspaces.access import PageForbidden, member_or_404, page
from workspaces.invitations import (
    invitation_approve,
    invitation_create,
    invitation_refuse,
    invitation_resend,
    invitation_revoke,
)
from workspaces.models import Invitation, Member, Payment, Refund, Sale, Workspace
from workspaces.services import RecordInvalid, commission_rule_remove, commission_rule_set
from workspaces.tenancy import (
    MemberChangeRefused,
    member_deactivate,
    member_reactivate,
    member_role_change,
    workspace_update,
)

from .pages import request_actor
from .team_forms import CommissionForm, InviteForm, WorkspaceSettingsForm

MEMBERS_READERS = Member.WORKSPACE_WIDE_ROLES


def _membership(request, workspace_id, roles, what: str) -> tuple[Workspace, Member]:
    return member_or_404(request, workspace_id, roles=roles, doing=what)


def _holds_money(workspace: Workspace) -> bool:
    return any(
        model.objects.filter(workspace=workspace).exists() for model in (Sale, Payment, Refund)
    )


# --- Members ---------------------------------------------------------------------------


def _member_action(request, workspace, me) -> str | None:
    """Run the posted change; a refusal is returned as its message. Deactivating asks first,
    on its own page (member_deactivate_page)."""
    actor = request_actor(request)
    action = request.POST.get("action")
    if action in {"role", "reactivate"}:
        target = Member.objects.filter(workspace=workspace, pk=request.POST.get("member")).first()
        if target is None:
            raise Http404("No member of this workspace has that id.")
        if action == "role":
            minted = len(member_minted_tokens(target))
            changed = member_role_change(
                member=target, role=request.POST.get("role", ""), by_role=me.role, actor=actor
            )
            role = words.word("role", changed.role)
            revoked = minted - len(member_minted_tokens(changed))
            said = f"{target.name}'s role is now {role}"
            if revoked:
                said += f"; {_tokens_words(revoked)} they minted {'was' if revoked == 1 else 'were'} revoked"
            messages.success(request, said + ".")
        else:
            member_reactivate(member=target, by_role=me.role, actor=actor)
            messages.success(
                request,
                f"{target.name} can sign in to {workspace.name} again, "
                f"with the role {words.word('role', target.role)}.",
            )
        return None
    invitation = Invitation.objects.filter(
        workspace=workspace, pk=request.POST.get("invitation")
    ).first()
    if action not in {"resend", "revoke", "approve", "decline"} or invitation is None:
        raise Http404("No invitation of this workspace has that id.")
    if action in {"approve", "decline"}:
        return _proposal_decide(request, workspace, me, invitation, approve=action == "approve")
    if invitation.role in {"owner", "admin"} and me.role != Member.Role.OWNER:
        return "Only an owner manages an invitation to the owner or admin role."
    if action == "resend" and invitation.state == Invitation.State.PENDING:
        invitation_resend(invitation_id=invitation.pk, actor=actor)
        messages.success(request, f"A new link is on its way to {invitation.email}.")
    elif action == "revoke":
        invitation_revoke(invitation_id=invitation.pk, workspace=workspace, actor=actor)
        messages.success(request, f"The invitation of {invitation.email} is withdrawn.")
    return None


def _proposal_decide(request, workspace, me, invitation, *, approve: bool) -> str | None:
    """An owner approves or declines what an agency's plan proposed."""
    if me.role != Member.Role.OWNER:
        return "Only an owner approves or declines what an agency proposes."
    decide = invitation_approve if approve else invitation_refuse
    decided = decide(invitation_id=invitation.pk, workspace=workspace, actor=request_actor(request))
    if decided is None:
        return f"The proposal to invite {invitation.email} was already decided."
    if approve:
        messages.success(request, f"Approved: the invitation is on its way to {invitation.email}.")
    else:
        messages.success(request, f"Declined: {invitation.email} is not invited.")
    return None


def _invite(request, workspace, me, form) -> bool:
    if not form.is_valid():
        return False
    data = form.cleaned_data
    if data["role"] in {"owner", "admin"} and me.role != Member.Role.OWNER:
        form.add_error("role", "Only an owner invites an owner or an admin.")
        return False
    if Member.objects.filter(workspace=workspace, email=data["email"]).exists():
        form.add_error("email", f"{data['email']} is already a member of {workspace.name}.")
        return False
    invitation_create(
        workspace=workspace,
        email=data["email"],
        name=data["name"],
        role=data["role"],
        plan_id=None,
        actor=request_actor(request),
    )
    messages.success(request, f"Invitation sent to {data['email']}.")
    return True


@page
def workspace_members(request, workspace_id):
    workspace, me = _membership(request, workspace_id, MEMBERS_READERS, "reads its members")
    manages = me.role in Member.ADMIN_ROLES
    form, status, refusal = InviteForm(), 200, None
    if request.method == "POST":
        if not manages:
            raise PageForbidden("Only an owner or admin changes the members; ask one of them.")
        if request.POST.get("action") == "invite":
            form = InviteForm(request.POST)
            if _invite(request, workspace, me, form):
                return redirect("settings-members", workspace_id=workspace.pk)
            status = 400
        else:
            try:
                refusal = _member_action(request, workspace, me)
            except (MemberChangeRefused, InvalidField) as refused:
                refusal = refused.message
            if refusal is None:
                return redirect("settings-members", workspace_id=workspace.pk)
            status = 400
    members = (
        Member.objects.filter(workspace=workspace)
        .select_related("user")
        .annotate(
            tokens_live=Count("minted_tokens", filter=Q(minted_tokens__revoked_at__isnull=True))
        )
        .order_by("-is_active", "name")
    )
    invitations = Invitation.objects.filter(workspace=workspace, member__isnull=True).order_by(
        "-created_at"
    )[:100]
    proposals = [i for i in invitations if i.state == Invitation.State.PROPOSED]
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "members",
        "me": me,
        "manages": manages,
        "members": members,
        "invitations": invitations,
        "proposals": proposals,
        "form": form,
        "refusal": refusal,
        "roles": words.choices("role"),
    }
    return render(request, "accounts/members.html", context, status=status)


@page
def member_deactivate_page(request, workspace_id, member_id):
    """Deactivating a member, asked first: the page says what ends (their access, their
    sessions, the tokens they minted) before the click."""
    workspace, me = _membership(
        request, workspace_id, Member.ADMIN_ROLES, "deactivates its members"
    )
    target = Member.objects.filter(workspace=workspace, pk=member_id).first()
    if target is None:
        raise Http404("No member of this workspace has that id.")
    back = reverse("settings-members", args=[workspace.pk])
    refusal, status = None, 200
    if request.method == "POST" and target.is_active:
        try:
            with transaction.atomic():
                member_deactivate(member=target, by_role=me.role, actor=request_actor(request))
                ended = member_access_end(member=target, actor=request_actor(request))
        except MemberChangeRefused as refused:
            refusal, status = refused.message, 400
        else:
            messages.success(request, deactivated_words(target, workspace, ended["tokens"]))
            return redirect(back)
    tokens = member_minted_tokens(target)
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "members",
        "target": target,
        "me": me,
        "tokens": tokens,
        "consequence": deactivation_words(target, workspace, len(tokens)),
        "refusal": refusal,
        "back": back,
    }
    return render(request, "accounts/member_deactivate.html", context, status=status)


def _tokens_words(count: int) -> str:
    return "1 token" if count == 1 else f"{count} tokens"


def deactivation_words(member: Member, workspace: Workspace, tokens: int) -> str:
    """What deactivating does, in a sentence, before the click."""
    words = f"{member.name} loses access to {workspace.name} now and their sessions end"
    if tokens:
        return f"{words}; {_tokens_words(tokens)} they minted {'is' if tokens == 1 else 'are'} revoked."
    return f"{words}."


def deactivated_words(member: Member, workspace: Workspace, tokens: int) -> str:
    words = f"{member.name} no longer has access to {workspace.name}; their sessions ended"
    if tokens:
        return f"{words} and {_tokens_words(tokens)} they minted {'was' if tokens == 1 else 'were'} revoked."
    return f"{words}."


# --- Workspace settings ----------------------------------------------------------------


def _commission_forms(workspace, data=None) -> list[tuple[Member, CommissionForm]]:
    reporting = Member.objects.filter(workspace=workspace, is_active=True).prefetch_related(
        "commission_rules"
    )
    forms = []
    for member in reporting.order_by("name"):
        rule = next(iter(member.commission_rules.all()), None)
        initial = (
            {"basis": rule.basis, "slot": rule.slot, "percent": rule.rate * 100}
            if rule is not None
            else {}
        )
        form = CommissionForm(data, prefix=f"rule-{member.pk}", initial=initial)
        form.fields["percent"].label = f"Rate of {member.name}"
        # The row's inputs belong to the row's own form (a table row holds no form).
        for field in form.fields.values():
            field.widget.attrs["form"] = f"rule-form-{member.pk}"
        forms.append((member, form))
    return forms


def _save_commission(request, workspace, forms) -> bool:
    member_id = request.POST.get("member")
    for member, form in forms:
        if str(member.pk) != member_id:
            continue
        if not form.is_valid():
            return False
        data = form.cleaned_data
        if data["percent"] is None:
            commission_rule_remove(member=member, actor=request_actor(request))
            messages.success(request, f"{member.name} has no commission rule now.")
            return True
        try:
            commission_rule_set(
                member=member,
                basis=data["basis"],
                slot=data["slot"],
                rate=(data["percent"] / Decimal(100)).quantize(Decimal("0.0001")),
                actor=request_actor(request),
            )
        except RecordInvalid as refused:
            form.add_error("percent" if refused.field == "rate" else None, refused.message)
            return False
        messages.success(request, f"Saved the commission rule of {member.name}.")
        return True
    raise Http404("No member of this workspace has that id.")


SETTING_WORDS = {"timezone": "time zone", "locale": "language and region"}


def _save_settings(request, workspace, form) -> bool:
    if not form.is_valid():
        return False
    try:
        changed = workspace_update(
            workspace=workspace, changes=form.changes(), actor=request_actor(request)
        )
    except InvalidField as refused:
        field = str(refused.extra.get("field", "")).split(".")[0]
        field = {"branding": "logo"}.get(field, field)
        form.add_error(field if field in form.fields else None, refused.message)
        return False
    messages.success(
        request,
        "Saved: "
        + ", ".join(SETTING_WORDS.get(name, name.replace("_", " ")) for name in changed)
        + "."
        if changed
        else "Nothing changed.",
    )
    return True


@page
def workspace_settings(request, workspace_id):
    workspace, _me = _membership(request, workspace_id, Member.ADMIN_ROLES, "manages its settings")
    money_locked = _holds_money(workspace)
    data = request.POST if request.method == "POST" else None
    action = request.POST.get("action") if data is not None else None
    form = WorkspaceSettingsForm(
        data if action == "settings" else None, workspace=workspace, currency_locked=money_locked
    )
    rules = _commission_forms(workspace, data if action == "commission" else None)
    status = 200
    if action == "settings":
        if _save_settings(request, workspace, form):
            return redirect("settings-workspace", workspace_id=workspace.pk)
        status = 400
    elif action == "commission":
        if _save_commission(request, workspace, rules):
            return redirect("settings-workspace", workspace_id=workspace.pk)
        status = 400
    context = {
        "workspace": workspace,
        "owner": workspace,
        "section": "workspace",
        "form": form,
        "rules": rules,
        "rule_forms": [rule for _member, rule in rules],
        "timezone_options": choices.timezone_choices(),
        "money_locked": money_locked,
    }
    return render(request, "accounts/workspace_settings.html", context, status=status)
