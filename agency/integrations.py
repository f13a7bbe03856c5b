"""The integrations a workspace can connect, each with the credential it needs.

A credential is checked for its format only (the service never calls the provider
while a client is on the connect page); it is then stored encrypted and never shown.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CredentialField:
    name: str
    label: str
    pattern: re.Pattern
    hint: str
    secret: bool = True


@dataclass(frozen=True)
class Integration:
    key: str
    name: str
    feeds: str
    fields: tuple[CredentialField, ...]
    help: str

    def check(self, values: dict) -> tuple[dict, dict]:
        """(clean credential, errors by field name); errors is empty when the format is right."""
        clean, errors = {}, {}
        for field in self.fields:
            value = (values.get(field.name) or "").strip()
            if not value:
                errors[field.name] = f"Enter the {field.label}."
            elif not field.pattern.fullmatch(value):
                errors[field.name] = f"This does not look like a {field.label}: {field.hint}"
            else:
                clean[field.name] = value
        return clean, errors


_B64URL_PART = r"[A-Za-z0-9_-]{2,}"

INTEGRATIONS: dict[str, Integration] = {
    integration.key: integration
    for integration in (
        Integration(
            key="stripe",
            name="Stripe",
            feeds="payments",
            help="Stripe dashboard → Developers → API keys. A restricted key with read access "
            "to charges and refunds is enough.",
            fields=(
                CredentialField(
                    "secret_key",
                    "Stripe secret or restricted key",
                    re.compile(r"(sk_live_|sk_test_|rk_live_|rk_test_|rk_)[A-Za-z0-9]{24,}"),
                    "it starts with sk_live_, sk_test_ or rk_ followed by at least 24 letters "
                    "and digits.",
                ),
            ),
        ),
        Integration(
            key="calendly",
            name="Calendly",
            feeds="bookings",
            help="Calendly → Integrations → API and webhooks → Personal access tokens.",
            fields=(
                CredentialField(
                    "personal_access_token",
                    "Calendly personal access token",
                    re.compile(rf"(?=.{{40,}}$){_B64URL_PART}\.{_B64URL_PART}\.{_B64URL_PART}"),
                    "it is a long string of three dot-separated parts (eyJ...).",
                ),
            ),
        ),
        Integration(
            key="zoom",
            name="Zoom",
            feeds="webinars",
            help="Zoom App Marketplace → Develop → Server-to-Server OAuth app → App credentials.",
            fields=(
                CredentialField(
                    "account_id",
                    "Zoom account ID",
                    re.compile(r"[A-Za-z0-9_-]{8,64}"),
                    "8 to 64 letters, digits, - or _.",
                    secret=False,
                ),
                CredentialField(
                    "client_id",
                    "Zoom client ID",
                    re.compile(r"[A-Za-z0-9_-]{8,64}"),
                    "8 to 64 letters, digits, - or _.",
                    secret=False,
                ),
                CredentialField(
                    "client_secret",
                    "Zoom client secret",
                    re.compile(r"[A-Za-z0-9]{16,128}"),
                    "16 to 128 letters and digits.",
                ),
            ),
        ),
        Integration(
            key="hubspot",
            name="HubSpot",
            feeds="leads",
            help="HubSpot → Settings → Integrations → Private apps → your app → Access token.",
            fields=(
                CredentialField(
                    "access_token",
                    "HubSpot private app access token",
                    re.compile(
                        r"pat-[a-z]{2,3}[0-9]{1,2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
                        r"[0-9a-f]{4}-[0-9a-f]{12}",
                        re.IGNORECASE,
                    ),
                    "it looks like pat-na1-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.",
                ),
            ),
        ),
    )
}


def integration_get(key: str) -> Integration | None:
    return INTEGRATIONS.get(key)
