"""The writer of the files uploaded on the Import page (RecordUpload) and of their import.

An upload is converted (a CSV, by workspaces.import_csv) and checked (records_check,
which writes nothing) when it arrives, and kept with its preview and errors; a person
confirms it, and the worker imports its lines with records_import, all of them or none.
Each step is one transaction with its audit event. While the worker imports, its
progress is in the cache (shared with the web processes), not in the database: the
import's own transaction holds its writes until the end.

Not named in the package's __init__: it imports the importer, which imports the package.
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from audit.services import Actor, audit_record
from core.tasks import task_send

from ..import_csv import COLUMNS, csv_to_lines
from ..importer import ImportLineError, line_parse, records_check, records_import
from ..models import RecordUpload, Workspace

logger = logging.getLogger(__name__)

UPLOAD_IMPORT_TASK = "workspaces.upload_import"
JSON_LINES = "jsonl"
KINDS = (JSON_LINES, *COLUMNS)
PREVIEW_ROWS = 10
ERRORS_SHOWN = 50
# How long the worker's progress stays readable (an import is done long before).
PROGRESS_SECONDS = 6 * 3600


class UploadRefused(Exception):
    """A file that is not one the page imports (not UTF-8 text, an unknown kind)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _error(error: ImportLineError) -> dict:
    return {"line": error.line, "column": error.field or "", "message": error.message}


def _jsonl_preview(lines: list[str]) -> dict:
    rows = []
    for number, raw in enumerate(lines, start=1):
        if len(rows) >= PREVIEW_ROWS:
            break
        if not raw.strip():
            continue
        try:
            line = line_parse(number, raw)
        except ImportLineError:
            rows.append({"line": number, "cells": ["", "", raw[:200]]})
            continue
        members = "; ".join(
            f"{name}: {value}" for name, value in line.data.items() if name not in {"type", "id"}
        )
        rows.append({"line": number, "cells": [line.type, line.id, members[:300]]})
    return {"columns": ["type", "id", "members"], "rows": rows}


def _read(content: bytes, file_name: str) -> str:
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadRefused(
            f"{file_name} is not UTF-8 text: save it from the spreadsheet as CSV UTF-8."
        ) from None


def upload_create(
    *, workspace: Workspace, user, file_name: str, kind: str, content: bytes, actor: Actor
) -> RecordUpload:
    """Keep an uploaded file: a CSV of one record type (`kind`) converted to the importer's
    lines, or JSON Lines (`kind` "jsonl"), checked line by line without writing a record.
    With errors it is kept as refused (its preview names them) and cannot be imported."""
    if kind not in KINDS:
        raise UploadRefused(f"{kind!r} is not a kind of file the import reads.")
    text = _read(content, file_name)
    errors = []
    if kind == JSON_LINES:
        lines = text.splitlines()
        preview = _jsonl_preview(lines)
        records = sum(1 for line in lines if line.strip())
    else:
        converted = csv_to_lines(text, record_type=kind, timezone=workspace.timezone)
        lines = converted.lines
        errors += converted.errors
        preview = {
            "columns": converted.columns,
            "rows": [
                {"line": number, "cells": cells} for number, cells in converted.rows[:PREVIEW_ROWS]
            ],
        }
        # Every row is a record, one that cannot be converted too.
        records = len(converted.rows)
    with transaction.atomic():
        if records and len(errors) < ERRORS_SHOWN:
            errors += records_check(
                workspace=workspace, lines=lines, actor=actor, limit=ERRORS_SHOWN - len(errors)
            )
        errors.sort(key=lambda error: error.line)
        if not records and not errors:
            errors.append(ImportLineError(1, None, "the file holds no record."))
        upload = RecordUpload(
            workspace=workspace,
            file_name=file_name[:200],
            kind=kind,
            lines="\n".join(lines),
            records=records,
            preview=preview,
            errors=[_error(error) for error in errors[:ERRORS_SHOWN]],
            state=RecordUpload.State.REFUSED if errors else RecordUpload.State.CHECKED,
            created_by=user,
        )
        upload.save(force_insert=True)
        audit_record(
            actor=actor,
            action="records_upload.created",
            target_type="record_upload",
            target_id=upload.pk,
            workspace=workspace,
            detail={
                "file_name": upload.file_name,
                "kind": kind,
                "records": records,
                "errors": len(upload.errors),
            },
        )
    return upload


