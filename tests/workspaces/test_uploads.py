"""The writer of the Import page's uploads, called as the worker calls it: a task
delivered again after its run ended changes nothing, and an upload runs only in its turn."""

import pytest
from django.test import TestCase

from audit.models import AuditEvent
from audit.services import SYSTEM
from workspaces.models import Lead, RecordUpload
from workspaces.services.uploads import (
    UploadRefused,
    upload_check,
    upload_confirm,
    upload_create,
    upload_import,
)

pytestmark = pytest.mark.django_db

LEADS = b"id,name,created_at\nl-1,Lee Lead,2026-10-01 09:00\nl-2,Ann Other,2026-10-02 09:00\n"


def _upload(workspace, owner, content=LEADS, kind="lead"):
    return upload_create(
        workspace=workspace,
        user=owner.user,
        file_name="leads.csv",
        kind=kind,
        content=content,
        actor=SYSTEM,
    )


def test_each_step_runs_once_in_its_turn(make_workspace, make_member):
    ws = make_workspace()
    owner = make_member(ws, "owner")
    upload = _upload(ws, owner)
    assert upload.state == "checking"
    # Not confirmed: the import does nothing.
    assert upload_import(upload_id=upload.pk) == "unknown"
    assert upload_check(upload_id=upload.pk) == "checked"
    assert upload_check(upload_id=upload.pk) == "unknown"
    upload.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=False) as sent:
        assert upload_confirm(upload=upload, user=owner.user, actor=SYSTEM) is True
        assert upload_confirm(upload=upload, user=owner.user, actor=SYSTEM) is False
    assert len(sent) == 1
    assert upload_import(upload_id=upload.pk) == "imported"
    assert upload_import(upload_id=upload.pk) == "unknown"
    assert upload_import(upload_id="not-an-id") == "unknown"
    assert Lead.objects.filter(workspace=ws).count() == 2
    assert list(
        AuditEvent.objects.filter(workspace=ws).order_by("at").values_list("action", flat=True)
    ) == [
        "records_upload.created",
        "records_upload.checked",
        "records_upload.confirmed",
        "records.imported",
        "records_upload.imported",
    ]


def test_a_file_with_no_record_or_not_utf8_or_of_no_kind_is_refused(make_workspace, make_member):
    ws = make_workspace()
    owner = make_member(ws, "owner")
    with pytest.raises(UploadRefused) as refused:
        _upload(ws, owner, content=b"\n\n", kind="jsonl")
    assert refused.value.message == "leads.csv is empty: it holds no record."
    # Converted by the worker: a header and no row is refused there.
    header_only = _upload(ws, owner, content=b"id,name,created_at\n")
    assert upload_check(upload_id=header_only.pk) == "refused"
    header_only.refresh_from_db()
    assert (header_only.state, header_only.records, header_only.errors) == (
        "refused",
        0,
        [{"line": 1, "column": "", "message": "the file holds no record."}],
    )
    with pytest.raises(UploadRefused) as refused:
        _upload(ws, owner, content="id,name\nl-1,Zoë\n".encode("utf-16"))
    assert refused.value.message == (
        "leads.csv is not UTF-8 text: save it from the spreadsheet as CSV UTF-8."
    )
    with pytest.raises(UploadRefused):
        _upload(ws, owner, kind="xlsx")
    assert RecordUpload.objects.filter(workspace=ws).count() == 1
