"""Each request measured once: its line in the log and its samples in the metrics.

The line carries the route's template (never the path, which can hold a secret), the
method, the status, the duration, the workspace the route names (if any) and, through
core.logs, the request id. The metrics count the request by route template, method and
status, with its latency, database statements and database time.

Every label comes from a fixed set, whatever a client sends: the route is a template of
the URLconf or `unmatched`, and the method one of METHODS or `other` (a method is any
token a client makes up, and each new label value would be a new series kept for the
process's life).
"""

from __future__ import annotations

import logging
import time

from django.db import connection

from . import metrics

logger = logging.getLogger("service.request")


class _QueryCount:
    def __init__(self):
        self.count = 0
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.count += 1
            self.seconds += time.perf_counter() - began


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def method_of(request) -> str:
    """The request's method as labelled and logged: one of METHODS, else `other`."""
    return request.method if request.method in METHODS else "other"


def route_of(match) -> str:
    """The route's template of a request's resolver match (None: no route matched)."""
    return f"/{match.route}" if match is not None and match.route else "unmatched"


class ObserveMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        queries = _QueryCount()
        began = time.perf_counter()
        with connection.execute_wrapper(queries):
            response = self.get_response(request)
        duration = time.perf_counter() - began
        match = getattr(request, "resolver_match", None)
        route, method, status = route_of(match), method_of(request), response.status_code
        metrics.REQUESTS.labels(route, method, str(status)).inc()
        metrics.LATENCY.labels(route, method).observe(duration)
        metrics.DB_QUERIES.labels(route).observe(queries.count)
        metrics.DB_SECONDS.labels(route).observe(queries.seconds)
        workspace = getattr(request, "workspace_id", None) or (
            match.kwargs.get("workspace_id") if match else None
        )
        logger.info(
            "%s %s %s %.1f ms",
            method,
            route,
            status,
            duration * 1000,
            extra={
                "route": route,
                "method": method,
                "status": status,
                "duration_ms": round(duration * 1000, 1),
                "workspace_id": str(workspace or ""),
                "db_queries": queries.count,
            },
        )
        return response
