"""The Import page's import on a real Celery worker, against Redis and the test database
(tests/worker.py starts it): a confirmed upload is imported by the worker, with its
progress in the shared cache; a line refused there writes nothing of the file."""

import pytest
from django.core.cache import cache
from django.test import Client

from audit.models import AuditEvent
from audit.services import Actor
from tests.worker import wait_for, worker_fixtures
from workspaces.models import Lead, RecordUpload, Touch
from workspaces.services import lead_upsert
from workspaces.services.uploads import progress_key, upload_confirm, upload_create

from ..conftest import aware

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

broker, start_worker = worker_fixtures(
    "upload-test", ["workspaces.upload_check", "workspaces.upload_import"]
)

LEADS = (
    "id,name,created_at,utm_source\n"
    "l-1,Lee Lead,2026-10-01 09:00,youtube\n"
    "l-2,Ann Other,2026-10-01 23:30,\n"
    "l-3,Bo Third,2026-10-02 08:15,youtube\n"
)


def _state(upload) -> str:
    return RecordUpload.objects.get(pk=upload.pk).state


def _uploaded(workspace, owner, content: bytes, kind="lead"):
    return upload_create(
        workspace=workspace,
        user=owner.user,
        file_name=f"records.{'csv' if kind != 'jsonl' else 'jsonl'}",
        kind=kind,
        content=content,
        actor=Actor.for_user(owner.user),
    )


def test_the_worker_imports_a_confirmed_upload(make_workspace, make_member, start_worker, broker):
    workspace = make_workspace(name="Northwind", timezone="America/New_York")
    owner = make_member(workspace, "owner")
    worker = start_worker()
    upload = _uploaded(workspace, owner, LEADS.encode())
    assert upload.state == "checking"
    wait_for(lambda: _state(upload) != "checking", "the worker to check the file", worker)
    assert _state(upload) == "checked"
    # The check wrote nothing.
    assert Lead.objects.filter(workspace=workspace).count() == 0
    assert upload_confirm(upload=upload, user=owner.user, actor=Actor.for_user(owner.user))
    wait_for(lambda: _state(upload) != "queued", "the worker to import the file", worker)
    upload.refresh_from_db()
    assert (upload.state, upload.counts) == ("imported", {"lead": {"created": 3, "updated": 0}})
    assert sorted(
        (lead.external_id, lead.created_at.isoformat(), lead.utm_source)
        for lead in Lead.objects.filter(workspace=workspace)
    ) == [
        ("l-1", "2026-10-01T13:00:00+00:00", "youtube"),
        ("l-2", "2026-10-02T03:30:00+00:00", ""),
        ("l-3", "2026-10-02T12:15:00+00:00", "youtube"),
    ]
    imported = AuditEvent.objects.get(action="records.imported")
    assert (imported.actor_kind, imported.actor_label) == ("user", owner.user.email)
    # The worker's progress reached the end, in the cache the web processes read.
    assert tuple(cache.get(progress_key(upload.pk, "checking"))) == (3, 3)
    assert tuple(cache.get(progress_key(upload.pk, "queued"))) == (3, 3)
    client = Client()
    client.force_login(owner.user)
    status = client.get(f"/settings/{workspace.pk}/import/{upload.pk}/status")
    assert status.json() == {"state": "imported", "done": 3, "total": 3, "percent": 100}
    wait_for(
        lambda: (
            worker.results("workspaces.upload_import") == ["'imported'"]
            and worker.results("workspaces.upload_check") == ["'checked'"]
        ),
        "the task's success line",
        worker,
    )


def test_a_line_the_worker_refuses_writes_nothing_of_the_file(
    make_workspace, make_member, start_worker, broker
):
    workspace = make_workspace(name="Northwind")
    owner = make_member(workspace, "owner")
    lead, _ = lead_upsert(
        workspace=workspace, external_id="l-0", created_at=aware("2026-09-01 09:00")
    )
    content = (
        '{"type": "lead", "id": "l-1", "created_at": "2026-10-01T09:00:00Z"}\n'
        '{"type": "touch", "id": "t-1", "lead": "l-0", "at": "2026-10-01T09:05:00Z"}\n'
    )
    worker = start_worker()
    upload = _uploaded(workspace, owner, content.encode(), kind="jsonl")
    wait_for(lambda: _state(upload) == "checked", "the worker to check the file", worker)
    lead.delete()
    upload_confirm(upload=upload, user=owner.user, actor=Actor.for_user(owner.user))
    wait_for(lambda: _state(upload) != "queued", "the worker to end the import", worker)
    upload.refresh_from_db()
    assert (upload.state, upload.failure) == (
        "failed",
        {
            "line": 2,
            "column": "lead",
            "message": "No lead with id 'l-0' in this workspace (import it first).",
        },
    )
    assert Lead.objects.filter(workspace=workspace).count() == 0
    assert Touch.objects.count() == 0
    assert not AuditEvent.objects.filter(action="records.imported").exists()
    assert AuditEvent.objects.filter(action="records_upload.failed").count() == 1


def test_the_worker_names_each_line_its_check_refuses(
    make_workspace, make_member, start_worker, broker
):
    workspace = make_workspace(name="Northwind", currency="JPY")
    owner = make_member(workspace, "owner")
    content = (
        "id,sale,paid_at,amount\np-1,s-1,2026-10-03 16:05,100.5\np-2,s-1,2026-10-03 16:05,1 000\n"
    )
    worker = start_worker()
    upload = _uploaded(workspace, owner, content.encode(), kind="payment")
    wait_for(lambda: _state(upload) != "checking", "the worker to check the file", worker)
    upload.refresh_from_db()
    assert upload.state == "refused"
    assert upload.errors == [
        {
            "line": 2,
            "column": "sale",
            "message": "No sale with id 's-1' in this workspace (import it first).",
        },
        {
            "line": 3,
            "column": "amount",
            "message": "'1 000' is not an amount: write it as 1234.50, with no currency sign "
            "or thousands separator.",
        },
    ]
