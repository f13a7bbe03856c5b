"""Idempotent writes (tokens/idempotency.py), exercised through real write routes."""

import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from agentapi import services as agent_services
from agentapi.models import ChangeLogEntry
from audit.models import AuditEvent
from config.celery import app
from core import idempotency
from core.errors import ApiError, Forbidden
from core.models import IdempotencyRecord
from core.tasks import purge_expired_idempotency_keys
from tests.conftest import at_once
from tokens.models import ApiToken
from workspaces.models import Call, Lead, Outcome, Sale

CHANGE_LOG = "/api/v1/change-log"
BODY = {
    "effective_at": "2026-03-01T00:00:00+00:00",
    "kind": "price",
    "title": "Price up",
    "what": "Mastermind from 5000 to 6000.",
    "why": "Demand.",
}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def setup(make_workspace, workspace_token):
    workspace = make_workspace()
    token = workspace_token(workspace, scopes=("read", "data:write"), name="writer")
    return workspace, token


def _post(token, path, body, key, *, raise_errors=True):
    client = APIClient(raise_request_exception=raise_errors)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    client.credentials(**headers)
    return client.post(path, body, format="json")


def _written() -> tuple[int, int, int]:
    return (
        ChangeLogEntry.objects.count(),
        AuditEvent.objects.filter(action="change_log.created").count(),
        IdempotencyRecord.objects.count(),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("key", [None, "", "k" * 7, "k" * 201], ids=["none", "empty", "7", "201"])
def test_a_write_without_a_usable_key_is_refused(setup, key):
    _workspace, token = setup
    response = _post(token, CHANGE_LOG, BODY, key)
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["reason"] == "refused.idempotency_key_required"
    assert body["field"] == "Idempotency-Key"
    assert _written() == (0, 0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize("length", [8, 200])
def test_keys_of_8_and_200_characters_are_accepted(setup, length):
    _workspace, token = setup
    assert _post(token, CHANGE_LOG, BODY, "k" * length).status_code == 201
    assert _written() == (1, 1, 1)


@pytest.mark.django_db
def test_a_retry_answers_the_first_answer_and_writes_once(setup):
    _workspace, token = setup
    first = _post(token, CHANGE_LOG, BODY, "retry-key-1")
    again = _post(token, CHANGE_LOG, BODY, "retry-key-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert "Idempotent-Replayed" not in first
    assert again["Idempotent-Replayed"] == "true"
    assert _written() == (1, 1, 1)


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_and_writes_nothing(setup):
    _workspace, token = setup
    assert _post(token, CHANGE_LOG, BODY, "reuse-key-1").status_code == 201
    response = _post(token, CHANGE_LOG, {**BODY, "title": "Another"}, "reuse-key-1")
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.idempotency_key_reused"
    assert _written() == (1, 1, 1)
    assert ChangeLogEntry.objects.get().title == "Price up"


@pytest.mark.django_db
def test_the_same_key_on_another_route_is_refused(setup):
    workspace, token = setup
    assert _post(token, CHANGE_LOG, BODY, "route-key-1").status_code == 201
    other_route = f"/api/v1/workspaces/{workspace.pk}/change-log"
    response = _post(token, other_route, BODY, "route-key-1")
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.idempotency_key_reused"
    assert _written() == (1, 1, 1)


@pytest.mark.django_db
def test_a_list_body_does_not_pass_for_an_empty_object(setup):
    _workspace, token = setup
    first = _post(token, CHANGE_LOG, {}, "shape-key-1")
    assert first.status_code == 400
    response = _post(token, CHANGE_LOG, [], "shape-key-1")
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.idempotency_key_reused"


@pytest.mark.django_db
def test_a_business_error_is_stored_and_replayed(setup):
    _workspace, token = setup
    bad = {**BODY, "kind": "mood"}
    first = _post(token, CHANGE_LOG, bad, "bad-body-1")
    again = _post(token, CHANGE_LOG, bad, "bad-body-1")
    assert first.status_code == again.status_code == 400
    assert first.json()["field"] == "kind"
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert _written() == (0, 0, 1)


@pytest.mark.django_db
def test_keys_are_scoped_to_the_principal(setup, workspace_token):
    workspace, token = setup
    second = workspace_token(workspace, scopes=("data:write",), name="second writer")
    assert _post(token, CHANGE_LOG, BODY, "shared-key-1").status_code == 201
    response = _post(second, CHANGE_LOG, BODY, "shared-key-1")
    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert _written() == (2, 2, 2)


def _fail_with(monkeypatch, error):
    def boom(**kwargs):
        raise error

    monkeypatch.setattr(agent_services, "change_create", boom)


@pytest.mark.django_db
@pytest.mark.server_fault
@pytest.mark.parametrize(
    ("error", "status"),
    [
        (RuntimeError("the database went away"), 500),
        (type("Unavailable", (ApiError,), {"status_code": 503})("Try later."), 503),
        (Forbidden("No.", reason="refused.member_scope"), 403),
    ],
    ids=["crash", "5xx", "403"],
)
def test_a_failed_write_leaves_nothing_and_a_retry_runs(setup, monkeypatch, error, status):
    _workspace, token = setup
    _fail_with(monkeypatch, error)
    failed = _post(token, CHANGE_LOG, BODY, "fail-key-1", raise_errors=False)
    assert failed.status_code == status
    assert _written() == (0, 0, 0)
    monkeypatch.undo()
    retry = _post(token, CHANGE_LOG, BODY, "fail-key-1")
    assert retry.status_code == 201
    assert "Idempotent-Replayed" not in retry
    assert _written() == (1, 1, 1)


@pytest.mark.django_db
@pytest.mark.server_fault
def test_a_crash_after_the_records_are_written_rolls_them_back(
    make_workspace, make_member, session_token, monkeypatch
):
    """A post-call form that fails after writing its outcome leaves no outcome, no sale."""
    workspace = make_workspace()
    closer = make_member(workspace, "closer")
    now = timezone.now()
    lead = Lead.objects.create(workspace=workspace, name="L", email="l@x.test", created_at=now)
    call = Call.objects.create(
        workspace=workspace, lead=lead, booked_at=now, scheduled_for=now, closer=closer
    )
    session = session_token(closer)
    real_sale_file = agent_services._sale_file

    def sale_then_crash(**kwargs):
        real_sale_file(**kwargs)
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(agent_services, "_sale_file", sale_then_crash)
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "closed",
        "contract_value": "100",
    }
    failed = _post(session, "/api/v1/forms/post-call", body, "crash-key-1", raise_errors=False)
    assert failed.status_code == 500
    assert "Traceback" not in failed.content.decode()
    call.refresh_from_db()
    assert (call.attendance, call.outcome) == ("", "")
    assert (Outcome.objects.count(), Sale.objects.count(), IdempotencyRecord.objects.count()) == (
        0,
        0,
        0,
    )
    monkeypatch.undo()
    retry = _post(session, "/api/v1/forms/post-call", body, "crash-key-1")
    assert retry.status_code == 201
    assert (Outcome.objects.count(), Sale.objects.count()) == (1, 1)


@pytest.mark.django_db
def test_a_key_older_than_24_hours_runs_again(setup):
    _workspace, token = setup
    assert _post(token, CHANGE_LOG, BODY, "old-key-01").status_code == 201
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=24, seconds=1))
    again = _post(token, CHANGE_LOG, {**BODY, "title": "Now another body is fine"}, "old-key-01")
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again
    assert ChangeLogEntry.objects.count() == 2
    assert IdempotencyRecord.objects.count() == 1


