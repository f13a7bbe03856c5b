"""The Integrations page's forms: a provider's credential, and assigning a held event."""

from __future__ import annotations

from django import forms

from . import selectors

_TYPED_AS_SECRET = {
    "autocomplete": "off",
    "autocapitalize": "off",
    "spellcheck": "false",
    "class": "full",
}


class ConnectForm(forms.Form):
    """One text or password input per credential field of the provider.

    The fields' formats are checked by the provider registry's own check, whose messages
    name the field; Django's "required" is left to it too.
    """

    def __init__(self, integration, *args, credentials_check=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.integration = integration
        self._check = credentials_check
        self.credentials: dict = {}
        for spec in integration.credential_fields:
            attrs = dict(_TYPED_AS_SECRET)
            if spec.required:
                attrs["required"] = True
            widget = (
                forms.PasswordInput(attrs=attrs, render_value=False)
                if spec.secret
                else forms.TextInput(attrs=attrs)
            )
            self.fields[spec.name] = forms.CharField(
                label=spec.label,
                help_text=spec.hint if spec.required else f"Optional: {spec.hint}",
                required=False,
                strip=True,
                widget=widget,
            )

    def _fields_where(self, after_webhook_url: bool):
        return [
            self[spec.name]
            for spec in self.integration.credential_fields
            if spec.after_webhook_url == after_webhook_url
        ]

    def fields_before_webhook_url(self):
        return self._fields_where(False)

    def fields_after_webhook_url(self):
        return self._fields_where(True)

    def clean(self):
        cleaned = super().clean()
        if self._check is not None:
            values = {name: cleaned.get(name, "") for name in self.fields}
            self.credentials, errors = self._check(self.integration, values)
            for name, message in errors.items():
                self.add_error(name if name in self.fields else None, message)
        return cleaned


class AssignForm(forms.Form):
    """A held event goes to one sale: chosen among the recent sales with an unpaid
    balance, or named by its id."""

    sale = forms.ChoiceField(label="Sale with an unpaid balance", required=False)
    sale_id = forms.UUIDField(
        label="or the sale's id",
        required=False,
        error_messages={"invalid": "Enter a sale id (a UUID such as 3f2c…-…)."},
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "sale id"}
        ),
    )

    def __init__(self, *args, workspace, sale_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.workspace = workspace
        self.fields["sale"].choices = [("", "Choose a sale…"), *sale_choices]
        self.sale = None

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        chosen, typed = cleaned.get("sale"), cleaned.get("sale_id")
        if chosen and typed and str(typed) != chosen:
            self.add_error("sale_id", "Choose a sale or enter a sale id, not both.")
            return cleaned
        sale_id = typed or chosen
        if not sale_id:
            self.add_error("sale", "Choose a sale or enter a sale id.")
            return cleaned
        self.sale = selectors.sale_of_workspace(workspace=self.workspace, sale_id=sale_id)
        if self.sale is None:
            self.add_error("sale_id" if typed else "sale", "No sale of this workspace has that id.")
        return cleaned
