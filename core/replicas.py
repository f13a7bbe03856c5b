"""Reads from PostgreSQL streaming replicas (DATABASE_REPLICA_URL, docs/operations.md).

A request may read from a replica only where its view allows it, once its access checks
are done: the figures API (and so the MCP tools, which call it) and the dashboard pages.
Everything else, the token and session lookups included, reads the primary, and so does
the rest of a request once it writes anything after its access checks (it reads its own
writes).

A replica is used while it answers and lags at most REPLICA_MAX_LAG seconds; each process
asks it at most every REPLICA_CHECK_SECONDS (one cheap query), not on every request. One
that fails or lags is skipped until a later check finds it well; with none usable, reads
go to the primary. A replica that breaks during a figures request is marked down and the
request is read again from the primary.
"""

from __future__ import annotations

import logging
import random
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections

from . import metrics

logger = logging.getLogger(__name__)

# Lag 0 when the replica has replayed all it received; otherwise the age of the last
# transaction it replayed. A database that is not in recovery (a promoted replica) lags 0.
LAG_SQL = """
SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0
    WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
    ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
END
"""


@dataclass
class Scope:
    """One request's (or one view's) say on where its reads go."""

    reads: bool = False  # the view allowed reads from a replica
    wrote: bool = False  # something was written: read the primary from now on
    replica: str | None = None  # the replica this scope read from, if any
    primary_only: bool = False  # a replica failed during this request


_scope: ContextVar[Scope | None] = ContextVar("replica_scope", default=None)
# alias -> (monotonic time of the check, usable)
_health: dict[str, tuple[float, bool]] = {}


@contextmanager
def replica_scope(*, primary_only: bool = False):
    """Open a scope where a view may allow replica reads (replica_reads_allow)."""
    token = _scope.set(Scope(primary_only=primary_only))
    try:
        yield _scope.get()
    finally:
        _scope.reset(token)


def replica_reads_allow() -> None:
    """The current view's access checks are done: its reads may come from a replica."""
    scope = _scope.get()
    if scope is not None and not scope.primary_only:
        scope.reads = True


def replica_mark_down(alias: str) -> None:
    _health[alias] = (time.monotonic(), False)


def _check(alias: str) -> bool:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(LAG_SQL)
            lag = float(cursor.fetchone()[0])
    except DatabaseError as error:
        logger.warning("replica %s skipped: %s", alias, type(error).__name__)
        connections[alias].close()
        return False
    if lag > settings.REPLICA_MAX_LAG:
        logger.warning("replica %s skipped: %.1f s behind", alias, lag)
        return False
    return True


def replica_usable(alias: str) -> bool:
    checked = _health.get(alias)
    now = time.monotonic()
    if checked is not None and now - checked[0] < settings.REPLICA_CHECK_SECONDS:
        return checked[1]
    usable = _check(alias)
    _health[alias] = (now, usable)
    return usable


class ReplicaRouter:
    """Django's database router for DATABASE_REPLICA_URL."""

    def db_for_read(self, model, **hints):
        scope = _scope.get()
        if scope is None or not scope.reads or scope.wrote:
            return None
        if scope.replica is None:
            replicas = list(settings.DATABASE_REPLICAS)
            random.shuffle(replicas)
            scope.replica = next((alias for alias in replicas if replica_usable(alias)), "")
        metrics.DB_READS.labels("replica" if scope.replica else "primary").inc()
        return scope.replica or None

    def db_for_write(self, model, **hints):
        scope = _scope.get()
        if scope is not None and scope.reads:
            # From here on the request reads its own writes. (A write before the view's
            # access checks, the token's last-use stamp, touches nothing a view reads.)
            scope.wrote = True
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"


class ReplicaScopeMiddleware:
    """Each request's scope: reads go to the primary unless its view allows a replica."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with replica_scope():
            return self.get_response(request)