@pytest.mark.django_db
def test_the_periodic_task_purges_expired_keys_only(setup):
    _workspace, token = setup
    for n in range(3):
        assert _post(token, CHANGE_LOG, BODY, f"purge-key-{n}").status_code == 201
    now = timezone.now()
    IdempotencyRecord.objects.filter(key="purge-key-0").update(created_at=now - timedelta(hours=25))
    IdempotencyRecord.objects.filter(key="purge-key-1").update(created_at=now - timedelta(hours=23))
    result = purge_expired_idempotency_keys.delay()
    assert result.get() == 1
    assert sorted(IdempotencyRecord.objects.values_list("key", flat=True)) == [
        "purge-key-1",
        "purge-key-2",
    ]


def test_the_purge_runs_every_hour_on_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-expired-idempotency-keys"]
    assert entry["task"] == "core.tasks.purge_expired_idempotency_keys"
    assert entry["schedule"] == timedelta(hours=1)
    assert entry["task"] in app.tasks


# --- PostgreSQL: concurrency ---------------------------------------------------------------


def _slow_change_create(monkeypatch, seconds=0.3):
    """Hold the first write open a little, so the others arrive while it runs."""
    real = agent_services.change_create

    def slow(**kwargs):
        time.sleep(seconds)
        return real(**kwargs)

    monkeypatch.setattr(agent_services, "change_create", slow)


