"""The Calendly provider: its credential, signature check, event names and mapping."""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Mapping
from datetime import datetime

from core.times import parse_iso

from ..base import CredentialField, Described, Provider, SignatureRefused
from . import backfill, mapping

# Calendly's own guidance: refuse a delivery signed more than three minutes ago.
TOLERANCE_SECONDS = 180
SIGNATURE_HEADER = "Calendly-Webhook-Signature"
_SIGNATURE = re.compile(r"^t=(?P<t>[0-9]{1,12}),v1=(?P<v1>[0-9a-fA-F]{64})$")
_B64URL_PART = r"[A-Za-z0-9_-]{2,}"
_now = time.time


def parse_time(value) -> datetime | None:
    """Calendly's ISO 8601 times ("2026-03-03T10:00:00.000000Z") as aware datetimes."""
    return parse_iso(value)


class CalendlyProvider(Provider):
    mapping_module = mapping
    backfill_module = backfill
    key = "calendly"
    name = "Calendly"
    feeds = "bookings"
    credentials_help = "Calendly → Integrations → API and webhooks → Personal access tokens."
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
        event_type = payload.get("event")
        body = payload.get("payload")
        created_at = payload.get("created_at")
        if not isinstance(body, dict) or not isinstance(event_type, str):
            return Described(event_id="", event_type=str(event_type or ""), occurred_at=None)
        uri = body.get("uri")
        if not event_type or not isinstance(uri, str) or not uri or not created_at:
            return Described(event_id="", event_type=event_type, occurred_at=None)
        return Described(
            # Calendly sends no delivery id: the event, its object and when it was sent.
            event_id=f"{event_type}|{uri}|{created_at}",
            event_type=event_type,
            occurred_at=parse_time(created_at),
            object_id=mapping.invitee_of(event_type, body),
        )

    def on_connect(self, *, connection, credentials: dict, signing_secret: str | None) -> dict:
        """Subscribe to the invitee events when the service generated the signing key."""
        return backfill.subscribe(
            connection=connection, credentials=credentials, signing_secret=signing_secret
        )


PROVIDER = CalendlyProvider()
