"""The writer of ad spend: what the ads of a campaign cost on a day."""

from __future__ import annotations

import re
from datetime import date

from core.transactions import in_transaction
from events.services import event_record

from ..models import AdSpend, Workspace
from ..shapes import ad_spend_shape
from .base import RecordInvalid, upsert_changes

PLATFORM = re.compile(r"^[a-z0-9_-]{1,32}$", re.ASCII)
TEXT_MAX = 200
# The largest count (impressions, clicks) accepted.
COUNT_MAX = 10**15


def _text(field: str, value) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RecordInvalid(field, "Give this as a string.")
    if len(value) > TEXT_MAX:
        raise RecordInvalid(field, f"At most {TEXT_MAX} characters.")
    return value


def _count(field: str, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordInvalid(field, "Give a whole number of zero or more.")
    if value > COUNT_MAX:
        raise RecordInvalid(field, f"At most {COUNT_MAX}.")
    return value


@in_transaction
def ad_spend_upsert(
    *,
    workspace: Workspace,
    external_id: str,
    date: date,
    platform: str,
    amount: int,
    utm_source: str | None = "",
    utm_medium: str | None = "",
    utm_campaign: str | None = "",
    utm_content: str | None = "",
    campaign_id: str | None = "",
    campaign_name: str | None = "",
    impressions: int | None = None,
    clicks: int | None = None,
):
    """One day's spend of one campaign, by its own id: written again with the same id, the
    record is replaced (a platform's revision of a recent day). Records `ad_spend.updated`
    when it is made or changed. Returns (record, created)."""
    if not isinstance(external_id, str) or not external_id.strip():
        raise RecordInvalid("id", "Every ad spend record carries its own id, a string.")
    if len(external_id) > TEXT_MAX:
        raise RecordInvalid("id", f"An id has at most {TEXT_MAX} characters.")
    if not isinstance(platform, str) or not PLATFORM.match(platform):
        raise RecordInvalid(
            "platform",
            "Give the platform as a key of 1 to 32 lowercase letters, digits, '_' or '-' "
            "(meta, google, tiktok).",
        )
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise RecordInvalid("amount", "Give an amount of zero or more.")
    values = {
        "date": date,
        "platform": platform,
        "amount": amount,
        **{
            name: _text(name, value)
            for name, value in (
                ("utm_source", utm_source),
                ("utm_medium", utm_medium),
                ("utm_campaign", utm_campaign),
                ("utm_content", utm_content),
                ("campaign_id", campaign_id),
                ("campaign_name", campaign_name),
            )
        },
        "impressions": _count("impressions", impressions),
        "clicks": _count("clicks", clicks),
    }
    spend, created, before = upsert_changes(
        AdSpend, workspace=workspace, external_id=external_id, values=values
    )
    if created or before:
        event_record(
            workspace=workspace, type="ad_spend.updated", data=ad_spend_shape(spend, workspace)
        )
    return spend, created
