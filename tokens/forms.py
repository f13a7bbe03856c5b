"""Forms of the tokens and embedded apps settings pages."""

from django import forms

from .models import AGENCY_SCOPES, WORKSPACE_SCOPES

SCOPE_LABELS = {
    "read": "read — read figures, display config and the change log",
    "data:write": "data:write — propose drafts and write change-log entries",
    "config:plan": "config:plan — draft plans and blueprints",
    "config:apply": "config:apply — apply plans",
    "connect:links": "connect:links — make connect links for clients",
}


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
