"""The providers a workspace can connect, and the credential each one needs.

``INTEGRATIONS`` describes all four (name, what they feed, the credential's fields and
where to find them), so the connect page and the plans can offer them; ``PROVIDERS``
holds those whose webhooks and backfill are built (a package under ``integrations``
exposing ``PROVIDER``). A credential is checked for its format only: the service never
calls the provider while a client is on the connect page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import CredentialField, Provider
from .calendly import PROVIDER as CALENDLY
from .stripe import PROVIDER as STRIPE
from .zoom import PROVIDER as ZOOM


@dataclass(frozen=True)
class Description:
    """What the connect page needs to know of a provider whose package is not built yet."""

    key: str
    name: str
    feeds: str
    credential_fields: tuple[CredentialField, ...]
    credentials_help: str
    webhook_help: str


_DESCRIPTIONS = (
    Description(
        key="hubspot",
        name="HubSpot",
        feeds="leads",
        credentials_help="HubSpot → Settings → Integrations → Private apps → your app → "
        "Access token; the client secret is on the app's Auth tab.",
        webhook_help="In the private app's Webhooks tab, paste the URL below as the target "
        "URL and subscribe to contact creation and property changes.",
        credential_fields=(
            CredentialField(
                "access_token",
                "HubSpot private app access token",
                "it looks like pat-na1-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.",
                r"(?i)pat-[a-z]{2,3}[0-9]{1,2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
                r"[0-9a-f]{4}-[0-9a-f]{12}",
            ),
            CredentialField(
                "client_secret",
                "HubSpot app client secret",
                "it looks like xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.",
                r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                after_webhook_url=True,
                signs_webhooks=True,
            ),
        ),
    ),
)

# Providers whose webhooks, mapping and backfill are built.
PROVIDERS: dict[str, Provider] = {provider.key: provider for provider in (STRIPE, CALENDLY, ZOOM)}

# Every provider a workspace may connect, in the order the pages list them.
INTEGRATIONS: dict[str, Provider | Description] = {
    item.key: PROVIDERS.get(item.key, item)
    for item in sorted(
        [*PROVIDERS.values(), *(d for d in _DESCRIPTIONS if d.key not in PROVIDERS)],
        key=lambda item: ["stripe", "calendly", "zoom", "hubspot"].index(item.key),
    )
}


def provider_get(key: str) -> Provider | None:
    """The built provider (webhooks, mapping, backfill), or None."""
    return PROVIDERS.get(key)


def integration_get(key: str) -> Provider | Description | None:
    """The description of any provider a workspace may connect, or None."""
    return INTEGRATIONS.get(key)


def credentials_check(integration, values) -> tuple[dict, dict]:
    """(clean values by field name, errors by field name); errors is empty when every
    field has the right format. An optional field left empty is left out."""
    clean, errors = {}, {}
    for field in integration.credential_fields:
        value = (values.get(field.name) or "").strip()
        if not value:
            if field.required:
                errors[field.name] = f"Enter the {field.label}."
        elif not re.fullmatch(field.pattern, value):
            errors[field.name] = f"This does not look like a {field.label}: {field.hint}"
        else:
            clean[field.name] = value
    return clean, errors
