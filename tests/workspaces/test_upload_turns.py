"""Uploads take turns per workspace and can be cancelled: a workspace's second file waits
while its first runs, another workspace's does not; a cancelled file writes nothing, even
when the cancellation comes while the import runs."""

import pytest
from django.core.cache import cache
from django.test import Client, TestCase

from audit.models import AuditEvent
from audit.services import SYSTEM
from workspaces.models import Lead, RecordUpload
from workspaces.services import uploads
from workspaces.services.uploads import (
    upload_cancel,
    upload_check,
    upload_confirm,
    upload_create,
    upload_import,
)

pytestmark = pytest.mark.django_db

LEADS = b"id,name,created_at\nl-1,Lee Lead,2026-10-01 09:00\nl-2,Ann Other,2026-10-02 09:00\n"


def _upload(workspace, member, content=LEADS):
    with TestCase.captureOnCommitCallbacks(execute=False):
        return upload_create(
            workspace=workspace,
            user=member.user,
            file_name="leads.csv",
            kind="lead",
            content=content,
            actor=SYSTEM,
        )


@pytest.fixture
def worker(monkeypatch):
    """As a worker runs tasks: sent ones are recorded, not run at once."""
    sent = []
    monkeypatch.setattr(uploads, "tasks_eager", lambda: False)
    monkeypatch.setattr(
        uploads, "task_send", lambda name, *, args, countdown=None: sent.append((name, countdown))
    )
    return sent


def test_a_workspaces_second_file_waits_for_its_turn_and_anothers_does_not(
    make_workspace, make_member, worker
):
    ours, theirs = make_workspace(), make_workspace()
    owner, other = make_member(ours, "owner"), make_member(theirs, "owner")
    first, second, elsewhere = _upload(ours, owner), _upload(ours, owner), _upload(theirs, other)
    # The first file is being read by another worker process: its workspace's turn is held.
    cache.set(uploads._turn_key(ours.pk), str(first.pk), uploads.TURN_SECONDS)
    try:
        assert upload_check(upload_id=second.pk) == "waiting"
        assert worker == [("workspaces.upload_check", uploads.TURN_WAIT_SECONDS)]
        assert RecordUpload.objects.get(pk=second.pk).state == "checking"
        assert upload_check(upload_id=elsewhere.pk) == "checked"
        # The same task delivered again takes its own turn.
        assert upload_check(upload_id=first.pk) == "checked"
    finally:
        cache.delete(uploads._turn_key(ours.pk))
    # The turn was given back: the second file runs now.
    assert upload_check(upload_id=second.pk) == "checked"
    assert cache.get(uploads._turn_key(ours.pk)) is None


def test_a_cancelled_file_is_neither_checked_nor_imported(make_workspace, make_member):
    ws = make_workspace()
    owner = make_member(ws, "owner")
    upload = _upload(ws, owner)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert upload_cancel(upload=upload, actor=SYSTEM) is True
        assert upload_cancel(upload=upload, actor=SYSTEM) is False
    assert upload_check(upload_id=upload.pk) == "unknown"
    assert RecordUpload.objects.get(pk=upload.pk).state == "cancelled"
    assert AuditEvent.objects.filter(action="records_upload.cancelled").count() == 1


def test_a_cancellation_while_the_import_runs_writes_nothing(
    make_workspace, make_member, monkeypatch
):
    ws = make_workspace()
    owner = make_member(ws, "owner")
    upload = _upload(ws, owner)
    assert upload_check(upload_id=upload.pk) == "checked"
    upload.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert upload_confirm(upload=upload, user=owner.user, actor=SYSTEM)
    real = uploads.records_import

    def cancelled_meanwhile(**arguments):
        result = real(**arguments)
        # A person cancels while the last lines are written.
        RecordUpload.objects.filter(pk=upload.pk).update(state="cancelled")
        return result

    monkeypatch.setattr(uploads, "records_import", cancelled_meanwhile)
    assert upload_import(upload_id=upload.pk) == "cancelled"
    assert not Lead.objects.filter(workspace=ws).exists()
    assert not AuditEvent.objects.filter(action="records.imported").exists()


def test_a_cancellation_stops_the_worker_at_its_next_mark(make_workspace, make_member):
    ws = make_workspace()
    owner = make_member(ws, "owner")
    upload = _upload(ws, owner)
    cache.set(uploads._cancel_key(upload.pk), "1", 60)
    try:
        write = uploads._progress_writer(upload, "checking")
        with pytest.raises(uploads.UploadCancelled):
            write(1, 2)
    finally:
        cache.delete(uploads._cancel_key(upload.pk))


def test_the_uploader_or_an_owner_cancels_on_the_page(make_workspace, make_member):
    ws = make_workspace()
    owner, admin, other_admin = (
        make_member(ws, "owner"),
        make_member(ws, "admin"),
        make_member(ws, "admin"),
    )
    upload = _upload(ws, admin)
    url = f"/settings/{ws.pk}/import/{upload.pk}/"
    stranger = Client(enforce_csrf_checks=True)
    stranger.force_login(other_admin.user)
    page = stranger.get(url).content.decode()
    assert 'id="cancel-upload"' not in page
    refused = stranger.post(
        url, {"action": "cancel", "csrfmiddlewaretoken": stranger.cookies["csrftoken"].value}
    )
    assert refused.status_code == 403
    uploader = Client(enforce_csrf_checks=True)
    uploader.force_login(admin.user)
    assert 'id="cancel-upload"' in uploader.get(url).content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = uploader.post(
            url, {"action": "cancel", "csrfmiddlewaretoken": uploader.cookies["csrftoken"].value}
        )
    assert done.status_code == 302
    shown = uploader.get(url).content.decode()
    assert "This file was cancelled" in shown and "nothing of it was written" in shown
    assert RecordUpload.objects.get(pk=upload.pk).state == "cancelled"
    # An owner may cancel any file of the workspace.
    second = _upload(ws, admin)
    boss = Client(enforce_csrf_checks=True)
    boss.force_login(owner.user)
    boss.get(f"/settings/{ws.pk}/import/{second.pk}/")
    boss.post(
        f"/settings/{ws.pk}/import/{second.pk}/",
        {"action": "cancel", "csrfmiddlewaretoken": boss.cookies["csrftoken"].value},
    )
    assert RecordUpload.objects.get(pk=second.pk).state == "cancelled"
