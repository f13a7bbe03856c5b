"""The Calendly provider: its credential, signature check, event names and mapping."""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Mapping

from ..base import CredentialField, Described, Provider, SignatureRefused
from . import backfill, mapping

# Calendly's own guidance: refuse a delivery signed more than three minutes ago.
TOLERANCE_SECONDS = 180
SIGNATURE_HEADER = "Calendly-Webhook-Signature"
_SIGNATURE = re.compile(r"^t=(?P<t>[0-9]{1,12}),v1=(?P<v1>[0-9a-fA-F]{64})$")
_B64URL_PART = r"[A-Za-z0-9_-]{2,}"
_now = time.time


class CalendlyProvider(Provider):
    mapping_module = mapping
    backfill_module = backfill
    key = "calendly"
    name = "Calendly"
    feeds = "bookings"
    credentials_help = "Calendly → Integrations → API and webhooks → Personal access tokens."
    refused_step = "paste a new personal access token"
    webhook_help = (
        "Leave the signing key empty and the service subscribes to Calendly's invitee events "
        "itself; or create the webhook subscription yourself with the URL below and give its "
        "signing key."
    )
    credential_fields = (
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
    )

    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str) -> None:
        """`Calendly-Webhook-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">`."""
        header = (headers.get(SIGNATURE_HEADER) or "").strip()
        match = _SIGNATURE.match(header)
        if match is None:
            raise SignatureRefused(
                f"The {SIGNATURE_HEADER} header is missing or is not t=<time>,v1=<signature>."
            )
        timestamp = match["t"]
        expected = hmac.new(
            secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256
        ).hexdigest()
        if not hmac.compare_digest(expected, match["v1"].lower()):
            raise SignatureRefused(
                f"The {SIGNATURE_HEADER} header does not match this connection's signing key."
            )
        if abs(_now() - int(timestamp)) > TOLERANCE_SECONDS:
            raise SignatureRefused(
                f"The {SIGNATURE_HEADER} timestamp is more than {TOLERANCE_SECONDS} seconds "
                "away from now; Calendly retries with a fresh one.",
                stale=True,
            )

    def describe(self, payload: dict) -> Described:
        return mapping.describe(payload)

    def apply_many(self, *, events, connection):
        """The set-based apply of the batch's bookings and cancellations (the mapping's
        fast path)."""
        return mapping.events_map_many(events=events, connection=connection)

    def on_connect(self, *, connection, credentials: dict, signing_secret: str | None) -> dict:
        """Subscribe to the invitee events when the service generated the signing key."""
        return backfill.subscribe(
            connection=connection, credentials=credentials, signing_secret=signing_secret
        )


PROVIDER = CalendlyProvider()
