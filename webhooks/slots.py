"""The caps on attempts under way at once, per endpoint and per workspace, counted in the
shared cache (Redis in production) so every worker of the deliveries' pool sees them.

A cap of n is n slots, each a key of the cache: an attempt takes a free slot of its
endpoint and one of its workspace (an atomic add, the key's expiry the attempt's own
hold) and gives both back when it ends. A worker that dies mid-attempt leaves its slots
to expire with its hold, as the delivery itself is. A cache that cannot be reached caps
nothing: the attempt runs (a cache that is down does not stop the deliveries)."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)

_KEY = "webhook:running:%(scope)s:%(ident)s:%(slot)d"


def _keys(scope: str, ident, cap: int) -> list[str]:
    """The cache keys of a scope's `cap` slots."""
    return [_KEY % {"scope": scope, "ident": ident, "slot": slot} for slot in range(cap)]


def _take_one(store, scope: str, ident, cap: int, token: str, seconds: int) -> str | None:
    for key in _keys(scope, ident, cap):
        if store.add(key, token, seconds):
            return key
    return None


def slots_take(*, endpoint_id, workspace_id, seconds: int) -> list[str] | None:
    """A slot of the endpoint and one of its workspace for an attempt of at most `seconds`:
    the keys to give back (slots_give_back), or None when either cap is full (nothing
    taken)."""
    store = caches["default"]
    token = secrets.token_hex(8)
    taken: list[str] = []
    try:
        for scope, ident, cap in (
            ("endpoint", endpoint_id, settings.WEBHOOK_ENDPOINT_CONCURRENCY),
            ("workspace", workspace_id, settings.WEBHOOK_WORKSPACE_CONCURRENCY),
        ):
            if cap <= 0:
                continue
            key = _take_one(store, scope, ident, cap, token, seconds)
            if key is None:
                slots_give_back([f"{held}|{token}" for held in taken])
                return None
            taken.append(key)
    except Exception:
        logger.exception("The attempts' slots are unavailable; the attempt runs uncapped")
        return []
    return [f"{key}|{token}" for key in taken]


def slots_free(*, workspace_id, endpoint_ids) -> tuple[int | None, dict] | None:
    """How many slots are free now: (the workspace's, {endpoint id: its own}), a count None
    where no cap applies; None when the cache cannot be reached. One read of the cache: a
    hint for how many attempts to queue, not a hold (slots_take decides)."""
    scopes = [("workspace", workspace_id, settings.WEBHOOK_WORKSPACE_CONCURRENCY)] + [
        ("endpoint", ident, settings.WEBHOOK_ENDPOINT_CONCURRENCY) for ident in endpoint_ids
    ]
    keys = {(scope, ident): _keys(scope, ident, cap) for scope, ident, cap in scopes if cap > 0}
    try:
        taken = caches["default"].get_many([key for held in keys.values() for key in held])
    except Exception:
        logger.exception("The attempts' slots are unavailable; every attempt is queued")
        return None

    def free(scope, ident):
        held = keys.get((scope, ident))
        return None if held is None else sum(1 for key in held if key not in taken)

    return free("workspace", workspace_id), {
        ident: free("endpoint", ident) for ident in endpoint_ids
    }


def slots_give_back(held: list[str]) -> None:
    """Free the slots an attempt took (each only while it is still this attempt's: one that
    expired and was taken by another stays that other's)."""
    store = caches["default"]
    for entry in held:
        key, _, token = entry.partition("|")
        try:
            if not token or store.get(key) == token:
                store.delete(key)
        except Exception:
            logger.exception("Could not free the attempt's slot %s; it expires", key)
