"""Meta's Marketing API through its own library (`facebook-business`), with a user or
system user's access token, at the graph address of the setting META_GRAPH_BASE.

Two reads: the ad account (its currency, checked at connect) and its Ads Insights at
campaign level, one row per campaign per day, page by page (`after` cursors). Meta's
rate limits (HTTP 429, or the error codes 4, 17, 32, 613 and 80000-80014) are waited out
(1, 2, 4... 32 seconds) before they become a `limited` failure; a refused token or a
missing permission is `refused`; no answer is `unreachable`.
"""

from __future__ import annotations

import time

import requests
from django.conf import settings
from facebook_business.api import FacebookAdsApi
from facebook_business.exceptions import FacebookRequestError
from facebook_business.session import FacebookSession

from ..base import ProviderError, ProviderLimited, ProviderRefused, ProviderUnreachable

INSIGHTS_FIELDS = (
    "campaign_id",
    "campaign_name",
    "spend",
    "impressions",
    "clicks",
    "account_currency",
)
PAGE_SIZE = 500
BACKOFF = (1, 2, 4, 8, 16, 32)
TIMEOUT_SECONDS = 30
# Meta's throttling codes: the application's, the user's, the ad account's (17, 613),
# the pages' (32), and the Marketing API's business use cases (80000-80014).
RATE_LIMIT_CODES = frozenset({4, 17, 32, 613, *range(80000, 80015)})
# An access token Meta no longer accepts (190), a permission the token lacks (10, 200-299).
REFUSED_CODES = frozenset({190, 102, 10, *range(200, 300)})
_sleep = time.sleep


def api_for(credentials: dict) -> FacebookAdsApi:
    """An API object of the connection's own (never the library's global default)."""
    session = FacebookSession(access_token=credentials["access_token"], timeout=TIMEOUT_SECONDS)
    session.GRAPH = settings.META_GRAPH_BASE
    return FacebookAdsApi(session)


def _refused(error: FacebookRequestError) -> bool:
    return error.http_status() in (401, 403) or error.api_error_code() in REFUSED_CODES


def _limited(error: FacebookRequestError) -> bool:
    return error.http_status() == 429 or error.api_error_code() in RATE_LIMIT_CODES


def _call(api: FacebookAdsApi, what: str, path: tuple, params: dict) -> dict:
    for wait in (*BACKOFF, None):
        try:
            return api.call("GET", path, params=params).json()
        except FacebookRequestError as error:
            reason = error.api_error_message() or f"HTTP {error.http_status()}"
            if _limited(error):
                if wait is None:
                    raise ProviderLimited(
                        f"Meta kept asking us to slow down while we read {what} "
                        f"(code {error.api_error_code()}): {reason}"
                    ) from error
                _sleep(wait)
                continue
            if _refused(error):
                raise ProviderRefused(
                    f"Meta refused the access token for {what} (code "
                    f"{error.api_error_code()}): {reason}"
                ) from error
            if (error.http_status() or 0) >= 500 or error.api_transient_error():
                raise ProviderUnreachable(f"Meta could not answer {what}: {reason}") from error
            raise ProviderError(f"Meta could not read {what}: {reason}") from error
        except requests.RequestException as error:
            raise ProviderUnreachable(
                f"Meta could not be reached to read {what}: {error}"
            ) from error
        except ValueError as error:
            raise ProviderError(f"Meta's answer about {what} is not JSON.") from error
    raise AssertionError("unreachable")


def account_read(api: FacebookAdsApi, account_id: str) -> dict:
    """The ad account's `id`, `name` and `currency`."""
    return _call(api, f"the ad account {account_id}", (account_id,), {"fields": "name,currency"})


def insights_page(
    api: FacebookAdsApi, account_id: str, *, since: str, until: str, after: str | None
) -> tuple[list[dict], str | None]:
    """One page of the account's campaign insights, one row per campaign per day between
    ``since`` and ``until`` (ISO days, both included), and the ``after`` cursor of the next
    page (None at the end)."""
    params = {
        "level": "campaign",
        "time_increment": 1,
        "time_range": {"since": since, "until": until},
        "fields": ",".join(INSIGHTS_FIELDS),
        "limit": PAGE_SIZE,
    }
    if after:
        params["after"] = after
    answer = _call(api, f"the insights of {account_id}", (account_id, "insights"), params)
    paging = answer.get("paging") or {}
    following = (paging.get("cursors") or {}).get("after") if paging.get("next") else None
    return list(answer.get("data") or []), following
