"""The writer of the files uploaded on the Import page (RecordUpload) and of their import.

An upload is kept as it arrives, read as UTF-8 and within its limits (UPLOAD_MAX_LINES);
nothing else of it is read in the request. The worker converts it (a CSV, by
workspaces.import_csv) and keeps its first rows, checks its lines (records_check, which
writes no record) and keeps what the check found; a person confirms it, and the worker
imports its lines with records_import, all of them or none. Each step that writes is one
transaction with its audit event. While the worker checks or imports, its progress is in
the cache (shared with the web processes), not in the database: the import's own
transaction holds its writes until the end.

Uploads have a queue and a pool of their own (config/queues.py), two at a time, and a
workspace's run one at a time (`_in_turn`): a task whose workspace is already running one
waits for its turn, sent again a few seconds later, so one workspace's large file never
holds up another workspace's. The person who uploaded a file, or an owner, may cancel it
while it is checked, waits for confirmation or is imported: the worker stops at its next
progress mark, and an import cancelled meanwhile writes nothing (its last write checks the
state it began in).

Not named in the package's __init__: it imports the importer, which imports the package.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from audit.services import SYSTEM, Actor, audit_record
from core.ids import parse_uuid
from core.tasks import task_send, tasks_eager

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


class UploadCancelled(Exception):
    """A person cancelled the upload while the worker read it."""


# How long a workspace's turn is held without news from its worker (renewed at every
# progress mark): a worker lost mid-file gives the turn back after this.
TURN_SECONDS = 120
# How long a task whose workspace is running another upload waits before it asks again.
TURN_WAIT_SECONDS = 5


def _turn_key(workspace_id) -> str:
    return f"upload-turn:{workspace_id}"


def _turn_take(upload: RecordUpload) -> bool:
    """The workspace's turn, for this upload: taken when free, or already its own (the
    same task delivered again)."""
    key, mine = _turn_key(upload.workspace_id), str(upload.pk)
    if cache.add(key, mine, TURN_SECONDS):
        return True
    # Run where they are sent (no worker), tasks cannot wait for a turn: nothing else runs.
    return cache.get(key) == mine or tasks_eager()


def _turn_give_back(upload: RecordUpload) -> None:
    key = _turn_key(upload.workspace_id)
    if cache.get(key) == str(upload.pk):
        cache.delete(key)


def _wait_for_turn(task: str, upload: RecordUpload) -> str:
    task_send(task, args=[str(upload.pk)], countdown=TURN_WAIT_SECONDS)
    return "waiting"


def _cancel_key(upload_id) -> str:
    return f"upload-cancel:{upload_id}"


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
    text = _read(content, file_name)
    if not text.strip():
        raise UploadRefused(f"{file_name} is empty: it holds no record.")
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if lines > settings.UPLOAD_MAX_LINES:
        raise UploadRefused(
            f"{file_name} has {lines:,} lines; the import takes files of up to "
            f"{settings.UPLOAD_MAX_LINES:,} lines. Split it into several."
        )
    with transaction.atomic():
        upload = RecordUpload(
            workspace=workspace,
            file_name=file_name[:200],
            kind=kind,
            lines=text,
            converted=False,
            state=RecordUpload.State.CHECKING,
            created_by=user,
        )
        upload.save(force_insert=True)
        audit_record(
            actor=actor,
            action="records_upload.created",
            target_type="record_upload",
            target_id=upload.pk,
            workspace=workspace,
            detail={"file_name": upload.file_name, "kind": kind, "lines": lines},
        )
        upload_id = str(upload.pk)
        transaction.on_commit(lambda: task_send(UPLOAD_CHECK_TASK, args=[upload_id]))
    return upload


def _convert(upload: RecordUpload) -> None:
    """The worker's first step: the file's text converted to the importer's lines, with
    its first rows and the cells that could not be converted; refused at once when it holds
    no record, or more errors than are shown."""
    lines, records, preview, errors = _converted(upload.workspace, upload.kind, upload.lines)
    if not records and not errors:
        errors.append(ImportLineError(1, None, "the file holds no record."))
    checking = bool(records) and len(errors) < ERRORS_SHOWN
    with transaction.atomic():
        locked = (
            RecordUpload.objects.select_for_update()
            .filter(pk=upload.pk, state=RecordUpload.State.CHECKING, converted=False)
            .first()
        )
        if locked is None:
            raise UploadCancelled
        locked.lines = "\n".join(lines)
        locked.converted = True
        locked.records = records
        locked.preview = preview
        locked.errors = [_error(error) for error in errors[:ERRORS_SHOWN]]
        if not checking:
            locked.state = RecordUpload.State.REFUSED
        locked.save(update_fields=["lines", "converted", "records", "preview", "errors", "state"])
    upload.lines, upload.converted, upload.records = locked.lines, True, records
    upload.preview, upload.errors, upload.state = locked.preview, locked.errors, locked.state


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
    return _in_turn(UPLOAD_CHECK_TASK, upload_id, RecordUpload.State.CHECKING, _check)


def _in_turn(task: str, upload_id, state: str, step) -> str:
    """Run a worker's step on an upload still in `state`, in its workspace's turn (else
    the task is sent again to wait for it); a cancellation meanwhile ends it, nothing
    written. "unknown" for an upload gone, cancelled, or past that step already (a message
    delivered twice)."""
    upload = _pending(upload_id, state)
    if upload is None:
        return "unknown"
    if not _turn_take(upload):
        return _wait_for_turn(task, upload)
    try:
        return step(upload)
    except UploadCancelled:
        return RecordUpload.State.CANCELLED
    finally:
        _turn_give_back(upload)


def _check(upload: RecordUpload) -> str:
    if not upload.converted:
        _convert(upload)
        if upload.state != RecordUpload.State.CHECKING:
            return upload.state
    actor = Actor.for_user(upload.created_by) if upload.created_by is not None else SYSTEM
    found = records_check(
        workspace=upload.workspace,
        lines=upload.lines.splitlines(),
        actor=actor,
        by_role=_acting_role(upload, upload.created_by),
        limit=ERRORS_SHOWN - len(upload.errors),
        progress=_progress_writer(upload, RecordUpload.State.CHECKING),
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
            return RecordUpload.State.CANCELLED
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


# At most this long between two progress marks (each renews the workspace's turn and looks
# for a cancellation), whatever the file's size.
MARK_SECONDS = 2.0


def _progress_writer(upload: RecordUpload, state: str):
    """The worker's progress callback: the progress kept in the cache at each whole
    percent (or MARK_SECONDS), the workspace's turn renewed, and UploadCancelled raised
    once a person cancelled the upload."""
    shown = {"percent": -1, "at": time.monotonic()}

    def write(done: int, total: int) -> None:
        percent = done * 100 // max(total, 1)
        now = time.monotonic()
        if percent != shown["percent"] or done == total or now - shown["at"] > MARK_SECONDS:
            shown["percent"], shown["at"] = percent, now
            cache.set(progress_key(upload.pk, state), (done, total), PROGRESS_SECONDS)
            cache.touch(_turn_key(upload.workspace_id), TURN_SECONDS)
            if cache.get(_cancel_key(upload.pk)):
                raise UploadCancelled

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
    return _in_turn(UPLOAD_IMPORT_TASK, upload_id, RecordUpload.State.QUEUED, _import)


def _import(upload: RecordUpload) -> str:
    actor = Actor.for_user(upload.confirmed_by) if upload.confirmed_by is not None else SYSTEM
    try:
        with transaction.atomic():
            result = records_import(
                workspace=upload.workspace,
                lines=upload.lines.splitlines(),
                actor=actor,
                by_role=_acting_role(upload, upload.created_by, upload.confirmed_by),
                source=f"upload {upload.file_name}",
                progress=_progress_writer(upload, RecordUpload.State.QUEUED),
            )
            finished = timezone.now()
            # Still queued: a cancellation meanwhile undoes the whole import.
            if not RecordUpload.objects.filter(
                pk=upload.pk, state=RecordUpload.State.QUEUED
            ).update(state=RecordUpload.State.IMPORTED, counts=result.counts, finished_at=finished):
                raise UploadCancelled
            upload.state = RecordUpload.State.IMPORTED
            upload.counts, upload.finished_at = result.counts, finished
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
    except UploadCancelled:
        raise
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


CANCELLABLE = (RecordUpload.State.CHECKING, RecordUpload.State.CHECKED, RecordUpload.State.QUEUED)


def upload_may_cancel(upload: RecordUpload, member) -> bool:
    """Who may cancel an upload: the person who uploaded it, and the workspace's owners."""
    return member is not None and (
        member.role == member.Role.OWNER
        or (upload.created_by_id is not None and upload.created_by_id == member.user_id)
    )


def upload_cancel(*, upload: RecordUpload, actor: Actor) -> bool:
    """Stop an upload being checked, waiting for confirmation or being imported: nothing of
    it is written (a running import is undone). False when it was no longer cancellable."""
    with transaction.atomic():
        cancelled = RecordUpload.objects.filter(pk=upload.pk, state__in=CANCELLABLE).update(
            state=RecordUpload.State.CANCELLED, finished_at=timezone.now()
        )
        if not cancelled:
            return False
        audit_record(
            actor=actor,
            action="records_upload.cancelled",
            target_type="record_upload",
            target_id=upload.pk,
            workspace=upload.workspace,
            detail={"file_name": upload.file_name, "was": upload.state},
        )
        upload_id = upload.pk
        transaction.on_commit(lambda: cache.set(_cancel_key(upload_id), 1, PROGRESS_SECONDS))
    return True
