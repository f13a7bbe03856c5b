"""The console's form that makes a plan: a workspace (new, or one of the agency's), an
optional blueprint to start from, the team, the programmes with their price in the
workspace's currency, and the integrations to connect. It checks what a person typed in
words; the plan's own checks (agency/plans.py) then run on the body it makes, exactly as
for `POST /api/v1/plans`."""

import re

from django import forms

from core import choices, words
from core.money import CURRENCY_EXPONENTS, MoneyInvalid, minor_from_major
from integrations.providers import PROVIDERS

TEAM_ROWS = 5
PROGRAMME_ROWS = 3
SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
TEAM_ROLES = [(code, name) for code, name in words.choices("role") if code != "owner"]


class PlanForm(forms.Form):
    blueprint = forms.ChoiceField(label="Start from a blueprint", required=False)
    workspace = forms.ChoiceField(label="Which workspace", required=False)
    name = forms.CharField(label="Name of the new workspace", max_length=200, required=False)
    slug = forms.CharField(
        label="Short name in addresses",
        max_length=64,
        required=False,
        help_text="Lowercase letters, digits and hyphens, like acme-coaching.",
    )
    currency = forms.ChoiceField(label="Currency", choices=choices.currency_choices, initial="USD")
    timezone = forms.CharField(
        label="Time zone",
        initial="UTC",
        help_text="Type a city, like Berlin or New York, and pick it from the list.",
        widget=forms.TextInput(attrs={"list": "plan-timezone-options", "autocomplete": "off"}),
    )
    # Not "integrations": the console's connect-link form has a field of that name.
    connect = forms.MultipleChoiceField(
        label="Integrations to connect",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Each gets a connect link to send to the client.",
    )

    def __init__(self, data=None, *, workspaces, blueprints):
        super().__init__(data)
        self.fields["blueprint"].choices = [("", "No blueprint")] + [
            (b.key, f"{b.name} ({b.key})") for b in blueprints
        ]
        self.fields["workspace"].choices = [("", "A new workspace")] + [
            (str(w.pk), w.name) for w in workspaces
        ]
        self.fields["connect"].choices = [
            (key, provider.name) for key, provider in PROVIDERS.items()
        ]
        for row in range(TEAM_ROWS):
            self.fields[f"team-{row}-email"] = forms.EmailField(
                label=f"Person {row + 1}: email",
                required=False,
                error_messages={"invalid": "Enter an email address, like ann@acme.example."},
            )
            self.fields[f"team-{row}-name"] = forms.CharField(
                label=f"Person {row + 1}: name", max_length=200, required=False
            )
            self.fields[f"team-{row}-role"] = forms.ChoiceField(
                label=f"Person {row + 1}: role", choices=TEAM_ROLES, initial="closer"
            )
        for row in range(PROGRAMME_ROWS):
            self.fields[f"programme-{row}-name"] = forms.CharField(
                label=f"Programme {row + 1}: name", max_length=200, required=False
            )
            self.fields[f"programme-{row}-price"] = forms.CharField(
                label=f"Programme {row + 1}: price",
                max_length=24,
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "decimal"}),
            )

    def team_rows(self):
        return [
            (self[f"team-{row}-email"], self[f"team-{row}-name"], self[f"team-{row}-role"])
            for row in range(TEAM_ROWS)
        ]

    def programme_rows(self):
        return [
            (self[f"programme-{row}-name"], self[f"programme-{row}-price"])
            for row in range(PROGRAMME_ROWS)
        ]

    def clean_timezone(self):
        zone = choices.zone_from_text(self.cleaned_data["timezone"])
        if zone is None:
            raise forms.ValidationError(
                "Choose a time zone from the list, or type a city, like Berlin."
            )
        return zone

    def clean(self):
        data = super().clean()
        if not data.get("workspace"):
            self._new_workspace(data)
        for row in range(TEAM_ROWS):
            email, name = data.get(f"team-{row}-email"), data.get(f"team-{row}-name")
            if name and not email and f"team-{row}-email" not in self.errors:
                self.add_error(f"team-{row}-email", f"Enter {name}'s email.")
            if email and not name:
                self.add_error(f"team-{row}-name", f"Enter the name of {email}.")
        exponent = CURRENCY_EXPONENTS.get(data.get("currency") or "USD", 2)
        for row in range(PROGRAMME_ROWS):
            self._programme(data, row, exponent)
        return data

    def _new_workspace(self, data: dict) -> None:
        if not data.get("name"):
            self.add_error("name", "Enter the new workspace's name.")
        slug = data.get("slug", "")
        if not slug:
            self.add_error("slug", "Enter a short name, like acme-coaching.")
        elif not SLUG.fullmatch(slug):
            self.add_error("slug", "Use lowercase letters, digits and hyphens, like acme-coaching.")

    def _programme(self, data: dict, row: int, exponent: int) -> None:
        name, price = data.get(f"programme-{row}-name"), data.get(f"programme-{row}-price")
        if name and not price:
            self.add_error(f"programme-{row}-price", f"Enter the price of {name}.")
        elif price and not name:
            self.add_error(f"programme-{row}-name", "Enter the programme's name.")
        elif price:
            try:
                minor_from_major(price.replace(",", ""), exponent=exponent)
            except MoneyInvalid as error:
                self.add_error(
                    f"programme-{row}-price",
                    words.money_refusal(error, exponent=exponent, example="4997"),
                )

    def body(self) -> dict:
        """The plan's body, as `POST /api/v1/plans` takes it."""
        data = self.cleaned_data
        if data.get("workspace"):
            workspace = {"id": data["workspace"]}
        else:
            workspace = {
                "name": data["name"],
                "slug": data["slug"],
                "currency": data["currency"],
                "timezone": data["timezone"],
            }
        team = [
            {
                "email": data[f"team-{row}-email"],
                "name": data[f"team-{row}-name"],
                "role": data[f"team-{row}-role"],
            }
            for row in range(TEAM_ROWS)
            if data.get(f"team-{row}-email")
        ]
        programmes = [
            {
                "name": data[f"programme-{row}-name"],
                "price": data[f"programme-{row}-price"].replace(",", ""),
            }
            for row in range(PROGRAMME_ROWS)
            if data.get(f"programme-{row}-name")
        ]
        body = {
            "workspace": workspace,
            "team": team,
            "programmes": programmes,
            "integrations": list(data.get("connect") or []),
        }
        if data.get("blueprint"):
            body["blueprint"] = data["blueprint"]
        return body

    def field_of(self, path: str) -> str | None:
        """The form's field an API refusal names ("team.1.email" -> team-1-email)."""
        parts = path.split(".")
        if parts[0] == "workspace" and len(parts) > 1 and parts[1] in self.fields:
            return parts[1]
        if parts[0] in ("team", "programmes") and len(parts) == 3 and parts[1].isdigit():
            row = "team" if parts[0] == "team" else "programme"
            name = f"{row}-{parts[1]}-{parts[2]}"
            return name if name in self.fields else None
        if parts[0] == "integrations":
            return "connect"
        return parts[0] if parts[0] in self.fields else None
