import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Celery's Django fix-up closes the database connections before and after every task unless
# told how many tasks may share one, and a new PostgreSQL connection costs a task more than
# most of its work. The worker keeps its connections as a web process does instead: around
# each task, Django's own rule closes one that is older than CONN_MAX_AGE or broke, and the
# next use of a kept one checks it first (CONN_HEALTH_CHECKS).
app.conf.update(CELERY_DB_REUSE_MAX=1_000_000_000)


@task_prerun.connect
@task_postrun.connect
def _database_connections_refresh(sender=None, **_kwargs) -> None:
    # A task run in the web process (eager) is inside the request, and maybe its transaction.
    if sender is None or getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections  # noqa: PLC0415 (Django loads first)

    close_old_connections()
