"""Meta's campaign spend, one row per campaign per day, read page by page.

The cursor is ``{since, until, after}``: the days read (ISO, both included; the engine
sets them, 90 days on connect and the last 7 every day) and Meta's ``after`` cursor of the
next page, kept on the connection after each page so a restarted read resumes.

Meta gives ``spend`` as a decimal string in the account's currency; it becomes the
workspace's minor units exactly (decimal arithmetic, never a float). A row in another
currency than the workspace's stops the read, refused, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from core.money import MoneyInvalid, exponent_of, minor_from_major

from ..ads import SpendRow
from ..base import BackfillPage, ProviderError, ProviderRefused
from . import client as api

PLATFORM = "meta"


def currency_refusal(*, account_id: str, currency: str, workspace) -> ProviderRefused:
    words = (
        f"The Meta ad account {account_id} reports its spend in {currency or 'no currency'} "
        f"and this workspace counts in {workspace.currency}: nothing is read from it. "
        f"Connect an ad account that bills in {workspace.currency}."
    )
    return ProviderRefused(words, words=words)


def _count(value) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def spend_row(row: dict, *, account_id: str, workspace) -> SpendRow:
    currency = row.get("account_currency") or ""
    if currency != workspace.currency:
        raise currency_refusal(account_id=account_id, currency=currency, workspace=workspace)
    try:
        amount = minor_from_major(str(row.get("spend") or "0"), exponent=exponent_of(currency))
    except MoneyInvalid as invalid:
        raise ProviderError(
            f"Meta's spend of campaign {row.get('campaign_id')} on {row.get('date_start')} "
            f"cannot be counted exactly: {invalid.message}"
        ) from invalid
    return SpendRow(
        campaign_id=str(row.get("campaign_id") or ""),
        campaign_name=str(row.get("campaign_name") or ""),
        day=date.fromisoformat(row["date_start"]),
        amount=amount,
        impressions=_count(row.get("impressions")),
        clicks=_count(row.get("clicks")),
    )


def pages(*, connection, credentials: dict, cursor: dict | None) -> Iterator[BackfillPage]:
    cursor = dict(cursor or {})
    since, until, after = cursor["since"], cursor["until"], cursor.get("after")
    account_id = credentials["ad_account_id"]
    graph = api.api_for(credentials)
    while True:
        rows, following = api.insights_page(
            graph, account_id, since=since, until=until, after=after
        )
        records = [
            spend_row(row, account_id=account_id, workspace=connection.workspace).as_record()
            for row in rows
            if row.get("campaign_id") and row.get("date_start")
        ]
        after = following
        next_cursor = {"since": since, "until": until, "after": after} if after else None
        yield BackfillPage(records=records, cursor=next_cursor)
        if next_cursor is None:
            return
