"""The phases bench/webhooks.py times: the endpoint (signed deliveries posted to the served
project from client threads), the worker (one Celery worker applying what they queued),
or instead a profile of the batched apply, in this process.
"""

import cProfile
import http.client
import io
import json
import os
import pstats
import re
import statistics
import subprocess
import threading
import time
from collections import defaultdict
from collections.abc import Callable

from run import percentile
from webhooks_common import (
    BIN,
    FINAL,
    OUT,
    ROOT,
    Phase,
    group_cpu_seconds,
)

from config.queues import queue_names
from scripts.served import HOST, Server, port_free

# --- phase 1: the endpoint --------------------------------------------------------------------


def post(port: int, path: str, body: bytes, signed: Callable) -> tuple[float, int, bytes]:
    """One delivery, signed now (`signed(body)`: its signature headers); (milliseconds,
    status, body). A new connection each time, as the providers' deliveries come."""
    headers = {"Content-Type": "application/json", **signed(body)}
    began = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        answer = response.read()
    finally:
        conn.close()
    return (time.perf_counter() - began) * 1000, response.status, answer


def deliver_all(
    port: int, path: str, bodies: list[bytes], signed: Callable, threads: int, rate: float = 0
):
    """Post every body from `threads` client threads; (latencies in ms, failures, seconds).

    Without `rate`, each thread posts its next body as soon as the last is answered (the
    endpoint at its limit). With `rate`, body i is due i/rate seconds after the start, as
    deliveries arriving at that rate would be, and its latency counts from when it was due,
    so time spent waiting behind slower answers counts too."""
    latencies, failures = [], []
    lock = threading.Lock()
    queue = list(reversed(list(enumerate(bodies))))
    began = time.perf_counter()

    def work():
        while True:
            with lock:
                if not queue:
                    return
                index, body = queue.pop()
            due = began + index / rate if rate else None
            if due is not None and due > time.perf_counter():
                time.sleep(due - time.perf_counter())
            took, status, answer = post(port, path, body, signed)
            if due is not None:
                took = (time.perf_counter() - due) * 1000
            with lock:
                if status == 200 and json.loads(answer) == {"received": True}:
                    latencies.append(took)
                else:
                    failures.append((status, answer[:200]))

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return latencies, failures, time.perf_counter() - began


def endpoint_phase(args, env, run, bodies) -> dict:
    if not port_free(args.port):
        raise SystemExit(f"Port {args.port} on {HOST} is in use; pass --port.")
    path = f"/hooks/{run.key}/{run.connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    server = Server(
        env,
        port=args.port,
        workers=args.workers,
        log_path=OUT / f"gunicorn-{args.port}.log",
    )
    try:
        server.wait_ready(
            lambda: (
                post(
                    args.port,
                    f"/hooks/{run.key}/00000000-0000-0000-0000-000000000000",
                    b"{}",
                    run.headers,
                )[1]
                == 404
            )
        )
        _lat, failed, _s = deliver_all(args.port, path, warm, run.headers, args.concurrency)
        if failed:
            raise SystemExit(f"Warm-up deliveries refused: {failed[:3]}")
        cpu_before = group_cpu_seconds(server.proc.pid)
        with Phase(lambda: server.proc.pid) as phase:
            latencies, failures, seconds = deliver_all(
                args.port, path, timed, run.headers, args.concurrency, args.rate
            )
        server_cpu = group_cpu_seconds(server.proc.pid) - cpu_before
    finally:
        server.stop()
    if failures:
        print(f"  {len(failures)} deliveries not accepted, e.g. {failures[:3]}", flush=True)
    row = {
        "deliveries": len(timed),
        "warmup": len(warm),
        "accepted": len(latencies),
        "failed": len(failures),
        "seconds": round(seconds, 3),
        "per_second": len(latencies) / seconds if seconds else 0.0,
        "p50": statistics.median(latencies) if latencies else None,
        "p95": percentile(latencies, 0.95) if latencies else None,
        "p99": percentile(latencies, 0.99) if latencies else None,
        "max": max(latencies) if latencies else None,
        "client_threads": args.concurrency,
        "rate": args.rate,
        "gunicorn_workers": args.workers,
        "server_cpu_seconds": round(server_cpu, 2),
        **phase.machine(),
    }
    return row


# --- phase 2: the worker ----------------------------------------------------------------------


def events_done(connection_id, types: tuple | None = None) -> tuple[int, dict]:
    """Events of the connection (of these types) in a final state, and the count per state."""
    from django.db.models import Count

    from integrations.models import Event

    events = Event.objects.filter(connection_id=connection_id)
    if types is not None:
        events = events.filter(event_type__in=types)
    states = dict(events.values_list("state").annotate(n=Count("pk")).values_list("state", "n"))
    return sum(n for state, n in states.items() if state in FINAL), states


