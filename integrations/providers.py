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
from .hubspot import PROVIDER as HUBSPOT
from .stripe import PROVIDER as STRIPE


@dataclass(frozen=True)
class Description:
    """What the connect page needs to know of a provider whose package is not built yet."""

    key: str
    name: str
    feeds: str
    credential_fields: tuple[CredentialField, ...]
    credentials_help: str
    webhook_help: str


_B64URL_PART = r"[A-Za-z0-9_-]{2,}"

_DESCRIPTIONS = (
    Description(
        key="calendly",
        name="Calendly",
        feeds="bookings",
        credentials_help="Calendly → Integrations → API and webhooks → Personal access tokens.",
        webhook_help="Leave the signing key empty and the service subscribes to Calendly's "
        "invitee events itself; or create the webhook subscription yourself with the URL "
        "below and give its signing key.",
        credential_fields=(
            CredentialField(
                "personal_access_token",
                "Calendly personal access token",
                "it is a long string of three dot-separated parts (eyJ...).",
                rf"(?=.{{40,}}$){_B64URL_PART}\.{_B64URL_PART}\.{_B64URL_PART}",
            ),
            CredentialField(
                "webhook_signing_key",
                "Calendly webhook signing key",
                "8 to 200 printable characters, without spaces.",
                r"[\x21-\x7e]{8,200}",
                required=False,
                after_webhook_url=True,
                signs_webhooks=True,
            ),
        ),
    ),
    Description(
        key="zoom",
        name="Zoom",
        feeds="webinars",
        credentials_help="Zoom App Marketplace → Develop → Server-to-Server OAuth app → "
        "App credentials.",
        webhook_help="In the app's Feature → Event subscriptions, paste the URL below as the "
        "event notification endpoint and choose the webinar events; the secret token is "
        "shown on the same page.",
        credential_fields=(
            CredentialField(
                "account_id",
                "Zoom account ID",
                "8 to 64 letters, digits, - or _.",
                r"[A-Za-z0-9_-]{8,64}",
                secret=False,
            ),
            CredentialField(
                "client_id",
                "Zoom client ID",
                "8 to 64 letters, digits, - or _.",
                r"[A-Za-z0-9_-]{8,64}",
                secret=False,
            ),
            CredentialField(
                "client_secret",
                "Zoom client secret",
                "16 to 128 letters and digits.",
                r"[A-Za-z0-9]{16,128}",
            ),
            CredentialField(
                "webhook_secret_token",
                "Zoom webhook secret token",
                "16 to 64 letters, digits, - or _.",
                r"[A-Za-z0-9_-]{16,64}",
                after_webhook_url=True,
                signs_webhooks=True,
            ),
        ),
    ),
)

# Providers whose webhooks, mapping and backfill are built.
PROVIDERS: dict[str, Provider] = {provider.key: provider for provider in (STRIPE, HUBSPOT)}

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
