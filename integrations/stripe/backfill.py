"""The last 90 days of charges and refunds, read page by page through Stripe's API.

Each object becomes a BackfillItem shaped like the webhook event it stands for (a charge
as charge.succeeded or charge.failed, a refund as refund.updated), so it goes through the
same mapping and makes the same records, keyed on Stripe's ids. Its event id is
`backfill:<object id>:<read time>` and its `created` the time it was read: it is the
newest snapshot of the object, and a webhook sent later still wins.

The cursor says which resource is being read, from which object on, and since when (fixed
when the backfill starts), so a restarted worker resumes where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import stripe
from django.conf import settings

from core.times import from_epoch

from ..base import (
    BackfillItem,
    BackfillPage,
    Described,
    ProviderError,
    ProviderLimited,
    ProviderRefused,
    ProviderUnreachable,
)

DAYS = 90
PAGE_SIZE = 100
RESOURCES = ("charges", "refunds")
# Waits after a 429, in seconds, before giving up.
BACKOFF = (1, 2, 4, 8, 16, 32)
_sleep = time.sleep


def client_for(credentials: dict) -> stripe.StripeClient:
    return stripe.StripeClient(
        credentials["secret_key"],
        http_client=stripe.HTTPXClient(allow_sync_methods=True),
        max_network_retries=0,
        base_addresses={"api": settings.STRIPE_API_BASE},
    )


def _list(client: stripe.StripeClient, resource: str, params: dict):
    service = getattr(client.v1, resource)
    for wait in (*BACKOFF, None):
        try:
            return service.list(params=params)
        except stripe.RateLimitError as error:
            if wait is None:
                raise ProviderLimited("Stripe kept answering 429 (too many requests).") from error
            _sleep(wait)
        except stripe.AuthenticationError as error:
            raise ProviderRefused("Stripe refused the secret key (401).") from error
        except stripe.PermissionError as error:
            raise ProviderRefused(
                f"The key may not read {resource}: give it read access to charges and refunds."
            ) from error
        except stripe.APIConnectionError as error:
            raise ProviderUnreachable(
                f"Stripe could not be reached: {error.user_message or error}"
            ) from error
        except stripe.StripeError as error:
            raise ProviderError(
                f"Stripe could not be read: {error.user_message or error}"
            ) from error
    raise AssertionError("unreachable")


def _item(obj: dict, read_at: int) -> BackfillItem | None:
    if obj.get("object") == "charge":
        if obj.get("status") not in ("succeeded", "failed"):
            return None
        event_type = f"charge.{obj['status']}"
    elif obj.get("object") == "refund":
        event_type = "refund.updated"
    else:
        return None
    payload = {
        "id": f"backfill:{obj['id']}:{read_at}",
        "object": "event",
        "created": read_at,
        "type": event_type,
        "data": {"object": obj},
    }
    return BackfillItem(
        described=Described(
            event_id=payload["id"],
            event_type=event_type,
            occurred_at=from_epoch(obj["created"]),
            object_id=obj["id"],
        ),
        payload=payload,
    )


def pages(*, connection, credentials: dict, cursor: dict | None) -> Iterator[BackfillPage]:
    cursor = dict(cursor or {})
    since = cursor.get("since") or int((datetime.now(tz=UTC) - timedelta(days=DAYS)).timestamp())
    client = client_for(credentials)
    start = RESOURCES.index(cursor["resource"]) if cursor.get("resource") in RESOURCES else 0
    for index in range(start, len(RESOURCES)):
        resource = RESOURCES[index]
        after = cursor.get("starting_after") if cursor.get("resource") == resource else None
        while True:
            params = {"limit": PAGE_SIZE, "created": {"gte": since}}
            if after:
                params["starting_after"] = after
            listed = _list(client, resource, params)
            read_at = int(time.time())
            objects = [obj.to_dict(for_json=True) for obj in listed.data]
            items = [item for item in (_item(obj, read_at) for obj in objects) if item]
            if listed.has_more and objects:
                after = objects[-1]["id"]
                following = {"since": since, "resource": resource, "starting_after": after}
            elif index + 1 < len(RESOURCES):
                following = {"since": since, "resource": RESOURCES[index + 1]}
            else:
                following = None
            yield BackfillPage(items=items, cursor=following)
            if following is None or following.get("resource") != resource:
                break
