import logging
import smtplib

from celery import Task, shared_task
from celery import current_app as celery_app
from django.core.mail import EmailMultiAlternatives

from .idempotency import purge_expired
from .logs import HIDDEN_ARGUMENTS

logger = logging.getLogger(__name__)


class ArgumentsHidden(Task):
    """A task whose arguments no log line, event or inspection may show (a rendered mail's
    links are one-use secrets): every message of it, a retry's too, is sent with
    HIDDEN_ARGUMENTS as the text Celery shows of its arguments (`argsrepr`, `kwargsrepr`)."""

    def apply_async(self, args=None, kwargs=None, **options):
        options["argsrepr"] = HIDDEN_ARGUMENTS
        options["kwargsrepr"] = HIDDEN_ARGUMENTS
        return super().apply_async(args, kwargs, **options)


@shared_task(name="core.tasks.purge_expired_idempotency_keys")
def purge_expired_idempotency_keys() -> int:
    return purge_expired()


@shared_task(
    name="core.mail_deliver",
    base=ArgumentsHidden,
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=8,
)
def mail_deliver(message: dict) -> int:
    """Send one rendered message (core.mail.Message as a dict) through the email backend.
    Its arguments are never logged (ArgumentsHidden): the message carries one-use links."""
    mail = EmailMultiAlternatives(
        subject=message["subject"],
        body=message["text"],
        to=message["to"],
        headers=message.get("headers") or None,
    )
    mail.attach_alternative(message["html"], "text/html")
    sent = mail.send()
    logger.info("Sent the mail %r to %d recipient(s)", message["subject"], len(message["to"]))
    return sent


def tasks_eager() -> bool:
    """Whether tasks run in the process that sends them (no worker: a laptop, the tests)."""
    return bool(celery_app.conf.task_always_eager)


def task_send(name: str, *, args: list, countdown: float | None = None) -> None:
    """Send a task by its name (to the queue its name is routed to), to run after
    `countdown` seconds if given. In eager mode (no worker: a laptop, the tests) a task this
    process knows runs at once, whatever the countdown, and one it does not know is skipped
    with a log line: `send_task` ignores eager mode and would leave the message in a broker
    nobody reads."""
    options = {"countdown": countdown} if countdown else {}
    if tasks_eager():
        task = celery_app.tasks.get(name)
        if task is None:
            # The apps' task modules are imported on the first need (a worker imports
            # them when it starts).
            celery_app.loader.import_default_modules()
            task = celery_app.tasks.get(name)
        if task is None:
            logger.info("task %s is not known here; not run", name)
            return
        task.apply_async(args=args, **options)
        return
    celery_app.send_task(name, args=args, **options)
