"""Invitations in the app: the emailed link (choose a password and join, or sign in to
accept), and the page where a signed-in person accepts or declines the invitations to
their email."""

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import SetPasswordForm
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from audit.services import Actor
from core import words
from core.emails import email_normalise
from workspaces.access import page
from workspaces.invitations import (
    InvitationClosed,
    InvitationLinkExpired,
    InvitationLinkInvalid,
    InvitationLinkUsed,
    invitation_accept_with_password,
    invitation_by_link,
    invitation_decide,
    invitation_needs_password,
    invitation_resend,
    invitations_pending_for,
)


@page
def invitation_list(request):
    invitations = list(invitations_pending_for(user=request.user))
    return render(request, "accounts/invitations.html", {"invitations": invitations})


def _decide(request, invitation_id, *, accept: bool):
    try:
        invitation = invitation_decide(
            invitation_id=invitation_id, user=request.user, accept=accept
        )
    except InvitationClosed:
        # Another person's invitation, or one already decided: nothing to show.
        raise Http404("No pending invitation of yours has that id.") from None
    name = invitation.workspace.name
    if accept:
        messages.success(request, f"You joined {name} as {words.word('role', invitation.role)}.")
    else:
        messages.info(request, f"You declined the invitation to {name}.")
    return redirect("invitations")


@require_POST
@page
def invitation_accept(request, invitation_id):
    return _decide(request, invitation_id, accept=True)


@require_POST
@page
def invitation_decline(request, invitation_id):
    return _decide(request, invitation_id, accept=False)


# --- The emailed link ---------------------------------------------------------------------

# The link's token is in the path: no Referer ever carries it (see agency/pages.py).
LINK_REFERRER_POLICY = "strict-origin"


def _link_page(request, template: str, context: dict, status: int = 200):
    response = render(request, template, context, status=status)
    response["Referrer-Policy"] = LINK_REFERRER_POLICY
    return response


def _new_password_form(invitation, data=None):
    # The validators compare the password with the person's email; the account is made
    # only once the form is valid.
    person = get_user_model()(username=invitation.email, email=invitation.email)
    return SetPasswordForm(person, data)


@never_cache
@require_http_methods(["GET", "POST"])
def invitation_link(request, token):
    try:
        invitation = invitation_by_link(token)
    except InvitationLinkInvalid:
        return _link_page(request, "accounts/invitation_link.html", {"problem": "invalid"}, 404)
    except InvitationLinkUsed as used:
        return _closed(request, used)
    except InvitationLinkExpired as expired:
        return _expired(request, expired.invitation)
    if not invitation_needs_password(invitation):
        # An account can sign in as this email: it signs in, then accepts or declines.
        signed_in_as = email_normalise(request.user.email or "")
        if request.user.is_authenticated and signed_in_as == invitation.email:
            return redirect("invitations")
        context = {"problem": None, "invitation": invitation, "sign_in": True}
        return _link_page(request, "accounts/invitation_link.html", context)
    form = _new_password_form(invitation, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitation_accept_with_password(
                token=token, password=form.cleaned_data["new_password1"]
            )
        except InvitationLinkUsed as used:
            return _closed(request, used)
        except (InvitationClosed, InvitationLinkInvalid):
            context = {"problem": "used", "invitation": invitation}
            return _link_page(request, "accounts/invitation_link.html", context, 410)
        login(request, user, backend="accounts.signin.EmailOrUsernameBackend")
        messages.success(request, f"Welcome to {invitation.workspace.name}.")
        return redirect("home")
    context = {"problem": None, "invitation": invitation, "form": form}
    status = 400 if request.method == "POST" else 200
    return _link_page(request, "accounts/invitation_link.html", context, status)


def _closed(request, used: InvitationLinkUsed):
    """An invitation that is no longer pending: used (accepted or declined), or withdrawn
    by the workspace, which only the workspace can undo with a new invitation."""
    context = {"problem": "withdrawn" if used.withdrawn else "used", "invitation": used.invitation}
    return _link_page(request, "accounts/invitation_link.html", context, 410)


def _expired(request, invitation):
    if request.method == "POST" and request.POST.get("resend"):
        invitation_resend(
            invitation_id=invitation.pk,
            actor=Actor(kind="system", id="invitation-link", label="expired invitation link"),
        )
        context = {"problem": "resent", "invitation": invitation}
        return _link_page(request, "accounts/invitation_link.html", context)
    context = {"problem": "expired", "invitation": invitation}
    return _link_page(request, "accounts/invitation_link.html", context, 410)
