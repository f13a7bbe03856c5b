"""The filing forms as pages check what a person typed in their own words before the
agent API's serializer reads the body: a page says "Enter an amount with at most 2
decimals, like 1234.50", never the API's contract ("major units of USD … as a string or a
number"). What the page lets through, the serializer and the service still check; a
refusal of theirs is shown beside its field in the page's words too (`refusal_words`).
"""

from datetime import date, datetime

from django import forms
from django.utils import timezone

from core import words
from core.money import MoneyInvalid, minor_from_major
from core.times import local_input_parse

REQUIRED = {
    "attendance": "Choose whether the lead showed.",
    "outcome": "Choose the outcome of the call.",
    "lead_email": "Enter the lead's email, like ann@example.com.",
    "occurred_at": "Enter when the call happened.",
    "closed_at": "Enter when the sale was agreed.",
    "platform": "Enter where the conversation happened, like Instagram.",
    "contract_value": "Enter the contract value of the sale.",
}
SALE_OUTCOMES = {"closed", "deposit"}
SALE_FIELDS = ("contract_value", "cash_collected", "payment_plan")


def money_example(exponent: int) -> str:
    return "1234" if exponent == 0 else "1234." + "50".ljust(exponent, "0")[:exponent]


class MoneyInput(forms.CharField):
    def __init__(self, *, exponent: int, minimum: int = 0, **kwargs):
        self.exponent, self.minimum = exponent, minimum
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def validate(self, value):
        super().validate(value)
        if not value:
            return
        try:
            minor = minor_from_major(value.replace(",", ""), exponent=self.exponent)
        except MoneyInvalid as error:
            example = money_example(self.exponent)
            raise forms.ValidationError(
                words.money_refusal(error, exponent=self.exponent, example=example)
            ) from None
        if minor < self.minimum:
            raise forms.ValidationError("Enter an amount of more than 0.")

    def clean(self, value):
        value = super().clean(value)
        return value.replace(",", "") if value else value


COUNT_MESSAGES = {
    "invalid": "Enter a whole number, like 12.",
    "min_value": "Enter 0 or more.",
    "max_value": "Enter a smaller number.",
}


class LocalTimeField(forms.DateTimeField):
    """A datetime-local field, read as core.times reads one (local_input_parse): the wall
    time in the page's zone, which the workspace's pages activate."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        moment = local_input_parse(str(value).strip(), timezone.get_current_timezone())
        if moment is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return moment


def _field(name: str, label: str, kind: str, choices, *, exponent: int) -> forms.Field:
    required = {"required": REQUIRED.get(name, f"Enter {label.lower()}.")}
    if kind in ("choice", "bool"):
        return forms.ChoiceField(
            label=label, required=False, choices=[("", "—"), *choices], error_messages=required
        )
    if kind == "money":
        return MoneyInput(
            label=label,
            required=False,
            exponent=exponent,
            minimum=1 if name == "contract_value" else 0,
        )
    if kind == "count":
        return forms.IntegerField(
            label=label,
            required=False,
            min_value=0,
            max_value=10**9,
            error_messages=COUNT_MESSAGES,
            widget=forms.NumberInput(attrs={"min": "0", "step": "1", "inputmode": "numeric"}),
        )
    if kind == "date":
        return forms.DateField(
            label=label,
            required=False,
            error_messages={"invalid": "Enter a day, like 2026-11-28."},
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        )
    if kind == "datetime":
        return LocalTimeField(
            label=label,
            required=False,
            error_messages={"invalid": "Enter a day and a time, like 2026-11-28 14:30."},
            widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        )
    if name == "lead_email":
        return forms.EmailField(
            label=label,
            required=False,
            max_length=254,
            error_messages={"invalid": "Enter an email address, like ann@example.com."},
        )
    widget = forms.Textarea(attrs={"rows": 3}) if kind == "textarea" else forms.TextInput()
    return forms.CharField(
        label=label,
        required=False,
        max_length=5000 if kind == "textarea" else 200,
        widget=widget,
        error_messages={
            "max_length": "Write at most %(limit_value)d characters (this has %(show_value)d)."
        },
    )


class FilingForm(forms.Form):
    """One filing form's fields (agentapi.pages.FORMS), checked as a person reads them."""

    def __init__(
        self,
        data=None,
        *,
        form_key: str,
        spec: dict,
        exponent: int,
        today: date,
        checks: bool,
        initial=None,
    ):
        super().__init__(data, initial=initial)
        self.form_key, self.today, self.checks = form_key, today, checks
        for name, label, kind, choices in spec["fields"]:
            self.fields[name] = _field(name, label, kind, choices, exponent=exponent)

    def _need(self, name: str, data: dict) -> None:
        if name in self.fields and not data.get(name) and name not in self.errors:
            self.add_error(name, REQUIRED[name])

    def clean(self):
        data = super().clean()
        if "date" in self.fields and data.get("date") and data["date"] > self.today:
            self.add_error("date", "This day has not come yet: choose today or an earlier day.")
        for name in ("occurred_at", "closed_at"):
            if name in self.fields and data.get(name) and data[name] > timezone.now():
                self.add_error(name, "Choose a time that has passed.")
        if self.checks and self.form_key != "eod":
            for name in ("lead_email", "occurred_at", "closed_at", "platform"):
                self._need(name, data)
            if self.form_key == "post-call":
                self._attendance(data)
            if self.form_key == "past-call":
                self._need("outcome", data)
            self._sale(data)
        return data

    def _attendance(self, data: dict) -> None:
        self._need("attendance", data)
        if data.get("attendance") == "showed":
            self._need("outcome", data)
        elif data.get("attendance") == "no_show":
            if data.get("outcome"):
                self.add_error("outcome", "A lead who did not show has no outcome: leave it empty.")
            if data.get("offer_made") == "yes":
                self.add_error("offer_made", "No offer is made to a lead who did not show.")

    def _sale(self, data: dict) -> None:
        if self.form_key == "dm-close" or data.get("outcome") in SALE_OUTCOMES:
            self._need("contract_value", data)
            return
        if not data.get("outcome") and self.form_key != "past-call":
            return
        for name in SALE_FIELDS:
            if data.get(name) and name not in self.errors:
                self.add_error(
                    name, "Leave the sale's fields empty unless the outcome is Closed or Deposit."
                )


def refusal_words(form: FilingForm, field: str, message: str) -> tuple[str | None, str]:
    """Where a refusal of the API's serializer or service goes on the page, and its words."""
    if field in form.fields:
        kind_words = {
            "date": "This day has not come yet: choose today or an earlier day.",
            "occurred_at": "Choose a time that has passed.",
            "closed_at": "Choose a time that has passed.",
        }
        if field in REQUIRED and "required" in message.lower():
            return field, REQUIRED[field]
        if field in kind_words and ("after today" in message or "future" in message):
            return field, kind_words[field]
        if isinstance(form.fields[field], MoneyInput):
            return field, "Enter an amount as a number, like 1234.50."
    text = message.removeprefix(f"{field}: ").strip()
    text = text[:1].upper() + text[1:]
    return (field if field in form.fields else None), text
