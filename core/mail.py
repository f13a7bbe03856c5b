"""Mail: rendered from a plain-text and an HTML template, sent by a Celery task once the
transaction that caused it commits.

The transport is Django's email backend, configured from EMAIL_URL (config/settings.py).
A message that cannot be sent is retried by the task and logged; it never undoes the
change that caused it, and a broker that cannot take the task is logged, not raised.
"""

import logging
from dataclasses import asdict, dataclass

from django.db import transaction
from django.template.loader import render_to_string

from .tasks import mail_deliver

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    to: list[str]
    subject: str
    text: str
    html: str
    # Extra headers (a digest's List-Unsubscribe); none for most mail.
    headers: dict | None = None


def mail_render(
    *, to: list[str], template: str, context: dict, headers: dict | None = None
) -> Message:
    """`templates/email/<template>_subject.txt`, `.txt` and `.html`, rendered with context."""
    subject = render_to_string(f"email/{template}_subject.txt", context)
    return Message(
        to=list(to),
        subject=" ".join(subject.split()),
        text=render_to_string(f"email/{template}.txt", context),
        html=render_to_string(f"email/{template}.html", context),
        headers=dict(headers) if headers else None,
    )


def _enqueue(message: Message) -> None:
    try:
        mail_deliver.delay(asdict(message))
    except Exception:
        # The change that asked for the mail is committed; the mail is lost, and said so.
        logger.exception(
            "Could not queue the mail %r to %d recipient(s)", message.subject, len(message.to)
        )


def mail_send(
    *, to: list[str], template: str, context: dict, headers: dict | None = None
) -> Message | None:
    """Render now, send after the current transaction commits (at once outside one)."""
    recipients = sorted({address for address in to if address})
    if not recipients:
        return None
    message = mail_render(to=recipients, template=template, context=context, headers=headers)
    transaction.on_commit(lambda: _enqueue(message), robust=True)
    return message
