"""The providers a workspace can connect, and the credential each one needs.

Each is a package under ``integrations`` exposing ``PROVIDER`` (its name, what it feeds,
the credential's fields and where to find them, and its webhooks, mapping and backfill).
A credential is checked for its format only: the service never calls the provider while
a client is on the connect page.
"""

from __future__ import annotations

import re

from .base import Provider
from .calendly import PROVIDER as CALENDLY
from .google import PROVIDER as GOOGLE
from .hubspot import PROVIDER as HUBSPOT
from .meta import PROVIDER as META
from .stripe import PROVIDER as STRIPE
from .zoom import PROVIDER as ZOOM

# Every provider a workspace may connect, in the order the pages list them.
PROVIDERS: dict[str, Provider] = {
    provider.key: provider for provider in (STRIPE, CALENDLY, ZOOM, HUBSPOT, META, GOOGLE)
}


def provider_get(key: str) -> Provider | None:
    return PROVIDERS.get(key)


def credentials_check(integration, values) -> tuple[dict, dict]:
    """(clean values by field name, errors by field name); errors is empty when every
    field has the right format. An optional field left empty is left out."""
    clean, errors = {}, {}
    for field in integration.credential_fields:
        value = field.normalised(v) if (v := (values.get(field.name) or "").strip()) else ""
        if not value:
            if field.required:
                errors[field.name] = f"Enter the {field.label}."
        elif not re.fullmatch(field.pattern, value):
            errors[field.name] = f"This does not look like a {field.label}: {field.hint}"
        else:
            clean[field.name] = value
    return clean, errors
