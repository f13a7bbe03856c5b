"""Which HubSpot contact properties hold a lead's UTM values, per connection.

HubSpot keeps no raw UTM values on a contact by default (its Original source and
drill-downs are categories, not the link's parameters); portals that capture them use
contact properties, usually named `utm_source`, `utm_medium`, `utm_campaign` and
`utm_content`. An owner or admin may name other properties (for example
`hs_analytics_source` for the source) on the connection's options page; they are kept in
Connection.options["utm_properties"].
"""

from __future__ import annotations

import re

from django import forms

from workspaces.kept import UTM_FIELDS

DEFAULT_UTM_PROPERTIES = {field: field for field in UTM_FIELDS}
# HubSpot's internal property names: lower-case letters, digits and underscores.
PROPERTY_PATTERN = r"[a-z][a-z0-9_]{0,99}"


def utm_properties(connection) -> dict[str, str]:
    """The property read for each UTM field ("" when the field is not read)."""
    chosen = (connection.options or {}).get("utm_properties")
    if not isinstance(chosen, dict):
        return dict(DEFAULT_UTM_PROPERTIES)
    return {field: str(chosen.get(field) or "") for field in UTM_FIELDS}


def utm_properties_check(values: dict) -> tuple[dict[str, str], dict[str, str]]:
    """(clean mapping, errors by field). An empty value leaves the field unread."""
    clean, errors = {}, {}
    for field in UTM_FIELDS:
        value = (values.get(field) or "").strip()
        if value and not re.fullmatch(PROPERTY_PATTERN, value):
            errors[field] = (
                "Give the property's internal name: lower-case letters, digits and "
                "underscores, starting with a letter (HubSpot → Settings → Properties → "
                "the property → Internal name)."
            )
        clean[field] = value
    return clean, errors


class UtmPropertiesForm(forms.Form):
    """The connection's options page: the property read for each UTM field. Kept for the
    contacts read from then on."""

    utm_source = forms.CharField(required=False, max_length=100, label="utm_source")
    utm_medium = forms.CharField(required=False, max_length=100, label="utm_medium")
    utm_campaign = forms.CharField(required=False, max_length=100, label="utm_campaign")
    utm_content = forms.CharField(required=False, max_length=100, label="utm_content")

    def __init__(self, *args, connection, **kwargs):
        super().__init__(*args, **kwargs)
        self.connection = connection

    @classmethod
    def initial_for(cls, connection) -> dict:
        return utm_properties(connection)

    def clean(self):
        data = super().clean()
        clean, errors = utm_properties_check(data)
        for field, message in errors.items():
            self.add_error(field, message)
        return clean

    def options(self) -> dict:
        return {"utm_properties": {field: self.cleaned_data.get(field, "") for field in UTM_FIELDS}}

    def before(self) -> dict:
        return utm_properties(self.connection)
