"""`/healthz` and `/readyz`, for a load balancer or an orchestrator (docs/operations.md).

`/healthz` answers 200 while the process runs, touching nothing else. `/readyz` answers
200 only when the database answers, every migration this code knows is applied, and the
broker and the cache answer; otherwise 503, naming the checks that failed. Neither needs
a token, and neither says which versions or hosts it talked to.

The middleware answers both before any other (it is first in MIDDLEWARE): a probe that
names the machine's address as its host is not refused by ALLOWED_HOSTS, makes no session
and is counted by no rate limit.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse

logger = logging.getLogger(__name__)

PATHS = ("/healthz", "/readyz")
# Once every migration is found applied, a process does not look again: a later
# deploy's migrations are applied by that deploy's processes, which check for themselves.
_migrated = False


def _database() -> None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")


def _migrations() -> None:
    global _migrated
    if _migrated:
        return
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        raise RuntimeError("unapplied migrations")
    _migrated = True


def _broker() -> None:
    if current_app.conf.task_always_eager:
        return  # Tasks run in the web process: there is no broker to reach.
    with current_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)


def _cache() -> None:
    cache.set("readyz", "1", 10)
    if cache.get("readyz") != "1":
        raise RuntimeError("the cache did not keep a value")


CHECKS = {"database": _database, "migrations": _migrations, "broker": _broker, "cache": _cache}


def readiness() -> dict[str, str]:
    """Each check's result, "ok" or "failed"; the migrations are not looked at when the
    database does not answer. What failed goes to the log, never into the answer."""
    results = {}
    for name, check in CHECKS.items():
        if name == "migrations" and results.get("database") == "failed":
            results[name] = "failed"
            continue
        try:
            check()
        except Exception as error:
            logger.warning("readiness check %s failed: %s", name, type(error).__name__)
            results[name] = "failed"
        else:
            results[name] = "ok"
    return results


def _answer(body: dict, status: int) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


class HealthMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path not in PATHS:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response = _answer({"status": "method_not_allowed"}, 405)
            response["Allow"] = "GET, HEAD"
            return response
        if request.path == "/healthz":
            return _answer({"status": "ok"}, 200)
        checks = readiness()
        failed = [name for name, result in checks.items() if result != "ok"]
        if failed:
            return _answer({"status": "unavailable", "failed": failed, "checks": checks}, 503)
        return _answer({"status": "ready", "checks": checks}, 200)
