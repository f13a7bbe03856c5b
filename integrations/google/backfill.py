"""Google Ads' campaign spend, one row per campaign per day.

The cursor is ``{since, until}``, the days read (ISO, both included; the engine sets
them: 90 days on connect, the last 7 every day). searchStream answers the whole window in
one stream, so the window is one page.

``metrics.cost_micros`` is millionths of the account's currency: the workspace's minor
units are ``micros * 10^exponent / 10^6`` (``micros / 10_000`` for a two-decimal
currency), in decimal arithmetic. Google's costs are usually whole minor units; a row's
cost that is not (a fraction of a cent) is rounded half up to the nearest minor unit,
for that campaign and day.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from core.money import exponent_of

from ..ads import SpendRow
from ..base import BackfillPage, ProviderError, ProviderRefused
from .client import GoogleAdsClient, digits

PLATFORM = "google"
MICROS = Decimal(1_000_000)

SPEND_QUERY = (
    "SELECT segments.date, campaign.id, campaign.name, metrics.cost_micros, "
    "metrics.impressions, metrics.clicks FROM campaign "
    "WHERE segments.date BETWEEN '{since}' AND '{until}' "
    "ORDER BY segments.date, campaign.id"
)
CUSTOMER_QUERY = (
    "SELECT customer.id, customer.descriptive_name, customer.currency_code FROM customer"
)


def minor_from_micros(micros, *, currency: str) -> int:
    """``micros`` of the currency in its minor units, half up past a whole minor unit."""
    value = (Decimal(int(micros)) / MICROS).scaleb(exponent_of(currency))
    return int(value.quantize(Decimal(1), ROUND_HALF_UP))


def currency_refusal(*, customer_id: str, currency: str, workspace) -> ProviderRefused:
    words = (
        f"The Google Ads account {customer_id} reports its costs in "
        f"{currency or 'no currency'} and this workspace counts in {workspace.currency}: "
        f"nothing is read from it. Connect an account that bills in {workspace.currency}."
    )
    return ProviderRefused(words, words=words)


def customer_read(client: GoogleAdsClient, customer_id: str) -> dict:
    rows = client.search_stream(customer_id, CUSTOMER_QUERY)
    if not rows:
        raise ProviderError(f"Google Ads told nothing of the customer {customer_id}.")
    return rows[0].get("customer") or {}


def _count(value) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def spend_row(row: dict, *, currency: str) -> SpendRow:
    campaign = row.get("campaign") or {}
    metrics = row.get("metrics") or {}
    return SpendRow(
        campaign_id=str(campaign.get("id") or ""),
        campaign_name=str(campaign.get("name") or ""),
        day=date.fromisoformat((row.get("segments") or {})["date"]),
        amount=minor_from_micros(metrics.get("costMicros") or 0, currency=currency),
        impressions=_count(metrics.get("impressions")),
        clicks=_count(metrics.get("clicks")),
    )


def pages(*, connection, credentials: dict, cursor: dict | None) -> Iterator[BackfillPage]:
    since, until = cursor["since"], cursor["until"]
    customer_id = digits(credentials["customer_id"])
    currency = connection.workspace.currency
    with GoogleAdsClient(credentials) as client:
        rows = client.search_stream(customer_id, SPEND_QUERY.format(since=since, until=until))
    records = [
        spend_row(row, currency=currency).as_record()
        for row in rows
        if (row.get("campaign") or {}).get("id") and (row.get("segments") or {}).get("date")
    ]
    yield BackfillPage(records=records, cursor=None)
