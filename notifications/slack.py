"""Slack: where a workspace's messages may go, and how one is posted.

An address is a Slack incoming webhook, `https://hooks.slack.com/services/…`, checked by
the outbound guard (webhooks.guard: public addresses only, the connection pinned to the
address checked); where SLACK_WEBHOOK_BASE is set (a local stand-in of Slack), the address
must start with it instead, and is not refused for being local. Slack answers `ok` with
200; 429 and 5xx are worth another try, anything else is the address's fault.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx
from django.conf import settings

from webhooks import guard

SLACK_BASE = "https://hooks.slack.com/services/"
TIMEOUT_SECONDS = 10
USER_AGENT = "SalesFigures-Notifications/1"


class SlackRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Posted:
    ok: bool
    status: int | None = None
    error: str = ""

    @property
    def retry(self) -> bool:
        """A refusal worth another try: rate limited, Slack's own fault or no answer."""
        return not self.ok and (self.status is None or self.status == 429 or self.status >= 500)


def _base() -> str:
    return getattr(settings, "SLACK_WEBHOOK_BASE", "") or ""


def slack_url_check(url: str) -> guard.Target:
    """The target of a Slack incoming-webhook address, or SlackRefused saying why not."""
    url = (url or "").strip()
    base = _base()
    try:
        if base:
            if not url.startswith(base.rstrip("/") + "/"):
                raise SlackRefused(f"Give a Slack incoming-webhook address under {base}.")
            _scheme, host, port = guard.url_parse(url)
            return guard.Target(url=url, host=host, port=port, address=None)
        if not url.startswith(SLACK_BASE) or len(url) <= len(SLACK_BASE):
            raise SlackRefused(
                f"Give a Slack incoming-webhook address: {SLACK_BASE}… (Slack shows it when "
                "you add the Incoming Webhooks app to a channel)."
            )
        return guard.url_check(url)
    except guard.UrlRefused as refused:
        raise SlackRefused(refused.message) from None


def slack_post(url: str, payload: dict) -> Posted:
    """Post one message (Block Kit `blocks` with a `text` fallback) to the address."""
    try:
        target = slack_url_check(url)
    except SlackRefused as refused:
        return Posted(False, error=refused.message)
    headers = {"user-agent": USER_AGENT, "host": target.host_header}
    address = target.pinned_url if target.address else target.url
    extensions = {"sni_hostname": target.host} if target.address and url.startswith("https") else {}
    try:
        with httpx.Client(
            timeout=TIMEOUT_SECONDS, follow_redirects=False, trust_env=False
        ) as client:
            response = client.post(address, json=payload, headers=headers, extensions=extensions)
    except httpx.TimeoutException:
        return Posted(False, error=f"Slack did not answer within {TIMEOUT_SECONDS} s.")
    except httpx.HTTPError:
        return Posted(False, error="Could not connect to Slack.")
    if response.status_code == 200:
        return Posted(True, status=200)
    said = response.text.strip()[:200]
    return Posted(
        False,
        status=response.status_code,
        error=f"Slack answered {response.status_code}" + (f" ({said})." if said else "."),
    )


def slack_test(url: str, workspace_name: str) -> Posted:
    """The message sent when an address is saved."""
    text = f"Sales figures of {workspace_name} will be posted to this channel."
    return slack_post(url, {"text": text, "blocks": [_section(text)]})


def _section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}
