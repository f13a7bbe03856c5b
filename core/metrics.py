"""The service's Prometheus metrics and `GET /metrics` (docs/operations.md).

Built on `prometheus_client`. With PROMETHEUS_MULTIPROC_DIR set (as `make serve` and
`make worker` do) every gunicorn worker and the Celery worker write their samples into
that directory and `/metrics` adds them up, so a scrape sees the whole machine whichever
worker answers it. `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`; with
no token, a wrong one, or METRICS_TOKEN unset, it is the plain 404.
"""

from __future__ import annotations

import hmac
import logging
import os
import time

import redis
from celery.signals import task_postrun, task_prerun, worker_process_shutdown
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.http import Http404, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)

# Where every process writes its samples (multiprocess mode); empty: this process only.
MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROC_DIR:
    # Each process writes its samples' files there from its first metric on.
    os.makedirs(MULTIPROC_DIR, exist_ok=True)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
QUERY_BUCKETS = (0, 1, 2, 5, 10, 20, 50, 100, 200)

REQUESTS = Counter(
    "http_requests_total",
    "Requests answered, by route template, method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time to answer a request, by route template and method.",
    ["route", "method"],
    buckets=LATENCY_BUCKETS,
)
DB_QUERIES = Histogram(
    "http_request_db_queries",
    "Database statements run while answering one request.",
    ["route"],
    buckets=QUERY_BUCKETS,
)
DB_SECONDS = Histogram(
    "http_request_db_seconds",
    "Time spent in the database while answering one request.",
    ["route"],
    buckets=LATENCY_BUCKETS,
)
WEBHOOKS = Counter(
    "webhook_deliveries_total",
    "Provider webhook deliveries and events by outcome: received, duplicate and refused at "
    "the endpoint; applied, held and ignored by the worker.",
    ["provider", "outcome"],
)
OUTBOUND = Counter(
    "webhook_outbound_attempts_total",
    "Attempts to deliver an event to an integrator's endpoint, by outcome.",
    ["outcome"],
)
OUTBOUND_DEFERRED = Counter(
    "webhook_outbound_deferred_total",
    "Attempts put off because their endpoint or workspace had as many under way as its cap.",
)
TASKS = Counter(
    "celery_tasks_total",
    "Celery task runs by task name and state (succeeded, failed, retried).",
    ["task", "state"],
)
TASK_SECONDS = Histogram(
    "celery_task_duration_seconds",
    "Time a Celery task ran, by task name.",
    ["task"],
    buckets=(*LATENCY_BUCKETS, 30.0, 60.0, 300.0),
)
RATE_LIMITED = Counter(
    "rate_limit_refusals_total", "Requests refused by a rate limit, by policy.", ["policy"]
)
RATE_LIMIT_UNAVAILABLE = Counter(
    "rate_limit_unavailable_total",
    "Requests let through without counting because the rate-limit store (the cache) failed.",
)
DB_READS = Counter(
    "db_replica_reads_total",
    "Reads a view allowed on a replica, by where they went: replica, or primary when no "
    "replica was usable.",
    ["target"],
)
SIGN_IN_FAILURES = Counter("sign_in_failures_total", "Refused sign-ins (wrong credentials).")


class _QueueLength:
    """The broker's queue lengths, read at scrape time (nothing to add up across workers)."""

    def collect(self):
        family = GaugeMetricFamily(
            "celery_queue_length", "Tasks waiting in the broker, by queue.", labels=["queue"]
        )
        url = settings.CELERY_BROKER_URL
        if url.startswith(("redis://", "rediss://")):
            try:
                client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
                for queue in settings.METRICS_QUEUES:
                    family.add_metric([queue], client.llen(queue))
            except redis.RedisError as error:
                logger.warning("queue length not read: %s", type(error).__name__)
        yield family


QUEUE_LENGTH = _QueueLength()
if not MULTIPROC_DIR:
    REGISTRY.register(QUEUE_LENGTH)


def _registry():
    """This process's metrics, or (multiprocess mode) every process's, added up."""
    if not MULTIPROC_DIR:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(QUEUE_LENGTH)
    return registry


def metrics_scrape(request) -> bool:
    """Whether the request carries METRICS_TOKEN (Prometheus' scrape): such a request is not
    counted against the anonymous request rate (core.pages); any other is."""
    expected = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(expected) and hmac.compare_digest(given.encode(), f"Bearer {expected}".encode())


def metrics_view(request):
    if not metrics_scrape(request):
        raise Http404("No such page.")
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)


def webhook_outcomes_count(provider: str, outcomes) -> None:
    """Count settled events ({state: how many}) of a provider."""
    for state, count in outcomes.items():
        if count > 0:
            WEBHOOKS.labels(provider, str(state)).inc(count)


# --- Celery's signals --------------------------------------------------------------------

_started: dict[str, float] = {}


def _task_prerun(task_id=None, **_kwargs):
    _started[task_id] = time.perf_counter()


def _task_postrun(task_id=None, task=None, state=None, **_kwargs):
    began = _started.pop(task_id, None)
    name = getattr(task, "name", "unknown")
    if began is not None:
        TASK_SECONDS.labels(name).observe(time.perf_counter() - began)
    outcome = {"SUCCESS": "succeeded", "FAILURE": "failed", "RETRY": "retried"}.get(state)
    if outcome:
        TASKS.labels(name, outcome).inc()


def _worker_process_exit(pid=None, **_kwargs):
    if MULTIPROC_DIR:
        multiprocess.mark_process_dead(pid or os.getpid())


def _sign_in_failed(**_kwargs):
    SIGN_IN_FAILURES.inc()


def connect_signals() -> None:
    task_prerun.connect(_task_prerun, weak=False)
    task_postrun.connect(_task_postrun, weak=False)
    worker_process_shutdown.connect(_worker_process_exit, weak=False)
    user_login_failed.connect(_sign_in_failed, weak=False)
