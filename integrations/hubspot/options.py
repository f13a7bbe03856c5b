"""Which HubSpot contact properties hold a lead's UTM values, per connection.

HubSpot keeps no raw UTM values on a contact by default (its Original source and
drill-downs are categories, not the link's parameters); portals that capture them use
contact properties, usually named `utm_source`, `utm_medium`, `utm_campaign` and
`utm_content`. An owner or admin may name other properties (for example
`hs_analytics_source` for the source); they are kept in
Connection.options["utm_properties"].
"""

from __future__ import annotations

import re

from django.db import transaction

from audit.services import Actor, audit_record
from workspaces.kept import UTM_FIELDS

from ..models import Connection

DEFAULT_UTM_PROPERTIES = {field: field for field in UTM_FIELDS}
# HubSpot's internal property names: lower-case letters, digits and underscores.
PROPERTY_PATTERN = r"[a-z][a-z0-9_]{0,99}"


def utm_properties(connection: Connection) -> dict[str, str]:
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


def utm_properties_set(*, connection: Connection, mapping: dict[str, str], actor: Actor) -> None:
    """Keep the mapping (already checked) on the connection, with its audit event. It
    applies to the contacts read from then on."""
    with transaction.atomic():
        locked = Connection.objects.select_for_update().get(pk=connection.pk)
        before = utm_properties(locked)
        options = dict(locked.options or {})
        options["utm_properties"] = {field: mapping.get(field, "") for field in UTM_FIELDS}
        locked.options = options
        locked.save(update_fields=["options"])
        audit_record(
            actor=actor,
            action="integration.options_changed",
            target_type="integration_connection",
            target_id=locked.pk,
            workspace=locked.workspace,
            detail={
                "provider": locked.provider,
                "utm_properties": options["utm_properties"],
                "before": before,
            },
        )
    connection.options = options
