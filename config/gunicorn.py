"""gunicorn's settings file for `make serve` (`--config python:config.gunicorn`).

With PROMETHEUS_MULTIPROC_DIR set, each worker writes its metrics' samples into that
directory: the directory is emptied when gunicorn starts (no sample of an earlier run is
counted) and a worker that exits is marked dead, so its live gauges stop counting.
"""

import os
import shutil

from prometheus_client import multiprocess


def on_starting(server):
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
