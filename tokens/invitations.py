"""The invitations page: a signed-in person accepts or declines the invitations to their email."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from workspaces.invitations import InvitationClosed, invitation_decide, invitations_pending_for


@login_required
@never_cache
def invitation_list(request):
    invitations = list(invitations_pending_for(user=request.user))
    return render(request, "tokens/invitations.html", {"invitations": invitations})


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
        messages.success(request, f"You are now a {invitation.role} of {name}.")
    else:
        messages.info(request, f"You declined the invitation to {name}.")
    return redirect("invitations")


@require_POST
@login_required
def invitation_accept(request, invitation_id):
    return _decide(request, invitation_id, accept=True)


@require_POST
@login_required
def invitation_decline(request, invitation_id):
    return _decide(request, invitation_id, accept=False)
