"""The writer of the files uploaded on the Import page (RecordUpload) and of their import.

An upload is converted when it arrives (a CSV, by workspaces.import_csv) and kept with
its first rows; the worker checks its lines (records_check, which writes no record) and
keeps what the check found; a person confirms it, and the worker imports its lines with
records_import, all of them or none. Each step that writes is one transaction with its
audit event. While the worker checks or imports, its progress is in the cache (shared
with the web processes), not in the database: the import's own transaction holds its
writes until the end.

Not named in the package's __init__: it imports the importer, which imports the package.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from audit.services import SYSTEM, Actor, audit_record
from core.ids import parse_uuid
from core.tasks import task_send

from ..import_csv import COLUMNS, csv_to_lines
from ..importer import ImportLineError, line_parse, records_check, records_import
from ..models import Member, RecordUpload, Workspace

logger = logging.getLogger(__name__)

UPLOAD_CHECK_TASK = "workspaces.upload_check"
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
    """The file's text: UTF-8, with no NUL character (no database stores one; a line that
    spells one as JSON's \u0000 is refused by the importer, naming it)."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadRefused(
            f"{file_name} is not UTF-8 text: save it from the spreadsheet as CSV UTF-8."
        ) from None
    at = text.find("\x00")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        raise UploadRefused(
            f"{file_name} holds a NUL character on line {line}, which is not text: remove it "
            "and upload the file again."
        )
    return text


def _converted(workspace: Workspace, kind: str, text: str):
    """(lines, records, preview, errors) of a file: a CSV's rows are its records, a row
    that cannot be converted too; a JSON Lines file's its non-empty lines."""
    if kind == JSON_LINES:
        lines = text.splitlines()
        return lines, sum(1 for line in lines if line.strip()), _jsonl_preview(lines), []
    converted = csv_to_lines(text, record_type=kind, timezone=workspace.timezone)
    preview = {
        "columns": converted.columns,
        "rows": [
            {"line": number, "cells": cells} for number, cells in converted.rows[:PREVIEW_ROWS]
        ],
    }
    return converted.lines, len(converted.rows), preview, list(converted.errors)


