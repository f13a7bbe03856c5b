"""The workspaces app's task: importing a file confirmed on the Import page."""

from celery import shared_task

from .services.uploads import UPLOAD_IMPORT_TASK, upload_import


@shared_task(name=UPLOAD_IMPORT_TASK)
def records_upload_import(upload_id: str) -> str:
    """Import a confirmed upload, all of its records or none; returns its state."""
    return upload_import(upload_id=upload_id)
