"""Forms of signing in, resetting a password and signing out everywhere."""

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.urls import reverse

from core.mail import mail_send


class EmailAuthenticationForm(AuthenticationForm):
    """Sign in with an email address (or a username) and a password."""

    username = forms.CharField(
        label="Email",
        max_length=254,
        widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}),
    )

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That email and password do not match an account. Check both and "
        "try again.",
    }

    def clean(self):
        identifier = (self.cleaned_data.get("username") or "").strip()
        password = self.cleaned_data.get("password")
        if identifier and password:
            # One call: the backends try the email and the username (accounts.signin), and
            # django-axes counts one attempt.
            self.user_cache = authenticate(self.request, username=identifier, password=password)
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class SignOutEverywhereForm(forms.Form):
    """Signing out everywhere is confirmed with the account's password."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        max_length=4096,
    )


class QueuedPasswordResetForm(PasswordResetForm):
    """Renders the reset mail as every mail of the service, sent after the request."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        path = reverse(
            "password_reset_confirm", kwargs={"uidb64": context["uid"], "token": context["token"]}
        )
        mail_send(
            to=[to_email],
            template="password_reset",
            context={"user": context["user"], "link": f"{settings.BASE_URL}{path}"},
        )