def upload_create(
    *, workspace: Workspace, user, file_name: str, kind: str, content: bytes, actor: Actor
) -> RecordUpload:
    """Keep an uploaded file: a CSV of one record type (`kind`) converted to the importer's
    lines, or JSON Lines (`kind` "jsonl"), with its first rows and the cells the converter
    refused; the worker then checks its lines (upload_check). A file with no record, or
    with more errors than are shown, is refused at once."""
    if kind not in KINDS:
        raise UploadRefused(f"{kind!r} is not a kind of file the import reads.")
    lines, records, preview, errors = _converted(workspace, kind, _read(content, file_name))
    if not records and not errors:
        errors.append(ImportLineError(1, None, "the file holds no record."))
    checking = bool(records) and len(errors) < ERRORS_SHOWN
    with transaction.atomic():
        upload = RecordUpload(
            workspace=workspace,
            file_name=file_name[:200],
            kind=kind,
            lines="\n".join(lines),
            records=records,
            preview=preview,
            errors=[_error(error) for error in errors[:ERRORS_SHOWN]],
            state=RecordUpload.State.CHECKING if checking else RecordUpload.State.REFUSED,
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
        if checking:
            upload_id = str(upload.pk)
            transaction.on_commit(lambda: task_send(UPLOAD_CHECK_TASK, args=[upload_id]))
    return upload


def _pending(upload_id, state: str) -> RecordUpload | None:
    pk = parse_uuid(upload_id)
    if pk is None:
        return None
    return (
        RecordUpload.objects.select_related("workspace", "created_by", "confirmed_by")
        .filter(pk=pk, state=state)
        .first()
    )


def _acting_role(upload: RecordUpload, *people) -> str:
    """The role the import of an upload acts with: each person who brought it (who uploaded
    it, who confirmed it) as they are in the workspace now, the least of them; "" when one
    of them is no longer an active owner or admin there."""
    roles = set()
    for user in people:
        member = (
            Member.objects.filter(workspace=upload.workspace, user=user, is_active=True).first()
            if user is not None
            else None
        )
        roles.add(member.role if member is not None else "")
    if roles == {Member.Role.OWNER}:
        return Member.Role.OWNER
    if roles <= Member.ADMIN_ROLES:
        return Member.Role.ADMIN
    return ""


def upload_check(*, upload_id) -> str:
    """Check an upload's lines as the import would write them, writing no record (the
    worker's task), and keep what the check found: checked, or refused with every error
    by line. Returns the state ("unknown" for an upload not waiting for its check)."""
    upload = _pending(upload_id, RecordUpload.State.CHECKING)
    if upload is None:
        # Gone, or checked already (a message delivered twice).
        return "unknown"
    actor = Actor.for_user(upload.created_by) if upload.created_by is not None else SYSTEM
    found = records_check(
        workspace=upload.workspace,
        lines=upload.lines.splitlines(),
        actor=actor,
        by_role=_acting_role(upload, upload.created_by),
        limit=ERRORS_SHOWN - len(upload.errors),
        progress=_progress_writer(upload.pk, RecordUpload.State.CHECKING),
    )
    errors = sorted(
        upload.errors + [_error(error) for error in found], key=lambda error: error["line"]
    )
    with transaction.atomic():
        locked = (
            RecordUpload.objects.select_for_update()
            .filter(pk=upload.pk, state=RecordUpload.State.CHECKING)
            .first()
        )
        if locked is None:
            return "unknown"
        locked.errors = errors
        locked.state = RecordUpload.State.REFUSED if errors else RecordUpload.State.CHECKED
        locked.save(update_fields=["errors", "state"])
        audit_record(
            actor=actor,
            action="records_upload.checked",
            target_type="record_upload",
            target_id=locked.pk,
            workspace=locked.workspace,
            detail={
                "file_name": locked.file_name,
                "records": locked.records,
                "errors": len(errors),
            },
        )
    return locked.state


def upload_confirm(*, upload: RecordUpload, user, actor: Actor) -> bool:
    """Queue a checked upload for the worker; False if it is not waiting to be confirmed
    (being checked, refused, or confirmed already: a second click changes nothing)."""
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


def progress_key(upload_id, state: str) -> str:
    """The cache key of the worker's progress in checking or importing an upload."""
    return f"upload-progress:{upload_id}:{state}"


def upload_progress(upload: RecordUpload) -> tuple[int, int]:
    """(done, total) of the worker's check or import of an upload: (0, records) before it
    starts, (records, records) once imported."""
    if upload.state == RecordUpload.State.IMPORTED:
        return upload.records, upload.records
    if upload.state not in {RecordUpload.State.CHECKING, RecordUpload.State.QUEUED}:
        return 0, upload.records
    shown = cache.get(progress_key(upload.pk, upload.state))
    if not shown:
        return 0, upload.records
    return shown[0], shown[1]


def _progress_writer(upload_id, state: str):
    shown = {"percent": -1}

    def write(done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        if percent != shown["percent"] or done == total:
            shown["percent"] = percent
            cache.set(progress_key(upload_id, state), (done, total), PROGRESS_SECONDS)

    return write


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
    nothing of the file and the upload failed naming the line. Returns the state
    ("unknown" for an upload not waiting to be imported)."""
    upload = _pending(upload_id, RecordUpload.State.QUEUED)
    if upload is None:
        # Gone, or imported already (a message delivered twice).
        return "unknown"
    actor = Actor.for_user(upload.confirmed_by) if upload.confirmed_by is not None else SYSTEM
    try:
        with transaction.atomic():
            result = records_import(
                workspace=upload.workspace,
                lines=upload.lines.splitlines(),
                actor=actor,
                by_role=_acting_role(upload, upload.created_by, upload.confirmed_by),
                source=f"upload {upload.file_name}",
                progress=_progress_writer(upload.pk, RecordUpload.State.QUEUED),
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
