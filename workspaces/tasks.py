"""The workspaces app's tasks: checking and importing a file uploaded on the Import page."""

from celery import shared_task

from .services.uploads import UPLOAD_CHECK_TASK, UPLOAD_IMPORT_TASK, upload_check, upload_import


@shared_task(name=UPLOAD_CHECK_TASK)
def records_upload_check(upload_id: str) -> str:
    """Check an uploaded file's lines, writing no record; returns its state."""
    return upload_check(upload_id=upload_id)


@shared_task(name=UPLOAD_IMPORT_TASK)
def records_upload_import(upload_id: str) -> str:
    """Import a confirmed upload, all of its records or none; returns its state."""
    return upload_import(upload_id=upload_id)
