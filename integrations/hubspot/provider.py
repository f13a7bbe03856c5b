"""The HubSpot provider: its credential, signature check, events and mapping."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime

from hubspot.exceptions import InvalidSignatureTimestampError
from hubspot.utils.signature import Signature

from core.times import from_epoch
from workspaces.models import Member

from ..base import (
    CredentialField,
    Described,
    OptionsPage,
    Provider,
    SignatureRefused,
    signed_time,
)
from . import backfill, mapping
from .options import UtmPropertiesForm

# HubSpot's own rule: a request signed more than five minutes ago is refused.
TOLERANCE_SECONDS = Signature.MAX_ALLOWED_TIMESTAMP
_now = time.time
# HubSpot's v3 signature is computed on the URI with these characters decoded.
_URI_DECODED = {
    "%3A": ":",
    "%2F": "/",
    "%3F": "?",
    "%40": "@",
    "%21": "!",
    "%24": "$",
    "%27": "'",
    "%28": "(",
    "%29": ")",
    "%2A": "*",
    "%2C": ",",
    "%3B": ";",
}


def signed_uri(url: str) -> str:
    for encoded, character in _URI_DECODED.items():
        url = url.replace(encoded, character).replace(encoded.lower(), character)
    return url


def _moment_ms(value) -> datetime | None:
    return from_epoch(value, per_second=1000)


class HubSpotProvider(Provider):
    backfill_module = backfill
    key = "hubspot"
    name = "HubSpot"
    feeds = "leads"
    credentials_help = (
        "HubSpot → Settings → Integrations → Private apps → your app → Access token; the "
        "client secret is on the app's Auth tab. The app needs the crm.objects.contacts.read "
        "scope."
    )
    webhook_help = (
        "In the private app's Webhooks tab, paste the URL below as the target URL and "
        "subscribe to contact creation and property changes (at least email, firstname, "
        "lastname and the UTM properties)."
    )
    credential_fields = (
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
    )
    options_page = OptionsPage(
        "UTM properties…",
        form=UtmPropertiesForm,
        template="integrations/hubspot_mapping.html",
        roles=Member.ADMIN_ROLES,
        saved="UTM properties saved; contacts read from now on use them.",
    )
    refused_step = "paste a new private app access token"
    # verify() is given the request's method and URL (HubSpot signs them).
    verify_with_request = True

    def verify(
        self,
        *,
        body: bytes,
        headers: Mapping[str, str],
        secret: str,
        method: str = "POST",
        url: str = "",
    ) -> None:
        """HubSpot's v3 signature through its library: base64(HMAC-SHA256(client secret,
        method + URI + body + X-HubSpot-Request-Timestamp)), the timestamp (in
        milliseconds) at most five minutes old."""
        signature = headers.get("X-HubSpot-Signature-v3")
        timestamp = headers.get("X-HubSpot-Request-Timestamp")
        if not signature or not timestamp:
            raise SignatureRefused(
                "The X-HubSpot-Signature-v3 or X-HubSpot-Request-Timestamp header is missing."
            )
        if not (signature.isascii() and timestamp.isascii()):
            raise SignatureRefused("The HubSpot signature headers are not ASCII text.")
        # Read before the library reads it with float() (which would take "+…", "2.5e14" or
        # "….0" and let a time ahead of now through).
        sent = signed_time(timestamp, "X-HubSpot-Request-Timestamp")
        if sent > (_now() + TOLERANCE_SECONDS) * 1000:
            raise SignatureRefused(
                f"The X-HubSpot-Request-Timestamp is more than {TOLERANCE_SECONDS} seconds "
                "ahead of now; check the sender's clock.",
                stale=True,
            )
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise SignatureRefused("The body is not UTF-8 text.") from error
        try:
            valid = Signature.is_valid(
                signature=signature,
                client_secret=secret,
                request_body=text,
                http_uri=signed_uri(url),
                http_method=method,
                signature_version="v3",
                timestamp=timestamp,
            )
        except InvalidSignatureTimestampError as error:
            raise SignatureRefused(
                f"The X-HubSpot-Request-Timestamp is more than {TOLERANCE_SECONDS} seconds "
                "old or not a time; HubSpot retries with a fresh one.",
                stale=True,
            ) from error
        if not valid:
            raise SignatureRefused(
                "The X-HubSpot-Signature-v3 header does not match this endpoint's app client "
                "secret."
            )

    def split(self, payload) -> list[dict] | None:
        """HubSpot sends a JSON array of events (up to 100) in one delivery."""
        if isinstance(payload, dict):
            return [payload]
        if isinstance(payload, list) and payload and all(isinstance(p, dict) for p in payload):
            return payload
        return None

    def describe(self, payload: dict) -> Described:
        event_id = payload.get("eventId")
        object_id = payload.get("objectId")
        return Described(
            event_id=str(event_id) if isinstance(event_id, (int, str)) else "",
            event_type=str(payload.get("subscriptionType") or ""),
            occurred_at=_moment_ms(payload.get("occurredAt")),
            object_id=str(object_id) if isinstance(object_id, (int, str)) else "",
        )

    def apply_many(self, *, events, connection):
        """The set-based apply of the batch's new contacts (the mapping's fast path)."""
        return mapping.events_map_many(events=events, connection=connection)

    def apply(self, *, event, connection, credentials):
        # HubSpot's webhooks name the contact only: the mapping reads it through the API.
        return mapping.event_map(event=event, connection=connection, credentials=credentials)


PROVIDER = HubSpotProvider()
