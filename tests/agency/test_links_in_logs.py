"""No one-use link reaches a log line with LOG_FORMAT=json: the mails that carry them
(invitations from a page and from a plan's apply, a password reset) are sent by a real
Celery worker (tests/worker.py), and connect links are made by the worker (a plan's
apply) and by the web (the agency API). Neither the worker's output nor the web's log
shows any of their tokens; the worker's lines of each mail task show its arguments as
hidden."""

import email
import io
import json
import logging
import re
from importlib import import_module

import pytest
from django.conf import settings
from django.test import Client

from agency.services import plan_reveal_take
from core.logs import json_formatter
from tests.worker import wait_for, worker_fixtures

from .conftest import new_workspace_plan

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

broker, start_worker = worker_fixtures(
    "links-logs-test",
    ["core.mail_deliver", "agency.tasks.apply_plan", "accounts.password_reset_send"],
)

INVITE = re.compile(r"/invite/([^/\s\"'<>]+)")
RESET = re.compile(r"/accounts/reset/[^/\s\"'<>]+/([^/\s\"'<>]+)/")
RECEIVED = re.compile(r"^Task core\.mail_deliver\[[^\]]+\] received$")
SUCCEEDED = re.compile(r"^Task core\.mail_deliver\[[^\]]+\] succeeded in [^:]+: 1$")


def console_handler(stream) -> logging.Handler:
    """The web's console handler as LOGGING builds it with LOG_FORMAT=json."""
    handler = logging.StreamHandler(stream)
    for name in settings.LOGGING["handlers"]["console"]["filters"]:
        module, _, attribute = settings.LOGGING["filters"][name]["()"].rpartition(".")
        handler.addFilter(getattr(import_module(module), attribute)())
    handler.setFormatter(json_formatter())
    return handler


@pytest.fixture
def web_log():
    stream = io.StringIO()
    handler = console_handler(stream)
    root = logging.getLogger()
    root.addHandler(handler)
    yield stream
    root.removeHandler(handler)


def delivered(folder) -> list[str]:
    """The text of every mail the worker's file backend wrote."""
    texts = []
    for path in sorted(folder.glob("*.log")):
        for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if raw.strip():
                message = email.message_from_bytes(raw)
                texts += [
                    part.get_payload(decode=True).decode()
                    for part in message.walk()
                    if not part.is_multipart()
                ]
    return texts


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_no_one_use_link_reaches_the_worker_or_web_logs(
    agency_world, write, make_member, django_user_model, start_worker, broker, tmp_path, web_log
):
    mail = tmp_path / "mail"
    mail.mkdir()
    worker = start_worker(LOG_FORMAT="json", EMAIL_URL=f"file://{mail}", CELERY_QUEUE=broker.name)

    # An owner invites someone from the Members page.
    owner = make_member(agency_world.workspace, "owner")
    inviting = Client()
    inviting.force_login(owner.user)
    invited = inviting.post(
        f"/settings/{agency_world.workspace.pk}/members/",
        {"action": "invite", "email": "sam@northwind.test", "name": "Sam", "role": "closer"},
    )
    assert invited.status_code == 302
    # Someone asks for a password reset.
    django_user_model.objects.create_user("rita", "rita@northwind.test", "pw-123456789")
    asked = Client().post("/accounts/password-reset/", {"email": "rita@northwind.test"})
    assert asked.status_code == 302
    # The agency makes a connect link through the API.
    made = write(
        agency_world.full,
        "POST",
        f"/api/v1/workspaces/{agency_world.workspace.pk}/connect-links",
        {"integrations": ["stripe"]},
    )
    assert made.status_code == 201
    # A plan is approved: the worker makes its workspace, invites its two new members and
    # makes its connect link.
    approver = django_user_model.objects.create_user("ops", "ops@northwind.test", "pw-123456789")
    agency_world.agency.users.add(approver)
    deciding = Client()
    deciding.force_login(approver)
    plan_id = write(agency_world.full, "POST", "/api/v1/plans", new_workspace_plan()).json()["id"]
    requested = write(agency_world.no_apply, "POST", f"/api/v1/plans/{plan_id}/request-approval")
    assert requested.status_code == 200
    decided = deciding.post(
        f"/agency/{agency_world.agency.pk}/plans/{plan_id}/decide", {"approve": "1"}
    )
    assert decided.status_code == 302

    def everything_sent():
        texts = delivered(mail)
        invites = {token for text in texts for token in INVITE.findall(text)}
        resets = {token for text in texts for token in RESET.findall(text)}
        return len(invites) == 3 and len(resets) == 1

    wait_for(everything_sent, "the invitations and the reset mailed", worker)

    def all_finished():
        messages = [line.get("message", "") for line in json_lines(worker.text())]
        received = [m for m in messages if RECEIVED.match(m)]
        return received and len([m for m in messages if SUCCEEDED.match(m)]) == len(received)

    wait_for(all_finished, "every mail task to finish", worker)

    texts = delivered(mail)
    secrets = {token for text in texts for token in INVITE.findall(text)}
    secrets |= {token for text in texts for token in RESET.findall(text)}
    secrets.add(made.json()["url"].rsplit("/", 1)[1])
    [shown] = plan_reveal_take(agency=agency_world.agency, user=approver)
    [link] = shown["connect_links"]
    secrets.add(link["url"].rsplit("/", 1)[1])
    assert len(secrets) == 6

    worker_output, web_output = worker.text(), web_log.getvalue()
    assert [s for s in secrets if s in worker_output] == []
    assert [s for s in secrets if s in web_output] == []
    # The worker's lines of each mail task are there, with its arguments hidden.
    received = [
        line for line in json_lines(worker_output) if RECEIVED.match(line.get("message", ""))
    ]
    assert len(received) == len(texts) // 2  # a text and an HTML part each
    assert {(line["data"]["args"], line["data"]["kwargs"]) for line in received} == {
        ("<hidden>", "<hidden>")
    }
    assert "rita@northwind.test" not in worker_output
