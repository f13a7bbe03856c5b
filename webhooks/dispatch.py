"""How an event recorded by a writer reaches the endpoints that want it.

The writer's transaction pays for the event's insert only: whether any endpoint of the
workspace wants the type is read from the cache (kept per workspace under the version of
its endpoints, which every endpoint's write renews), and the hand-over to the worker happens after the commit. An event
whose hand-over is lost (a broker down at that moment) stays `dispatched = False` and the
beat hands it over again (tasks.deliveries_sweep).
"""

from __future__ import annotations

import contextlib
import logging
import secrets

from django.core.cache import cache
from django.db import transaction

from core.tasks import task_send

from .models import WebhookEndpoint

logger = logging.getLogger(__name__)

CACHE_SECONDS = 300
# How long a workspace's version of its endpoints is kept; one that expired is replaced
# by a new random one, which no answer cached before can carry.
VERSION_SECONDS = 86_400
_ALL = "*"


def _cache_keys(workspace_id) -> tuple[str, str]:
    """The keys of the workspace's endpoints' version and of the wanted types."""
    return f"webhooks:wants-version:{workspace_id}", f"webhooks:wants:{workspace_id}"


def _version_new() -> str:
    return secrets.token_hex(8)


def wants_forget(workspace_id) -> None:
    """An endpoint of the workspace was written: give its endpoints a new version now and
    again once the write commits, so that no answer read before the commit is used after
    it (see _wanted_types)."""
    version_key, _ = _cache_keys(workspace_id)
    _version_bump(version_key)
    transaction.on_commit(lambda: _version_bump(version_key), robust=True)


def _version_bump(version_key: str) -> None:
    try:
        cache.set(version_key, _version_new(), VERSION_SECONDS)
    except Exception:  # the cache is down: the cached answers expire on their own
        logger.warning("Could not renew the version of the webhook endpoints %s", version_key)


def _wanted_types(workspace) -> list[str]:
    """The types the workspace's enabled endpoints want: ["*"] for every type, [] for
    none.

    The answer is cached with the version of the workspace's endpoints it was read under,
    and used only while that version is current. A plain cached answer that an endpoint's
    write deletes is not enough: a reader that missed the cache reads the endpoints, an
    endpoint is created and commits, its write deletes the cached answer, and only then
    does the reader store what it read, without the new endpoint. Every event recorded in
    the next five minutes would then be marked dispatched, with no delivery ever made for
    the new endpoint. Here that late answer is stored under the version the reader began
    with, which the write replaced (before its commit and again right after it): the next
    reader finds the version changed and reads the endpoints again. Once an endpoint's
    write has returned, every event recorded is checked against types that include it.
    """
    version_key, wants_key = _cache_keys(workspace.pk)
    try:
        cached = cache.get_many([version_key, wants_key])
    except Exception:
        cached = None
    version = cached.get(version_key) if cached is not None else None
    if cached is not None and version is None:
        # No version yet (or it expired): start one; another reader may have just done so.
        with contextlib.suppress(Exception):
            cache.add(version_key, _version_new(), VERSION_SECONDS)
            version = cache.get(version_key)
    entry = cached.get(wants_key) if cached is not None else None
    if version is not None and isinstance(entry, dict) and entry.get("version") == version:
        return entry["types"]
    wants = set()
    for types in WebhookEndpoint.objects.filter(
        workspace_id=workspace.pk, enabled=True
    ).values_list("event_types", flat=True):
        wants |= set(types) if types else {_ALL}
    wants = sorted(wants)
    if version is not None:
        with contextlib.suppress(Exception):  # the cache is down: read again next time
            cache.set(wants_key, {"version": version, "types": wants}, CACHE_SECONDS)
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
