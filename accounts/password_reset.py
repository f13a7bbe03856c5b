"""Forgotten password: Django's own reset views and tokens, restyled, with the mail sent by
a task after the request, and the sign-in lockout applied to the requests.

The answer is the same whether or not the email is known. A request is refused, with the
lockout's message, while the address or the email is locked out of signing in, and after
AXES_FAILURE_LIMIT requests for one email or from one address within AXES_COOLOFF_TIME.
The link (Django's PasswordResetTokenGenerator, PASSWORD_RESET_TIMEOUT: 3 days) works once:
the token is bound to the password it replaces.
"""

import hashlib
import logging

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse_lazy

from audit.services import Actor
from tokens.services import user_sessions_end

from .forms import QueuedPasswordResetForm
from .signin import client_address, lockout_message, lockout_username
from .tasks import password_reset_send

logger = logging.getLogger(__name__)


def _window_count(key: str) -> int:
    window = int(settings.AXES_COOLOFF_TIME.total_seconds())
    cache.add(key, 0, timeout=window)
    try:
        return cache.incr(key)
    except ValueError:
        # Expired between add and incr: a new window starts.
        cache.set(key, 1, timeout=window)
        return 1


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def reset_refused(request, email: str) -> bool:
    """Whether this request is over the lockout's limits (and counts it if not locked)."""
    credentials = {"username": email}
    if AxesProxyHandler.is_locked(request, credentials):
        return True
    limit = settings.AXES_FAILURE_LIMIT
    address = client_address(request) or "unknown"
    account = lockout_username(request, credentials) or ""
    by_address = _window_count(f"password-reset:address:{_digest(address)}")
    by_account = _window_count(f"password-reset:email:{_digest(account)}")
    return by_address > limit or by_account > limit


class PasswordResetView(auth_views.PasswordResetView):
    form_class = QueuedPasswordResetForm
    template_name = "registration/password_reset_form.html"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form):
        if reset_refused(self.request, form.cleaned_data["email"]):
            return render(
                self.request,
                "registration/locked_out.html",
                {"message": lockout_message()},
                status=settings.AXES_HTTP_RESPONSE_CODE,
            )
        # Who the email is, the link and the mail are the worker's: the request does the same
        # work for a known email and an unknown one.
        try:
            password_reset_send.delay(form.cleaned_data["email"])
        except Exception:
            logger.exception("Could not queue a password reset mail")
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """A new password ends every session of the account: its browsers' (Django's session
    check follows the password) and its OAuth tokens, in every workspace (audited)."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        with transaction.atomic():
            answer = super().form_valid(form)
            user_sessions_end(
                user=form.user, actor=Actor.for_user(form.user), reason="Password reset."
            )
        return answer


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"
