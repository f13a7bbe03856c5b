"""How an event recorded by a writer reaches the endpoints that want it.

The writer's transaction pays for the event's insert only: whether any endpoint of the
workspace wants the type is read from the cache (kept per workspace, dropped whenever an
endpoint is written), and the hand-over to the worker happens after the commit. An event
whose hand-over is lost (a broker down at that moment) stays `dispatched = False` and the
beat hands it over again (tasks.deliveries_sweep).
"""

from __future__ import annotations

import contextlib
import logging

from django.core.cache import cache
from django.db import transaction

from core.tasks import task_send

from .models import WebhookEndpoint

logger = logging.getLogger(__name__)

CACHE_SECONDS = 300
_ALL = "*"


def _cache_key(workspace_id) -> str:
    return f"webhooks:wants:{workspace_id}"


def wants_forget(workspace_id) -> None:
    """An endpoint of the workspace was written: read its endpoints again, now and once
    the write commits (a write reading the cache in between cannot keep the old answer)."""
    key = _cache_key(workspace_id)
    _cache_delete(key)
    transaction.on_commit(lambda: _cache_delete(key), robust=True)


def _cache_delete(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:  # the cache is down: its entries expire on their own
        logger.warning("Could not drop the cached webhook endpoints %s", key)


def _wanted_types(workspace) -> list[str]:
    """The types the workspace's enabled endpoints want: ["*"] for every type, [] for
    none."""
    key = _cache_key(workspace.pk)
    try:
        wants = cache.get(key)
    except Exception:
        wants = None
    if wants is None:
        wants = set()
        for types in WebhookEndpoint.objects.filter(
            workspace_id=workspace.pk, enabled=True
        ).values_list("event_types", flat=True):
            wants |= set(types) if types else {_ALL}
        wants = sorted(wants)
        with contextlib.suppress(Exception):  # the cache is down: read again next time
            cache.set(key, wants, CACHE_SECONDS)
    return wants


class _Dispatcher:
    def wanted(self, workspace, type: str) -> bool:
        wants = _wanted_types(workspace)
        return _ALL in wants or type in wants

    def dispatch(self, event) -> None:
        seq = event.seq
        transaction.on_commit(lambda: _hand_over(seq), robust=True)


def _hand_over(seq: int) -> None:
    try:
        task_send("webhooks.deliveries_make", args=[seq])
    except Exception:
        # The beat hands the event over again (it is still `dispatched = False`).
        logger.warning("Could not queue the deliveries of event %s; the beat will", seq)


DISPATCHER = _Dispatcher()
