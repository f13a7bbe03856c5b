"""A person's own pages: signing in and out, their home (their workspaces and agencies),
and their account (sign out everywhere)."""

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse

from audit.services import Actor
from tokens.services import user_sessions_end
from workspaces.access import page
from workspaces.models import Member
from workspaces.tenancy import user_password_set

from .forms import EmailAuthenticationForm, SignOutEverywhereForm
from .selectors import user_places

WORKSPACE_WIDE_ROLES = Member.WORKSPACE_WIDE_ROLES


def request_actor(request) -> Actor:
    return Actor.for_user(request.user)


class LoginView(auth_views.LoginView):
    authentication_form = EmailAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """Signs out, then the sign-in page (LOGOUT_REDIRECT_URL) says so: the message is
    stored once the session has ended, so it reaches that next page."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, "You are signed out.")
        return response


def signed_in_home(request):
    """Send a signed-in person to their one place, or list their places."""
    places = user_places(user=request.user)
    # A workspace's figures: the overview for owners, admins and managers, else the board.
    destinations = [
        reverse("dashboard-overview", args=[m.workspace_id])
        if m.role in WORKSPACE_WIDE_ROLES
        else reverse("dashboard-board", args=[m.workspace_id])
        for m in places["memberships"]
    ] + [f"/agency/{agency.pk}/" for agency in places["agencies"]]
    if len(destinations) == 1 and not places["invitations"]:
        return redirect(destinations[0])
    return render(request, "accounts/home.html", places)


@page
def account(request):
    """The signed-in person's account: sign out everywhere (every browser and every app's
    session, in every workspace), confirmed with the password."""
    user = request.user
    form = SignOutEverywhereForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound:
        if form.is_valid() and user.check_password(form.cleaned_data["password"]):
            with transaction.atomic():
                # The same password under a new salt: every other browser's session check
                # (it follows the password's hash) fails from now on.
                user_password_set(user=user, password=form.cleaned_data["password"])
                ended = user_sessions_end(
                    user=user, actor=request_actor(request), reason="Signed out everywhere."
                )
            update_session_auth_hash(request, user)
            apps = "1 app session" if ended == 1 else f"{ended} app sessions"
            messages.success(
                request, f"Signed out everywhere else: every other browser and {apps} ended."
            )
            return redirect("account")
        if form.is_valid():
            form.add_error("password", "That is not your password.")
        status = 400
    return render(request, "accounts/account.html", {"form": form}, status=status)
