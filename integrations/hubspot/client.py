"""HubSpot's CRM API through its library (`hubspot-api-client`), with a private app token.

Contacts are read in batches (up to 100 ids a call) and searched page by page; a 429 is
waited out (1, 2, 4... 32 seconds) before it becomes a provider error.
"""

from __future__ import annotations

import time
from datetime import datetime

from django.conf import settings
from hubspot import HubSpot
from hubspot.crm.contacts import (
    ApiException,
    BatchReadInputSimplePublicObjectId,
    PublicObjectSearchRequest,
)
from urllib3.util.retry import Retry

from ..base import ProviderError, ProviderLimited, ProviderRefused, ProviderUnreachable

# HubSpot's limit of ids in one batch read, and of contacts in one search page.
BATCH_SIZE = 100
PAGE_SIZE = 100
BACKOFF = (1, 2, 4, 8, 16, 32)
TIMEOUT_SECONDS = 20
NAME_PROPERTIES = ("email", "firstname", "lastname", "createdate")
# What the ad platforms know the contact by: its phone, and the click ids HubSpot keeps
# from the ads that brought it.
IDENTIFIER_PROPERTIES = ("phone", "hs_facebook_click_id", "hs_google_click_id")
_sleep = time.sleep


def client_for(credentials: dict) -> HubSpot:
    # No retries inside urllib3: a 429 is waited out here, and any other failure is told.
    return HubSpot(
        access_token=credentials["access_token"],
        retry=Retry(total=0),
        host=settings.HUBSPOT_API_BASE,
    )


def _call(what: str, call):
    for wait in (*BACKOFF, None):
        try:
            return call()
        except ApiException as error:
            if error.status == 429:
                if wait is None:
                    raise ProviderLimited(
                        "HubSpot kept answering 429 (too many requests)."
                    ) from error
                _sleep(wait)
                continue
            if error.status == 401:
                raise ProviderRefused("HubSpot refused the access token (401).") from error
            if error.status == 403:
                raise ProviderRefused(
                    f"The private app may not {what}: give it the crm.objects.contacts.read scope."
                ) from error
            failed = ProviderUnreachable if (error.status or 0) >= 500 else ProviderError
            raise failed(f"HubSpot could not {what} (HTTP {error.status}).") from error
        except Exception as error:  # urllib3's connection errors, timeouts
            if isinstance(error, ProviderError):
                raise
            raise ProviderUnreachable(f"HubSpot could not be reached to {what}: {error}") from error
    raise AssertionError("unreachable")


def _iso(value) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else None


def contact_dict(obj) -> dict:
    """A contact as plain JSON: id, properties, updatedAt."""
    return {
        "id": str(obj.id),
        "properties": dict(obj.properties or {}),
        "createdAt": _iso(obj.created_at),
        "updatedAt": _iso(obj.updated_at),
    }


def contacts_read(client: HubSpot, ids: list[str], properties: list[str]) -> dict[str, dict]:
    """The contacts HubSpot has among `ids`, by id (one call per 100 ids). An id HubSpot
    does not know (deleted, merged) is left out."""
    found: dict[str, dict] = {}
    for start in range(0, len(ids), BATCH_SIZE):
        chunk = ids[start : start + BATCH_SIZE]
        body = BatchReadInputSimplePublicObjectId(
            inputs=[{"id": contact_id} for contact_id in chunk],
            properties=properties,
            properties_with_history=[],
        )
        answer = _call(
            "read contacts",
            lambda body=body: client.crm.contacts.batch_api.read(
                batch_read_input_simple_public_object_id=body,
                _request_timeout=TIMEOUT_SECONDS,
            ),
        )
        for obj in answer.results or []:
            found[str(obj.id)] = contact_dict(obj)
    return found


def contacts_search(
    client: HubSpot, *, since_ms: int, after: str | None, properties: list[str]
) -> tuple[list[dict], str | None]:
    """One page of contacts created at or after `since_ms`, oldest first, and the `after`
    of the next page (None at the end)."""
    request = PublicObjectSearchRequest(
        filter_groups=[
            {"filters": [{"propertyName": "createdate", "operator": "GTE", "value": str(since_ms)}]}
        ],
        sorts=[{"propertyName": "createdate", "direction": "ASCENDING"}],
        properties=properties,
        limit=PAGE_SIZE,
        after=after,
    )
    answer = _call(
        "search contacts",
        lambda: client.crm.contacts.search_api.do_search(
            public_object_search_request=request, _request_timeout=TIMEOUT_SECONDS
        ),
    )
    following = None
    if answer.paging is not None and answer.paging.next is not None:
        following = answer.paging.next.after
    return [contact_dict(obj) for obj in answer.results or []], following
