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


# With LOG_FORMAT=json, gunicorn's and uvicorn's own lines (a worker's start, an exception
# outside Django) are JSON objects too, with the service's redaction.
if os.environ.get("LOG_FORMAT", "").strip().lower() == "json":
    _handler = {
        "class": "logging.StreamHandler",
        "formatter": "json",
        "filters": ["redact_secrets"],
        "stream": "ext://sys.stderr",
    }
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "core.logs.json_formatter"}},
        "filters": {"redact_secrets": {"()": "config.log_filters.RedactSecrets"}},
        "handlers": {"json": _handler},
        "root": {"level": "INFO", "handlers": ["json"]},
        "loggers": {
            name: {"handlers": ["json"], "level": "INFO", "propagate": False}
            for name in ("gunicorn.error", "uvicorn.error", "uvicorn.asgi")
        },
    }