def upload_confirm(*, upload: RecordUpload, user, actor: Actor) -> bool:
    """Queue a checked upload for the worker; False if it is not waiting to be confirmed
    (refused, or confirmed already: a second click changes nothing)."""
    with transaction.atomic():
        locked = (
            RecordUpload.objects.select_for_update()
            .filter(pk=upload.pk, workspace=upload.workspace, state=RecordUpload.State.CHECKED)
            .first()
        )
        if locked is None:
            return False
        locked.state = RecordUpload.State.QUEUED
        locked.confirmed_by = user
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["state", "confirmed_by", "confirmed_at"])
        audit_record(
            actor=actor,
            action="records_upload.confirmed",
            target_type="record_upload",
            target_id=locked.pk,
            workspace=locked.workspace,
            detail={"file_name": locked.file_name, "records": locked.records},
        )
        upload_id = str(locked.pk)
        transaction.on_commit(lambda: task_send(UPLOAD_IMPORT_TASK, args=[upload_id]))
    return True


def progress_key(upload_id) -> str:
    return f"upload-progress:{upload_id}"


def upload_progress(upload: RecordUpload) -> tuple[int, int]:
    """(done, total) of an upload the worker imports: (0, records) before it starts."""
    if upload.state == RecordUpload.State.IMPORTED:
        return upload.records, upload.records
    shown = cache.get(progress_key(upload.pk))
    if not shown:
        return 0, upload.records
    return shown[0], shown[1]


def _progress_writer(upload_id):
    shown = {"percent": -1}

    def write(done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        if percent != shown["percent"] or done == total:
            shown["percent"] = percent
            cache.set(progress_key(upload_id), (done, total), PROGRESS_SECONDS)

    return write


def _actor_of(upload: RecordUpload) -> Actor:
    if upload.confirmed_by is not None:
        return Actor.for_user(upload.confirmed_by)
    return Actor(kind="system", id="", label="import page")


def _failed(upload: RecordUpload, actor: Actor, failure: dict) -> None:
    with transaction.atomic():
        upload.state = RecordUpload.State.FAILED
        upload.failure = failure
        upload.finished_at = timezone.now()
        upload.save(update_fields=["state", "failure", "finished_at"])
        audit_record(
            actor=actor,
            action="records_upload.failed",
            target_type="record_upload",
            target_id=upload.pk,
            workspace=upload.workspace,
            detail={"file_name": upload.file_name, **failure},
        )


def upload_import(*, upload_id) -> str:
    """Import a confirmed upload's lines (the worker's task): every record and the
    upload's state with its audit event in one transaction, or, when a line is refused,
    nothing of the file and the upload failed naming the line. Returns the state."""
    try:
        pk = uuid.UUID(str(upload_id))
    except ValueError:
        return "unknown"
    upload = RecordUpload.objects.select_related("workspace", "confirmed_by").filter(pk=pk).first()
    if upload is None or upload.state != RecordUpload.State.QUEUED:
        # Gone, or imported already (a message delivered twice).
        return upload.state if upload is not None else "unknown"
    actor = _actor_of(upload)
    try:
        with transaction.atomic():
            result = records_import(
                workspace=upload.workspace,
                lines=upload.lines.splitlines(),
                actor=actor,
                source=f"upload {upload.file_name}",
                progress=_progress_writer(upload.pk),
            )
            upload.state = RecordUpload.State.IMPORTED
            upload.counts = result.counts
            upload.finished_at = timezone.now()
            upload.save(update_fields=["state", "counts", "finished_at"])
            audit_record(
                actor=actor,
                action="records_upload.imported",
                target_type="record_upload",
                target_id=upload.pk,
                workspace=upload.workspace,
                detail={
                    "file_name": upload.file_name,
                    "records": result.total,
                    "counts": result.counts,
                },
            )
    except ImportLineError as error:
        upload.refresh_from_db()
        _failed(upload, actor, _error(error))
    except Exception:
        logger.exception("The import of upload %s stopped", upload.pk)
        upload.refresh_from_db()
        _failed(
            upload,
            actor,
            {"line": 0, "column": "", "message": "the import stopped on an error of the service."},
        )
        raise
    return upload.state
