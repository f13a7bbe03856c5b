"""The Stripe provider: its credential, signature check, event names and mapping."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime

import stripe

from core.times import from_epoch

from ..base import CredentialField, Described, Provider, SignatureRefused, signed_time
from . import backfill, mapping

# Stripe's own default: a delivery signed more than five minutes ago is refused.
TOLERANCE_SECONDS = 300
_now = time.time


def _moment(value) -> datetime | None:
    return from_epoch(value)


class StripeProvider(Provider):
    mapping_module = mapping
    backfill_module = backfill
    key = "stripe"
    name = "Stripe"
    feeds = "payments"
    refused_step = "paste a new restricted key"
    credentials_help = (
        "Stripe dashboard → Developers → API keys. A restricted key with read access to "
        "charges, refunds and disputes is enough."
    )
    webhook_help = (
        "Stripe dashboard → Developers → Webhooks → Add endpoint: paste the URL below and "
        "choose the events charge.succeeded, charge.failed, charge.refunded, refund.created, "
        "refund.updated and charge.dispute.closed. Then reveal the endpoint's signing secret "
        "(whsec_…) and give it here."
    )
    credential_fields = (
        CredentialField(
            "secret_key",
            "Stripe secret or restricted key",
            "it starts with sk_live_, sk_test_, rk_live_ or rk_test_ followed by at least 24 "
            "letters and digits.",
            r"(sk_live_|sk_test_|rk_live_|rk_test_|rk_)[A-Za-z0-9]{24,}",
        ),
        CredentialField(
            "webhook_secret",
            "Stripe webhook signing secret",
            "it starts with whsec_ followed by at least 24 letters and digits.",
            r"whsec_[A-Za-z0-9+/=]{24,}",
            after_webhook_url=True,
            signs_webhooks=True,
        ),
    )

    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str) -> None:
        """Stripe's own verifier: `Stripe-Signature` (t=…,v1=HMAC-SHA256 of "t.body"), and a
        timestamp no further than the tolerance from now either way (the library checks only
        the past)."""
        header = headers.get("Stripe-Signature") or ""
        if not header.isascii():
            raise SignatureRefused("The Stripe-Signature header is not ASCII text.")
        # Each t= is read before the library reads the first with int() (which would take
        # "+…", "1_…" or " …" and let a time ahead of now through).
        stamps = [
            signed_time(value, "Stripe-Signature timestamp")
            for key, _, value in (part.partition("=") for part in header.split(","))
            if key == "t"
        ]
        if stamps and stamps[0] > _now() + TOLERANCE_SECONDS:
            raise SignatureRefused(
                f"The Stripe-Signature timestamp is more than {TOLERANCE_SECONDS} seconds "
                "ahead of now; check the sender's clock.",
                stale=True,
            )
        try:
            stripe.WebhookSignature.verify_header(
                body.decode("utf-8"),
                headers.get("Stripe-Signature"),
                secret,
                tolerance=TOLERANCE_SECONDS,
            )
        except UnicodeDecodeError as error:
            raise SignatureRefused("The body is not UTF-8 text.") from error
        except stripe.SignatureVerificationError as error:
            message = str(error.user_message or error)
            if "tolerance" in message:
                raise SignatureRefused(
                    f"The Stripe-Signature timestamp is more than {TOLERANCE_SECONDS} seconds "
                    "old; Stripe retries with a fresh one.",
                    stale=True,
                ) from error
            raise SignatureRefused(
                "The Stripe-Signature header is missing or does not match this endpoint's "
                "signing secret."
            ) from error

    def describe(self, payload: dict) -> Described:
        data = payload.get("data")
        obj = data.get("object") if isinstance(data, dict) else None
        if not isinstance(obj, dict):
            obj = {}
        # Charges and refunds are placed by when they were made; anything else by when
        # Stripe sent the event (a dispute is closed then).
        occurred = (
            _moment(obj.get("created")) if obj.get("object") in ("charge", "refund") else None
        )
        return Described(
            event_id=str(payload.get("id") or ""),
            event_type=str(payload.get("type") or ""),
            occurred_at=occurred or _moment(payload.get("created")),
            object_id=str(obj.get("id") or ""),
        )

    def summary(self, event):
        """A held charge's or refund's amount and email, for the Integrations page."""
        return mapping.event_summary(event)

    def apply_many(self, *, events, connection):
        """The set-based apply of the batch's simple events (the mapping's fast path)."""
        return mapping.events_map_many(events=events, connection=connection)


PROVIDER = StripeProvider()
