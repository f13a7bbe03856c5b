"""The workspaces app's tasks: checking and importing a file uploaded on the Import page.

Acknowledged once they end: a task whose worker is lost is delivered again. Each runs only
for an upload still in its state (being checked, or confirmed and not yet imported), so a
second delivery after a run that ended changes nothing, and one after a run that stopped
does the work again (the import's stopped run wrote nothing)."""

from celery import shared_task

from .services.uploads import UPLOAD_CHECK_TASK, UPLOAD_IMPORT_TASK, upload_check, upload_import


@shared_task(name=UPLOAD_CHECK_TASK, acks_late=True)
def records_upload_check(upload_id: str) -> str:
    """Check an uploaded file's lines, writing no record; returns its state."""
    return upload_check(upload_id=upload_id)


@shared_task(name=UPLOAD_IMPORT_TASK, acks_late=True)
def records_upload_import(upload_id: str) -> str:
    """Import a confirmed upload, all of its records or none; returns its state."""
    return upload_import(upload_id=upload_id)
