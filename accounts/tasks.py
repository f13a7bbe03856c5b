"""The worker's part of a password reset: who the email is, the link and the mail."""

from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings

from core.tasks import ArgumentsHidden

from .forms import QueuedPasswordResetForm


@shared_task(name="accounts.password_reset_send", base=ArgumentsHidden, ignore_result=True)
def password_reset_send(email: str) -> None:
    """Mail a reset link to each active account of the email (none for an unknown one).

    The request only queues this, for a known email and an unknown one alike, so its answer
    takes the same time either way. Its argument (an address) is never logged."""
    form = QueuedPasswordResetForm(data={"email": email})
    if form.is_valid():
        form.save(domain_override=urlsplit(settings.BASE_URL).netloc)
