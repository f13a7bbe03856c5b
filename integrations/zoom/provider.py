"""The Zoom provider: its credential, signature check, URL validation, event names and mapping.

Zoom signs every delivery, its URL-validation challenge included, with the app's webhook
secret token: `x-zm-signature: v0=<hex HMAC-SHA256(secret, "v0:<timestamp>:<body>")>`,
where the timestamp is `x-zm-request-timestamp` in seconds.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping

from ..base import CredentialField, Described, Provider, SettingsPage, SignatureRefused
from . import backfill, mapping

TOLERANCE_SECONDS = 300
URL_VALIDATION = "endpoint.url_validation"


def _hmac_hex(secret: str, message: str) -> str:
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


class ZoomProvider(Provider):
    mapping_module = mapping
    backfill_module = backfill
    key = "zoom"
    name = "Zoom"
    feeds = "webinars"
    # The workspace's Webinars page (pitch times) is not Zoom's own, but a Zoom connection
    # is where its events come from: the link sits beside it.
    settings_pages = (SettingsPage("Webinars and their pitch times…", "settings-webinars"),)
    refused_step = "paste the app's account ID, client ID and client secret again"
    credentials_help = (
        "Zoom App Marketplace → Develop → Build app → Server-to-Server OAuth app → "
        "App credentials (account ID, client ID, client secret)."
    )
    webhook_help = (
        "In the app's Features → Access → Event subscription, add a subscription, paste the "
        "URL below as the event notification endpoint URL and add the webinar events "
        "Webinar has been created, updated, Registration created, Participant joined and "
        "Participant left. The secret token is shown on the same page: give it here, then "
        "press Validate at Zoom."
    )
    credential_fields = (
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
    )

    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str) -> None:
        signature = headers.get("x-zm-signature") or ""
        timestamp = headers.get("x-zm-request-timestamp") or ""
        if not signature or not timestamp.isdigit():
            raise SignatureRefused(
                "The x-zm-signature or x-zm-request-timestamp header is missing."
            )
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise SignatureRefused("The body is not UTF-8 text.") from error
        expected = "v0=" + _hmac_hex(secret, f"v0:{timestamp}:{text}")
        if not hmac.compare_digest(expected.encode(), signature.encode()):
            raise SignatureRefused(
                "The x-zm-signature header does not match this endpoint's secret token."
            )
        if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
            raise SignatureRefused(
                f"The x-zm-request-timestamp is more than {TOLERANCE_SECONDS} seconds away "
                "from now; Zoom retries with a fresh one.",
                stale=True,
            )

    def challenge(self, payload: dict, secret: str) -> dict | None:
        """Zoom's URL validation: echo the plain token with its HMAC under the secret token."""
        if payload.get("event") != URL_VALIDATION:
            return None
        inner = payload.get("payload")
        plain = inner.get("plainToken") if isinstance(inner, dict) else None
        if not isinstance(plain, str) or not plain:
            return None
        return {"plainToken": plain, "encryptedToken": _hmac_hex(secret, plain)}

    def describe(self, payload: dict) -> Described:
        return mapping.describe(payload)

    def apply_many(self, *, events, connection):
        """The set-based apply of the batch's simple events (the mapping's fast path)."""
        return mapping.events_map_many(events=events, connection=connection)


PROVIDER = ZoomProvider()
