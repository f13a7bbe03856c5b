"""Mail: EMAIL_URL chooses the transport; a message is sent by a task after its transaction
commits, never when it rolls back, and a failure to send never undoes the change."""

import io
import json
import logging
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from celery.exceptions import Retry
from django.db import transaction

from core import display, mail
from core.tasks import mail_deliver

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({n: getattr(settings, n, None) for n in "
    "['EMAIL_BACKEND', 'EMAIL_FILE_PATH', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', "
    "'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'EMAIL_USE_SSL', 'EMAIL_TIMEOUT']}))"
)


def email_settings(email_url: str | None) -> dict:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "true",
        "BASE_URL": "http://127.0.0.1:8000",
        "SECRET_KEY": "a-long-and-varied-secret-key-for-the-settings-tests-0123456789",
        "FIELD_ENCRYPTION_KEY": "knoEw2Z9JKzYgcKtQUdyvDyGT6Sexd20ebh34wzYlIA=",
    }
    if email_url is not None:
        env["EMAIL_URL"] = email_url
    done = subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_unset_is_the_console():
    got = email_settings(None)
    assert got["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_a_file_url_keeps_its_absolute_path():
    got = email_settings("file:///var/mail/sales-figures")
    assert got["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert got["EMAIL_FILE_PATH"] == "/var/mail/sales-figures"


def test_smtp_with_starttls_and_smtps_with_tls_from_the_start():
    starttls = email_settings("smtp://mailer:s3cret@mail.example.test:587?tls=1")
    assert (
        starttls["EMAIL_BACKEND"],
        starttls["EMAIL_HOST"],
        starttls["EMAIL_PORT"],
        starttls["EMAIL_HOST_USER"],
        starttls["EMAIL_HOST_PASSWORD"],
        starttls["EMAIL_USE_TLS"],
        starttls["EMAIL_USE_SSL"],
        starttls["EMAIL_TIMEOUT"],
    ) == (
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.test",
        587,
        "mailer",
        "s3cret",
        True,
        False,
        10,
    )
    implicit = email_settings("smtps://mailer:s3cret@mail.example.test:465")
    assert (implicit["EMAIL_PORT"], implicit["EMAIL_USE_SSL"], implicit["EMAIL_USE_TLS"]) == (
        465,
        True,
        False,
    )


@pytest.fixture
def file_backend(settings, tmp_path):
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    return tmp_path


@pytest.mark.django_db(transaction=True)
def test_sent_after_commit_as_a_file_in_text_and_html(file_backend):
    context = {
        "workspace": {"name": "Acme Coaching"},
        "invitation": {"name": "Cy", "email": "cy@acme.test"},
        "role": "Closer",
        "invited_by": "Northwind Agency",
        "link": "http://127.0.0.1:8000/invite/abc",
        "has_account": False,
        "expires_at": None,
    }
    with transaction.atomic():
        mail.mail_send(to=["cy@acme.test"], template="invitation", context=context)
        assert list(file_backend.iterdir()) == []
    [written] = list(file_backend.iterdir())
    text = written.read_text()
    assert "Subject: Northwind Agency invited you to Acme Coaching" in text
    assert "To: cy@acme.test" in text
    assert "Choose your password to join:\nhttp://127.0.0.1:8000/invite/abc" in text
    assert 'Content-Type: text/html; charset="utf-8"' in text


@pytest.mark.parametrize("zone", ["America/New_York", "Australia/Sydney", "UTC"])
def test_a_mail_states_its_times_in_utc_whatever_zone_the_page_activated(zone):
    display.display_activate(zone_name=zone)
    try:
        invitation = mail.mail_render(
            to=["cy@acme.test"],
            template="invitation",
            context={
                "workspace": {"name": "Acme Coaching"},
                "invitation": {"name": "Cy", "email": "cy@acme.test"},
                "role": "Closer",
                "invited_by": "Northwind Agency",
                "link": "http://127.0.0.1:8000/invite/abc",
                "has_account": False,
                "expires_at": datetime(2026, 12, 5, 3, 35, tzinfo=UTC),
            },
        )
        disabled = mail.mail_render(
            to=["ops@acme.test"],
            template="webhook_disabled",
            context={
                "workspace": {"name": "Acme Coaching"},
                "endpoint": {"url": "https://hooks.acme.test/in"},
                "failing_since": datetime(2026, 12, 1, 23, 10, tzinfo=UTC),
                "page_url": "/",
            },
        )
    finally:
        display.display_reset()
    for text in (invitation.text, invitation.html):
        assert "The link works once, until 5 Dec 2026, 03:35 UTC." in text
    for text in (disabled.text, disabled.html):
        assert "has failed since 1 Dec 2026, 23:10 UTC, so it was turned off" in text


@pytest.mark.django_db(transaction=True)
def test_nothing_is_sent_when_the_transaction_rolls_back(file_backend):
    with pytest.raises(RuntimeError), transaction.atomic():
        mail.mail_send(
            to=["ops@acme.test"],
            template="owners_proposal",
            context={
                "workspace": {"name": "Acme"},
                "invitation": {"email": "x@acme.test"},
                "role": "Owner",
                "proposed_by": "Northwind",
                "members_url": "/",
            },
        )
        raise RuntimeError("the write failed")
    assert list(file_backend.iterdir()) == []


@pytest.mark.django_db(transaction=True)
def test_a_mail_that_cannot_be_queued_is_logged_and_the_change_stays(monkeypatch, caplog):
    def broker_down(*args, **kwargs):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(mail_deliver, "delay", broker_down)
    with transaction.atomic():
        message = mail.mail_send(
            to=["ops@acme.test"],
            template="owners_proposal",
            context={
                "workspace": {"name": "Acme"},
                "invitation": {"email": "x@acme.test"},
                "role": "Owner",
                "proposed_by": "Northwind",
                "members_url": "/",
            },
        )
    subject = "Northwind proposes x@acme.test as Owner in Acme: waiting for you"
    assert message.subject == subject
    assert f"Could not queue the mail {subject!r}" in caplog.text


def test_the_task_retries_a_failed_send(monkeypatch):
    attempts = []

    def refuse(self, *args, **kwargs):
        attempts.append(1)
        raise OSError("connection refused")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refuse)
    message = {"to": ["a@acme.test"], "subject": "Hi", "text": "Hi", "html": "<p>Hi</p>"}
    # Refused once, and left to be tried again later (by a worker, with back-off).
    with pytest.raises(Retry):
        mail_deliver.apply(args=[message])
    assert len(attempts) == 1
    assert mail_deliver.max_retries == 8


# --- A mail's arguments are never logged: they carry its one-use links -------------------

MESSAGE = {
    "to": ["cy@acme.test"],
    "subject": "Join Acme",
    "text": "Choose your password: http://127.0.0.1:8000/invite/SECRET-TOKEN-1",
    "html": '<a href="http://127.0.0.1:8000/invite/SECRET-TOKEN-1">Join</a>',
}


def test_every_message_of_the_mail_task_is_sent_with_its_arguments_hidden(monkeypatch):
    sent = []

    def capture(self, args=None, kwargs=None, **options):
        sent.append((self.name, args, options.get("argsrepr"), options.get("kwargsrepr")))

    monkeypatch.setattr("celery.app.task.Task.apply_async", capture)
    mail_deliver.delay(MESSAGE)
    # As a retry sends it again: from a signature.
    mail_deliver.s(MESSAGE).apply_async(countdown=30)
    assert sent == [("core.mail_deliver", (MESSAGE,), "<hidden>", "<hidden>")] * 2


@pytest.fixture
def console_json():
    """The console handler as LOGGING builds it with LOG_FORMAT=json, on the root logger."""
    from importlib import import_module  # noqa: PLC0415

    from django.conf import settings  # noqa: PLC0415

    from core.logs import json_formatter  # noqa: PLC0415

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    for name in settings.LOGGING["handlers"]["console"]["filters"]:
        module, _, attribute = settings.LOGGING["filters"][name]["()"].rpartition(".")
        handler.addFilter(getattr(import_module(module), attribute)())
    handler.setFormatter(json_formatter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield stream
    root.removeHandler(handler)


def test_a_mail_sent_in_the_web_process_logs_neither_its_links_nor_its_arguments(
    console_json, settings
):
    """No broker: the task runs in the web process, and Celery's line of it is written
    there."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail_deliver.delay(MESSAGE)
    lines = [json.loads(line) for line in console_json.getvalue().splitlines()]
    [traced] = [line for line in lines if line["logger"] == "celery.app.trace"]
    assert re.fullmatch(
        r"Task core\.mail_deliver\[[^\]]+\] succeeded in [^:]+: 1", traced["message"]
    )
    assert (traced["data"]["args"], traced["data"]["kwargs"]) == ("<hidden>", "<hidden>")
    assert "SECRET-TOKEN" not in console_json.getvalue()
    assert "cy@acme.test" not in console_json.getvalue()
