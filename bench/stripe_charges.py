"""A signed Stripe `charge.succeeded` delivery, as the load tests send it to a connection's
webhook endpoint (bench/locustfile.py, bench/locust_neighbours.py): a new charge and event
each time, whose email matches no lead (the worker holds it), signed with the connection's
webhook secret as Stripe signs (`t=<time>,v1=<HMAC-SHA256 of "<time>.<body>">`)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid


def signed_charge(secret: str, *, prefix: str) -> tuple[str, bytes, dict]:
    """(the event's id, the body, the headers) of one delivery; `prefix` marks the ids
    (ch_<prefix>…, evt_<prefix>…) by the load that sent them."""
    now = int(time.time())
    charge = f"ch_{prefix}{uuid.uuid4().hex[:20]}"
    event_id = f"evt_{prefix}{uuid.uuid4().hex[:20]}"
    body = json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": "charge.succeeded",
            "created": now,
            "livemode": False,
            "data": {
                "object": {
                    "id": charge,
                    "object": "charge",
                    "amount": 5000,
                    "currency": "usd",
                    "created": now,
                    "status": "succeeded",
                    "paid": True,
                    "billing_details": {"email": f"{charge}@load.example", "name": None},
                    "receipt_email": None,
                    "customer": None,
                    "metadata": {},
                    "refunded": False,
                    "amount_refunded": 0,
                    "refunds": {"object": "list", "data": []},
                }
            },
        }
    ).encode()
    digest = hmac.new(secret.encode(), f"{now}.".encode() + body, hashlib.sha256).hexdigest()
    headers = {"Stripe-Signature": f"t={now},v1={digest}", "Content-Type": "application/json"}
    return event_id, body, headers
