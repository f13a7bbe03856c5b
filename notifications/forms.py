from django import forms

from .models import Kind
from .services import HOURS, SPEED_TO_LEAD_MINUTES

HOUR_CHOICES = [(hour, f"{hour:02d}:00") for hour in HOURS]


class NotificationsForm(forms.Form):
    """The Notifications page: the section's fields by their names. The Slack address is
    never shown again once saved: the field is empty on every page, and left empty it keeps
    the address saved."""

    digest_hour = forms.TypedChoiceField(choices=HOUR_CHOICES, coerce=int, initial=8)
    daily_digest = forms.BooleanField(required=False, initial=True)
    weekly_digest = forms.BooleanField(required=False, initial=True)
    speed_to_lead_minutes = forms.IntegerField(
        required=False,
        min_value=SPEED_TO_LEAD_MINUTES[0],
        max_value=SPEED_TO_LEAD_MINUTES[1],
        help_text="Empty: no speed-to-lead alerts.",
    )
    eod_reminder_hour = forms.TypedChoiceField(
        choices=[("", "No reminder"), *HOUR_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )
    slack_webhook_url = forms.CharField(
        required=False,
        max_length=500,
        strip=True,
        widget=forms.URLInput(
            attrs={"placeholder": "https://hooks.slack.com/services/…", "autocomplete": "off"}
        ),
    )
    slack_remove = forms.BooleanField(required=False)


class ChoicesForm(forms.Form):
    """A member's choices of the kinds they receive (on their account page)."""

    workspace = forms.UUIDField()
    kinds = forms.MultipleChoiceField(
        choices=Kind.choices, required=False, widget=forms.CheckboxSelectMultiple
    )
