import logging
import smtplib

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
