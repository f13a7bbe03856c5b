"""The worker's side of the notifications: the beat's round (every minute, on the sweeps'
queue), one workspace's due messages (the mail queue: one task per workspace, so none
waits behind another's), and one Slack message (the deliveries' queue, retried)."""

import logging

from celery import shared_task
from django.utils import timezone

from core.times import instant_parse

from . import rounds, slack
from .models import NotificationSettings
from .services import slack_url_of

logger = logging.getLogger(__name__)

# A Slack message refused with 429 or 5xx (or not answered) is tried again after 1, 2, 4 …
# minutes, up to 4 hours apart: 12 retries over about 20 hours before it is given up and logged.
SLACK_RETRIES = 12
SLACK_BACKOFF_MAX = 4 * 3600


@shared_task(name="notifications.round")
def notifications_round() -> dict:
    """The beat's round: the due workspaces queued, the speed-to-lead alerts sent."""
    return rounds.round_run(now=timezone.now())


@shared_task(name="notifications.workspace_notify")
def workspace_notify(workspace_id: str, at: str, awaited: str) -> dict:
    """Everything due for the workspace at the round's instant `at`, its next due instant
    as the round found it `awaited` (both ISO 8601)."""
    return dict(rounds.workspace_notify_of(workspace_id, instant_parse(at), instant_parse(awaited)))


@shared_task(name="notifications.slack_deliver", bind=True, max_retries=SLACK_RETRIES)
def slack_deliver(self, workspace_id: str, payload: dict) -> bool:
    """Post one message to the workspace's own Slack address, read here (never passed in
    the task's arguments, so a message only ever goes to its workspace's channel)."""
    row = NotificationSettings.objects.filter(pk=workspace_id).first()
    url = slack_url_of(row) if row else None
    if not url:
        logger.info("Slack message of workspace %s dropped: no Slack address", workspace_id)
        return False
    posted = slack.slack_post(url, payload)
    if posted.ok:
        return True
    if posted.retry and self.request.retries < SLACK_RETRIES:
        countdown = min(SLACK_BACKOFF_MAX, 60 * 2**self.request.retries)
        logger.warning(
            "Slack message of workspace %s not taken (%s); trying again in %d s",
            workspace_id,
            posted.error,
            countdown,
        )
        raise self.retry(countdown=countdown)
    logger.error("Slack message of workspace %s given up: %s", workspace_id, posted.error)
    return False
