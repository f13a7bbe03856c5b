from django import forms

from events.types import EVENT_TYPES

from .guard import MAX_URL_LENGTH

TYPE_CHOICES = [(name, name) for name in EVENT_TYPES]


class EndpointForm(forms.Form):
    url = forms.CharField(
        label="URL",
        max_length=MAX_URL_LENGTH,
        strip=True,
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
    )
    events = forms.MultipleChoiceField(
        choices=TYPE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every type.",
    )
    description = forms.CharField(max_length=200, required=False)
    enabled = forms.BooleanField(required=False, initial=True)


RESEND_WINDOWS = {"1h": 1, "24h": 24, "7d": 24 * 7, "30d": 24 * 30}


class ResendFailedForm(forms.Form):
    since = forms.ChoiceField(
        choices=[
            ("1h", "the last hour"),
            ("24h", "the last 24 hours"),
            ("7d", "the last 7 days"),
            ("30d", "the last 30 days"),
        ]
    )
