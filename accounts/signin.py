"""Sign-in: one authentication backend for every form, and the lockout django-axes applies.

Every sign-in form (the app's, which the OAuth flow sends people to, and the admin's)
calls `authenticate()` once. `AxesStandaloneBackend` runs first and refuses a locked-out
account or address; `EmailOrUsernameBackend` then checks the password. An unknown email
runs the password hasher once, as a known one does, so that both cost the same time.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import Q
from django.shortcuts import render

from core.emails import email_normalise

# Several accounts may share an email address; a sign-in checks at most this many.
MAX_ACCOUNTS_PER_EMAIL = 5


class EmailOrUsernameBackend(ModelBackend):
    """Sign in with an email address (in the one form of core.emails: any case, any
    compatible spelling) or a username, and the password."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        UserModel = get_user_model()
        if username is None:
            username = kwargs.get(UserModel.USERNAME_FIELD)
        if username is None or password is None:
            return None
        identifier = str(username).strip()
        candidates = list(
            UserModel._default_manager.filter(
                Q(**{UserModel.USERNAME_FIELD: identifier}) | Q(email=email_normalise(identifier))
            ).order_by("pk")[:MAX_ACCOUNTS_PER_EMAIL]
        )
        # The exact username first, then the accounts with that email.
        candidates.sort(key=lambda user: user.get_username() != identifier)
        if not candidates:
            # The hasher runs once for an unknown identifier too (as Django's ModelBackend
            # does), so an unknown email answers in the same time as a known one.
            UserModel().set_password(password)
            return None
        for user in candidates:
            if user.check_password(password) and self.user_can_authenticate(user):
                return user
        return None


def account_email_normalise(sender, instance, **kwargs) -> None:
    if instance.email:
        instance.email = email_normalise(instance.email)


def lockout_username(request, credentials) -> str | None:
    """The account a sign-in attempt is counted against: the email or username typed, in
    the one form accounts are found by (core.emails), so that "Ann@X.test", "ann@x.test"
    and "\\u017fetter@x.test" (a long s) / "setter@x.test" share one count. At most 255 characters, the
    length the lockout's records hold."""
    value = (credentials or {}).get("username")
    if value is None and request is not None:
        value = request.POST.get("username")
    if value is None:
        return None
    return email_normalise(str(value))[:255]


def lockout_minutes() -> int:
    cooloff = settings.AXES_COOLOFF_TIME
    if not isinstance(cooloff, timedelta):
        cooloff = timedelta(hours=cooloff)
    return max(1, round(cooloff.total_seconds() / 60))


def lockout_message() -> str:
    minutes = lockout_minutes()
    return (
        f"Too many failed sign-ins for this account or from this address: signing in is "
        f"locked for {minutes} minutes. Wait {minutes} minutes, then try again."
    )


def locked_out(request, response=None, credentials=None):
    """The page a locked-out sign-in answers (the app's form and the admin's alike)."""
    return render(
        request,
        "registration/locked_out.html",
        {"message": lockout_message(), "minutes": lockout_minutes()},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


def client_address(request) -> str | None:
    """The client's address: the peer's, or, behind NUM_PROXIES reverse proxies, the one
    the outermost of them saw (the same reading as DRF's throttling)."""
    proxies = settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return request.META.get("REMOTE_ADDR")