def worker_phase(args, env, run, total: int) -> dict:
    from django.db.models import Max, Min
    from django.utils import timezone

    from audit.models import AuditEvent

    connection = run.connection
    log = open(OUT / run.worker_log, "w")  # noqa: SIM115 - closed below
    samples = []  # (seconds since the worker started, events in a final state)
    # Outcomes audited before (a Zoom run's webinar and registrations) are not the worker's.
    started = timezone.now()
    with Phase() as phase:
        began = time.perf_counter()
        worker = subprocess.Popen(
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "--queues",
                ",".join(queue_names("celery")),
                "--loglevel",
                "WARNING",
                "--without-mingle",
                "--without-gossip",
            ],
            cwd=ROOT,
            env={**env, "CELERY_TASK_ALWAYS_EAGER": "false"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        cpu_before = 0.0
        try:
            while True:
                done, states = events_done(connection.pk, run.types)
                samples.append((time.perf_counter() - began, done))
                if done == 0:
                    # The worker's start (importing Django and the apps) is left out.
                    cpu_before = group_cpu_seconds(worker.pid)
                if done >= total or worker.poll() is not None:
                    break
                if time.perf_counter() - began > args.max_seconds:
                    print(f"  gave up after {args.max_seconds:g} s", flush=True)
                    break
                time.sleep(0.1)
            phase.extra_cpu = group_cpu_seconds(worker.pid)
            worker_cpu = phase.extra_cpu - cpu_before
        finally:
            if worker.poll() is None:
                os.killpg(worker.pid, 15)
                try:
                    worker.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, 9)
                    worker.wait()
            log.close()
    first = next(((t, n) for t, n in samples if n > 0), None)
    last_t, last_n = samples[-1]
    # The audit event of each outcome is stamped in its transaction: the span from the
    # first to the last is the apply alone, without the worker's start.
    span = AuditEvent.objects.filter(
        actor_kind="integration", actor_id=str(connection.pk), at__gte=started
    ).aggregate(first=Min("at"), last=Max("at"))
    audit_seconds = (
        (span["last"] - span["first"]).total_seconds() if span["first"] is not None else 0.0
    )
    row = {
        "events": total,
        "final": last_n,
        "states": states,
        "seconds_from_start": round(last_t, 3),
        "seconds_to_first": round(first[0], 3) if first else None,
        "per_second_from_start": last_n / last_t if last_t else 0.0,
        "per_second": (last_n - first[1]) / (last_t - first[0])
        if first and last_t > first[0]
        else 0.0,
        "per_second_audit_span": (last_n - 1) / audit_seconds if audit_seconds else 0.0,
        "worker_cpu_seconds": round(worker_cpu, 2),
        **phase.machine(),
    }
    return row


# --- or a profile of the batched apply, in-process -----------------------------------------------


_LITERALS = re.compile(r"'(?:[^']|'')*'|\b\d+\b")


def statement_shape(sql: str) -> str:
    """A statement without its values, so the same query of different events groups."""
    shape = _LITERALS.sub("?", sql)
    shape = re.sub(r"\(\?(?:, \?)+\)", "(?…)", shape)
    return shape if len(shape) <= 240 else shape[:237] + "…"


def profile_phase(args, connection) -> dict:
    from django.db import connection as db

    from integrations import services
    from integrations.models import Connection, Event

    pending = Event.objects.filter(connection=connection, state="received").count()
    profiled = min(args.profile, pending)
    sampled = min(args.sql_sample, pending - profiled)
    connection = Connection.objects.select_related("workspace").get(pk=connection.pk)

    def apply_batches(count: int) -> None:
        """As the worker's task does, in batches of BATCH_SIZE, the oldest first."""
        while count > 0:
            size = min(services.BATCH_SIZE, count)
            taken, _ = services.events_apply_batch(connection=connection, size=size, skipped=set())
            if not taken:
                return
            count -= taken

    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    apply_batches(profiled)
    profiler.disable()
    seconds = time.perf_counter() - began
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.dump_stats(str(OUT / "webhooks-apply.prof"))
    stats.sort_stats("cumulative").print_stats(35)
    stats.sort_stats("tottime").print_stats(20)
    shapes = defaultdict(lambda: [0, 0.0])
    statements = [0]

    def timed(execute, sql, params, many, context):
        # Django's own capture rounds each statement's time to the millisecond.
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            shape = shapes[statement_shape(sql % tuple("?" for _ in params or ()))]
            shape[0] += 1
            shape[1] += time.perf_counter() - began
            statements[0] += 1

    commit = db._commit

    def commit_timed():
        began = time.perf_counter()
        try:
            return commit()
        finally:
            shapes["COMMIT"][0] += 1
            shapes["COMMIT"][1] += time.perf_counter() - began

    db._commit = commit_timed
    sql_began = time.perf_counter()
    try:
        with db.execute_wrapper(timed):
            apply_batches(sampled)
    finally:
        db._commit = commit
    sql_wall = time.perf_counter() - sql_began
    ranked = sorted(shapes.items(), key=lambda item: -item[1][1])
    return {
        "events": profiled,
        "seconds": round(seconds, 3),
        "per_second": profiled / seconds if seconds else 0.0,
        "profile": text.getvalue(),
        "sql_events": sampled,
        "sql_wall_ms_per_event": sql_wall * 1000 / sampled if sampled else None,
        "queries_per_event": statements[0] / sampled if sampled else None,
        "sql": [
            {"statement": s, "count": n, "ms_per_event": t * 1000 / sampled} for s, (n, t) in ranked
        ]
        if sampled
        else [],
    }


def endpoint_profile(args, run, bodies) -> dict:
    """The endpoint's own work, in-process (Django's test client, no server): cProfile."""
    from django.test import Client

    client = Client(HTTP_HOST=HOST)
    path = f"/hooks/{run.key}/{run.connection.pk}"
    warm, timed = bodies[: args.warmup], bodies[args.warmup :]
    for body in warm:
        answer = client.post(path, body, content_type="application/json", headers=run.headers(body))
        if answer.status_code != 200:
            raise SystemExit(f"The endpoint answered {answer.status_code}: {answer.content[:300]}")
    signed = [(body, run.headers(body)) for body in timed]
    profiler = cProfile.Profile()
    began = time.perf_counter()
    profiler.enable()
    for body, headers in signed:
        client.post(path, body, content_type="application/json", headers=headers)
    profiler.disable()
    seconds = time.perf_counter() - began
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.dump_stats(str(OUT / "webhooks-endpoint.prof"))
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(20)
    return {"deliveries": len(signed), "seconds": round(seconds, 3), "profile": text.getvalue()}