@pytest.mark.postgres
def test_twenty_concurrent_requests_with_one_key_write_once(transactional_db, setup, monkeypatch):
    _workspace, token = setup
    _slow_change_create(monkeypatch)

    def send(_n):
        response = _post(token, CHANGE_LOG, BODY, "concurrent-key-1")
        return response.status_code, response.json(), response.has_header("Idempotent-Replayed")

    answers = at_once(20, send)

    assert len(answers) == 20
    assert ChangeLogEntry.objects.count() == 1
    assert AuditEvent.objects.filter(action="change_log.created").count() == 1
    first = [body for status, body, replayed in answers if status == 201 and not replayed]
    assert len(first) == 1
    for status, body, _replayed in answers:
        if status == 201:
            assert body == first[0]
        else:
            assert status == 409
            assert body["error"]["reason"] == "refused.idempotency_in_progress"


@pytest.mark.postgres
def test_a_write_still_running_answers_409_and_is_not_stored(transactional_db, setup):
    _workspace, token = setup
    api_token = ApiToken.objects.get(name="writer")
    scope = f"workspace:{api_token.workspace_id}|workspace_token:{api_token.pk}"
    holding, release = threading.Event(), threading.Event()

    def hold_the_key():
        try:
            with transaction.atomic():
                assert idempotency._try_lock(scope, "held-key-01")
                holding.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_key)
    holder.start()
    assert holding.wait(timeout=30)
    try:
        busy = _post(token, CHANGE_LOG, BODY, "held-key-01")
        assert busy.status_code == 409
        assert busy.json()["error"]["reason"] == "refused.idempotency_in_progress"
        assert _written() == (0, 0, 0)
    finally:
        release.set()
        holder.join()
    done = _post(token, CHANGE_LOG, BODY, "held-key-01")
    assert done.status_code == 201
    assert _written() == (1, 1, 1)


@pytest.mark.postgres
def test_twenty_concurrent_filings_of_one_form_write_one_sale(
    transactional_db, make_workspace, make_member, session_token
):
    """Different keys, one submission_id: the form itself is filed once."""
    workspace = make_workspace()
    closer = make_member(workspace, "closer")
    now = timezone.now()
    lead = Lead.objects.create(workspace=workspace, name="L", email="l@x.test", created_at=now)
    call = Call.objects.create(
        workspace=workspace, lead=lead, booked_at=now, scheduled_for=now, closer=closer
    )
    session = session_token(closer)
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "closed",
        "contract_value": "100",
        "cash_collected": "40",
    }

    def send(n):
        response = _post(session, "/api/v1/forms/post-call", body, f"form-key-{n:03d}")
        return response.status_code, response.json()

    answers = at_once(20, send)
    assert [status for status, _ in answers] == [201] * 20
    assert all(answer == answers[0][1] for _, answer in answers)
    assert (Outcome.objects.count(), Sale.objects.count()) == (1, 1)
