"""The forms of the Members and workspace settings pages: each refuses bad input with a
message beside its field and keeps what was typed."""

import re
from decimal import Decimal

from babel.core import get_global
from django import forms

from core import choices, words
from core.display import locale_valid
from core.emails import email_normalise
from core.money import MoneyInvalid, major_from_minor, minor_from_major
from core.words import money_refusal
from workspaces.models import Member

DAYS = [(0, "Mon"), (1, "Tue"), (2, "Wed"), (3, "Thu"), (4, "Fri"), (5, "Sat"), (6, "Sun")]
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
# What the colour pickers show for a workspace that set no colour (the pages' own).
DEFAULT_COLOURS = {"primary": "#1d2330", "accent": "#2f6fed"}


class InviteForm(forms.Form):
    email = forms.EmailField(max_length=254)
    name = forms.CharField(max_length=200, required=False)
    role = forms.ChoiceField(choices=words.choices("role"), initial=Member.Role.CLOSER)

    def clean_email(self):
        return email_normalise(self.cleaned_data["email"])


class WorkspaceSettingsForm(forms.Form):
    name = forms.CharField(max_length=200)
    timezone = forms.CharField(
        max_length=64,
        label="Time zone",
        help_text="Type a city, like Berlin or New York, and pick it from the list.",
        widget=forms.TextInput(
            attrs={"list": "timezone-options", "autocomplete": "off", "spellcheck": "false"}
        ),
    )
    country = forms.ChoiceField(
        label="Country of phone numbers",
        required=False,
        help_text="A lead's phone number written without its country code is read in this country.",
    )
    currency = forms.ChoiceField(choices=choices.currency_choices)
    locale = forms.CharField(
        max_length=32,
        label="Language and region",
        required=False,
        help_text="How the pages write numbers, money and dates.",
        widget=forms.Select(),
    )
    working_days = forms.TypedMultipleChoiceField(
        choices=DAYS, coerce=int, widget=forms.CheckboxSelectMultiple
    )
    leaderboard_visible = forms.BooleanField(
        required=False,
        label="Closers and setters see their leaderboard",
        help_text="Off: each of them sees only their own rank.",
    )
    logo = forms.CharField(
        max_length=500, required=False, help_text="An https URL of an image; empty for none."
    )
    primary_colour = forms.CharField(
        max_length=7, required=False, widget=forms.TextInput(attrs={"type": "color"})
    )
    accent_colour = forms.CharField(
        max_length=7, required=False, widget=forms.TextInput(attrs={"type": "color"})
    )
    labels = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One a line: a metric id or name = the label to show, like calls.booked = Demos.",
    )
    modules = forms.CharField(
        max_length=500, required=False, help_text="The modules to show, separated by commas."
    )
    programmes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One a line: name = price, in the workspace currency, like Mastermind = 4997.",
    )

    def __init__(self, data=None, *, workspace, currency_locked: bool):
        branding = workspace.branding or {}
        colours = branding.get("colours") or {}
        initial = {
            "name": workspace.name,
            "timezone": workspace.timezone,
            "country": workspace.country,
            "currency": workspace.currency,
            "locale": workspace.locale,
            "working_days": workspace.working_days,
            "leaderboard_visible": workspace.leaderboard_visible,
            "logo": branding.get("logo", ""),
            "primary_colour": colours.get("primary", DEFAULT_COLOURS["primary"]),
            "accent_colour": colours.get("accent", DEFAULT_COLOURS["accent"]),
            "labels": "\n".join(
                f"{key} = {value}" for key, value in (branding.get("labels") or {}).items()
            ),
            "modules": ", ".join(branding.get("modules") or []),
            "programmes": "\n".join(
                f"{p.get('name')} = "
                f"{major_from_minor(p.get('price_minor'), exponent=workspace.currency_exponent)}"
                for p in branding.get("programmes") or []
            ),
        }
        super().__init__(data, initial=initial)
        self.workspace = workspace
        zone_country = get_global("zone_territories").get(workspace.timezone, "")
        self.fields["country"].choices = choices.country_choices(zone_country)
        self.fields["locale"].widget.choices = choices.locale_choices(
            workspace.locale, workspace.currency
        )
        self.currency_locked = currency_locked
        if currency_locked:
            self.fields["currency"].disabled = True
            self.fields[
                "currency"
            ].help_text = (
                "The workspace holds sales or payments in this currency: it cannot change."
            )

    def clean_timezone(self):
        zone = choices.zone_from_text(self.cleaned_data["timezone"])
        if zone is None:
            raise forms.ValidationError(
                "Choose a time zone from the list, or type a city, like Berlin."
            )
        return zone

    def clean_locale(self):
        value = self.cleaned_data["locale"].strip()
        if not value:
            return self.workspace.locale
        known = locale_valid(value)
        if known is None:
            raise forms.ValidationError("Choose a language and region from the list.")
        return known

    def _colour(self, name: str) -> str:
        value = self.cleaned_data[name].strip()
        if value and not COLOUR.fullmatch(value):
            raise forms.ValidationError("Pick a colour, or write one like #2f6fed.")
        return value.lower()

    def clean_primary_colour(self):
        return self._colour("primary_colour")

    def clean_accent_colour(self):
        return self._colour("accent_colour")

    @staticmethod
    def _pairs(text: str, what: str) -> list[tuple[str, str]]:
        pairs = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            key, sep, value = line.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise forms.ValidationError(f"Line {number}: write {what}, with = between them.")
            pairs.append((key.strip(), value.strip()))
        return pairs

    def clean_labels(self):
        return dict(self._pairs(self.cleaned_data["labels"], "a name = its label"))

    def clean_modules(self):
        return [part.strip() for part in self.cleaned_data["modules"].split(",") if part.strip()]

    def clean_programmes(self):
        exponent = self.workspace.currency_exponent
        programmes = []
        for name, price in self._pairs(self.cleaned_data["programmes"], "a name = its price"):
            try:
                minor = minor_from_major(price, exponent=exponent)
            except MoneyInvalid as error:
                refusal = money_refusal(error, exponent=exponent, example="4997")
                raise forms.ValidationError(f"The price of {name}: {refusal}") from None
            programmes.append({"name": name, "price_minor": minor})
        return programmes

    def changes(self) -> dict:
        data = self.cleaned_data
        colours = dict((self.workspace.branding or {}).get("colours") or {})
        for key, name in (("primary", "primary_colour"), ("accent", "accent_colour")):
            # The picker always sends a colour: its default, untouched, sets none.
            if data[name] and (data[name] != DEFAULT_COLOURS[key] or key in colours):
                colours[key] = data[name]
            elif not data[name]:
                colours.pop(key, None)
        return {
            "name": data["name"].strip(),
            "timezone": data["timezone"],
            "country": data["country"],
            "currency": data["currency"],
            "locale": data["locale"],
            "working_days": sorted(data["working_days"]),
            "leaderboard_visible": data["leaderboard_visible"],
            "logo": data["logo"].strip(),
            "colours": colours,
            "labels": data["labels"],
            "modules": data["modules"],
            "programmes": data["programmes"],
        }


class CommissionForm(forms.Form):
    basis = forms.ChoiceField(choices=words.choices("basis"))
    slot = forms.ChoiceField(choices=words.choices("slot"))
    percent = forms.DecimalField(
        required=False,
        min_value=Decimal(0),
        max_value=Decimal(100),
        decimal_places=2,
        label="Rate (%)",
        help_text="A percentage, like 10 for 10 %; empty for no rule.",
        error_messages={
            "invalid": "Enter a percentage as a number, like 10.",
            "min_value": "Enter a percentage of 0 or more.",
            "max_value": "Enter a percentage of 100 or less.",
            "max_decimal_places": "Enter a percentage with at most 2 decimals, like 12.5.",
        },
    )
