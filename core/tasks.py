import logging
import smtplib

from celery import current_app as celery_app
from celery import shared_task
from django.core.mail import EmailMultiAlternatives

from .idempotency import purge_expired

logger = logging.getLogger(__name__)


@shared_task(name="core.tasks.purge_expired_idempotency_keys")
def purge_expired_idempotency_keys() -> int:
    return purge_expired()


@shared_task(
    name="core.mail_deliver",
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=8,
)
def mail_deliver(message: dict) -> int:
    """Send one rendered message (core.mail.Message as a dict) through the email backend."""
    mail = EmailMultiAlternatives(
        subject=message["subject"], body=message["text"], to=message["to"]
    )
    mail.attach_alternative(message["html"], "text/html")
    sent = mail.send()
    logger.info("Sent the mail %r to %d recipient(s)", message["subject"], len(message["to"]))
    return sent


def task_send(name: str, *, args: list) -> None:
    """Send a task by its name. In eager mode (no worker: a laptop, the tests) a task this
    process knows runs at once, and one it does not know is skipped with a log line:
    `send_task` ignores eager mode and would leave the message in a broker nobody reads."""
    if celery_app.conf.task_always_eager:
        task = celery_app.tasks.get(name)
        if task is None:
            # The apps' task modules are imported on the first need (a worker imports
            # them when it starts).
            celery_app.loader.import_default_modules()
            task = celery_app.tasks.get(name)
        if task is None:
            logger.info("task %s is not known here; not run", name)
            return
        task.apply_async(args=args)
        return
    celery_app.send_task(name, args=args)
