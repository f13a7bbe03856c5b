"""`make worker`: one pool of Celery worker processes per kind of task, each taking only
the queue of its kind (config/queues.py), and the beat.

    python -m config.pools           start them; SIGTERM or Ctrl-C stops them all
    python -m config.pools --print   print the commands instead

WORKER_CONCURRENCY_<KIND> (MAIL, APPLIES, UPLOADS, PROVIDERS, DELIVERIES, SWEEPS, ROLLUPS)
sets how many tasks of the kind run at once (a pool of one runs them in its own process);
WORKER_NICE_<KIND> the CPU priority its processes start at (`nice`; uploads 10, others 0);
WORKER_KINDS
(`mail,deliveries`) starts only those pools, for a machine given to some kinds;
WORKER_BEAT=false leaves the beat out (a deployment runs exactly one). The sweeps' pool
also takes the default queue (CELERY_QUEUE itself), where an older release queued every
task. When any process ends the others are stopped and this exits with its status, so the
supervisor that restarts it (systemd, the container's runtime) restarts them together.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from config.queues import (
    DELIVERIES,
    KINDS,
    PROVIDERS,
    SWEEPS,
    UPLOADS,
    prefix_from,
    queue_name,
)

# The others: 1. Uploads run two at once and a workspace one at a time
# (workspaces/services/uploads.py), so one workspace's large file never holds up another's.
CONCURRENCY = {DELIVERIES: 24, PROVIDERS: 2, UPLOADS: 2}
# Kinds whose tasks mostly wait on the network run in threads of one process: an attempt
# to an endpoint that answers after 9 s holds a thread, not a process, so the pool can hold
# more attempts at once than the workspace cap (WEBHOOK_WORKSPACE_CONCURRENCY) and one
# workspace's slow endpoints leave threads free for every other workspace.
THREADED = {DELIVERIES}
# Kinds whose tasks are long runs of CPU (a file's check and import) start at a lower CPU
# priority (nice 10): on a machine they share with the web processes, a request is served
# first and the file takes the CPU left. WORKER_NICE_<KIND> sets it (0: as the others).
NICENESS = {UPLOADS: 10}
CELERY = str(Path(sys.executable).with_name("celery"))


def _concurrency(kind: str, environ) -> int:
    value = environ.get(f"WORKER_CONCURRENCY_{kind.upper()}", "")
    return max(1, int(value)) if value.strip() else CONCURRENCY.get(kind, 1)


def _niceness(kind: str, environ) -> int:
    value = environ.get(f"WORKER_NICE_{kind.upper()}", "")
    return min(19, max(0, int(value))) if value.strip() else NICENESS.get(kind, 0)


def commands(environ=os.environ) -> list[list[str]]:
    """The processes to start: a worker per kind, then the beat."""
    prefix = prefix_from(environ)
    chosen = [k.strip() for k in environ.get("WORKER_KINDS", "").split(",") if k.strip()]
    unknown = sorted(set(chosen) - set(KINDS))
    if unknown:
        raise SystemExit(
            f"WORKER_KINDS: unknown kind(s) {', '.join(unknown)}; the kinds are {', '.join(KINDS)}"
        )
    made = []
    for kind in KINDS:
        if chosen and kind not in chosen:
            continue
        queues = [queue_name(prefix, kind)] + ([prefix] if kind == SWEEPS else [])
        concurrency = _concurrency(kind, environ)
        if concurrency == 1:
            pool = ["--pool", "solo"]
        elif kind in THREADED:
            pool = ["--pool", "threads", "--concurrency", str(concurrency)]
        else:
            pool = ["--concurrency", str(concurrency)]
        niceness = _niceness(kind, environ)
        made.append(
            [
                *(["nice", "-n", str(niceness)] if niceness else []),
                CELERY,
                "-A",
                "config",
                "worker",
                "--queues",
                ",".join(queues),
                "--hostname",
                f"{kind}@%h",
                *pool,
                "--loglevel",
                "INFO",
            ]
        )
    if environ.get("WORKER_BEAT", "true").lower() not in ("0", "false", "no", "off"):
        made.append([CELERY, "-A", "config", "beat", "--loglevel", "INFO"])
    return made


def main(argv: list[str]) -> int:
    todo = commands()
    if "--print" in argv:
        for command in todo:
            print(shlex.join(command))
        return 0
    processes = [subprocess.Popen(command) for command in todo]

    def stop(_signum=None, _frame=None):
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while all(process.poll() is None for process in processes):
        time.sleep(0.5)
    ended = next(process for process in processes if process.poll() is not None)
    stop()
    for process in processes:
        process.wait()
    return ended.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
