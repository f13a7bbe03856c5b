"""A real worker on Redis: the beat's round queues each due workspace's task on the mail
queue, and the worker sends its digests, once, with their unsubscribe headers."""

import email
from email import policy

import pytest

from config.queues import MAIL
from notifications.models import NotificationSettings
from notifications.tasks import notifications_round
from tests.conftest import aware
from tests.worker import Worker, kind_queues, wait_for


@pytest.fixture
def kinds(transactional_db):
    yield from kind_queues(transactional_db)


def mails(folder) -> list:
    found = []
    for path in sorted(folder.glob("*.log")):
        for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if raw.strip():
                found.append(email.message_from_bytes(raw, policy=policy.default))
    return found


@pytest.mark.redis
@pytest.mark.postgres
def test_the_worker_sends_the_rounds_digests_once(kinds, team, tmp_path, monkeypatch):
    team.rec.lead("2026-03-09 10:00", tz="America/New_York", name="Ada")
    NotificationSettings.objects.filter(pk=team.workspace.pk).update(
        next_due_at=aware("2026-03-10 12:00")
    )
    monkeypatch.setattr("django.utils.timezone.now", lambda: aware("2026-03-10 12:05"))
    assert notifications_round.run() == {"workspaces": 1, "sent": {}}
    assert kinds.length(MAIL) == 1  # the workspace's task, nothing sent yet
    assert notifications_round.run() == {"workspaces": 0, "sent": {}}  # held: not twice
    outbox = tmp_path / "mail"
    outbox.mkdir()
    worker = Worker(
        tmp_path / "mail.log",
        kinds.name(MAIL),
        {"CELERY_QUEUE": kinds.prefix, "EMAIL_URL": f"file://{outbox}"},
    )
    try:
        wait_for(lambda: len(mails(outbox)) == 4, "the four digests", worker)
        wait_for(lambda: kinds.length(MAIL) == 0, "the mail queue to empty", worker)
    finally:
        worker.stop()
    sent = mails(outbox)
    assert sorted(m["To"] for m in sent) == [
        "closer@northwind.test",
        "manager@northwind.test",
        "owner@northwind.test",
        "setter@northwind.test",
    ]
    owner = next(m for m in sent if m["To"] == "owner@northwind.test")
    assert owner["Subject"] == "Daily digest of Northwind: Monday 9 March 2026"
    assert owner["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "Leads created: 1 (the Monday before: 0; +1)" in owner.get_body(("plain",)).get_content()
    row = NotificationSettings.objects.get(pk=team.workspace.pk)
    assert row.next_due_at == aware("2026-03-11 12:00")
