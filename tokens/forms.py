"""Forms of the sign-in and settings pages."""

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.urls import reverse

from core.mail import mail_send

from .models import AGENCY_SCOPES, WORKSPACE_SCOPES

SCOPE_LABELS = {
    "read": "read — read figures, display config and the change log",
    "data:write": "data:write — propose drafts and write change-log entries",
    "config:plan": "config:plan — draft plans and blueprints",
    "config:apply": "config:apply — apply plans",
    "connect:links": "connect:links — make connect links for clients",
}


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
            # One call: the backends try the email and the username (tokens.signin), and
            # django-axes counts one attempt.
            self.user_cache = authenticate(self.request, username=identifier, password=password)
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class TokenMintForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        widget=forms.TextInput(attrs={"placeholder": "e.g. Reporting dashboard"}),
    )
    scopes = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, allowed_scopes=WORKSPACE_SCOPES, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scopes"].choices = [(s, SCOPE_LABELS[s]) for s in allowed_scopes]
        self.fields["scopes"].initial = ["read"]


def agency_token_form(*args, **kwargs) -> TokenMintForm:
    return TokenMintForm(*args, allowed_scopes=AGENCY_SCOPES, **kwargs)


class LinesField(forms.CharField):
    """A textarea holding one value a line."""

    widget = forms.Textarea(attrs={"rows": 4, "spellcheck": "false"})

    def to_python(self, value):
        text = super().to_python(value) or ""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return "\n".join(value)
        return value


class OriginsForm(forms.Form):
    origins = LinesField(
        required=False,
        label="Allowed origins",
        help_text="One a line, as https://host[:port], e.g. https://app.example.com "
        "(http on localhost or 127.0.0.1 only).",
    )


class EmbeddedAppCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label="App name")
    redirect_uris = LinesField(
        label="Redirect URIs", help_text="One a line; each is matched exactly."
    )


class RedirectUrisForm(forms.Form):
    redirect_uris = LinesField(
        label="Redirect URIs", help_text="One a line; each is matched exactly."
    )


class SignOutEverywhereForm(forms.Form):
    """Signing out everywhere is confirmed with the account's password."""

    password = forms.CharField(
        label="Your password", strip=False, widget=forms.PasswordInput, max_length=4096
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
