"""Google Ads through its documented REST interface, over httpx.

Google's `google-ads` library speaks gRPC only, which cannot be pointed at a local HTTP
stand-in; the REST interface is the same API (the same GAQL, the same fields, in JSON
with camelCase names and int64 numbers as strings).

An access token is bought from the refresh token at GOOGLE_OAUTH_TOKEN_URL (bought again
once when the API answers 401); the reports are read with
`POST {GOOGLE_ADS_API_BASE}/{GOOGLE_ADS_API_VERSION}/customers/{id}/googleAds:searchStream`
and the developer token (and, for a manager account, `login-customer-id`). A 429 or
RESOURCE_EXHAUSTED is waited out (Retry-After, else 1, 2, 4... 32 seconds) before it
becomes a `limited` failure; a refused credential is `refused`; no answer `unreachable`.
"""

from __future__ import annotations

import time

import httpx
from django.conf import settings

from ..base import ProviderError, ProviderLimited, ProviderRefused, ProviderUnreachable

BACKOFF = (1, 2, 4, 8, 16, 32)
TIMEOUT_SECONDS = 60
RETRY_AFTER_MAX = 60
_sleep = time.sleep


def digits(customer_id: str) -> str:
    return "".join(character for character in customer_id or "" if character.isdigit())


def _message(answer: httpx.Response) -> str:
    try:
        body = answer.json()
    except ValueError:
        return answer.text[:300]
    if isinstance(body, list) and body:
        body = body[0]
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict):
            return _error_text(error)
        if isinstance(error, str):
            return f"{error}: {body.get('error_description', '')}"[:300]
    return ""


def _error_text(error: dict) -> str:
    """Google's message, and the Google Ads failures its details carry (what is wrong
    with the developer token or the customer)."""
    said = [str(error.get("message") or error.get("status") or "")]
    for detail in error.get("details") or []:
        if isinstance(detail, dict):
            said += [
                str(failure.get("message"))
                for failure in detail.get("errors") or []
                if isinstance(failure, dict) and failure.get("message")
            ]
    return " ".join(part for part in said if part)[:500]


# Google Ads failures whose remedy the kind alone does not say, by their error code (a
# fixed vocabulary, never an echo of what was sent), in our words.
KNOWN_FAILURES = {
    "DEVELOPER_TOKEN_NOT_APPROVED": (
        "Google Ads approved this developer token for test accounts only: apply for Basic "
        "access in the Google Ads API Center, then press Retry."
    ),
    "DEVELOPER_TOKEN_PROHIBITED": (
        "Google Ads does not allow this developer token for this account: use the "
        "developer token of the manager account you connect through."
    ),
    "USER_PERMISSION_DENIED": (
        "The Google account of the refresh token has no access to this customer: grant it "
        "access, or give the manager account's id as the login customer id."
    ),
    "CUSTOMER_NOT_ENABLED": (
        "The Google Ads account is not enabled (cancelled or never set up): connect an "
        "active account."
    ),
}


def _known_words(answer: httpx.Response) -> str:
    """Our sentence for a Google Ads failure code the answer carries, or ""."""
    try:
        body = answer.json()
    except ValueError:
        return ""
    if isinstance(body, list) and body:
        body = body[0]
    error = body.get("error") if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        for failure in (detail.get("errors") or []) if isinstance(detail, dict) else []:
            codes = failure.get("errorCode") if isinstance(failure, dict) else None
            for code in codes.values() if isinstance(codes, dict) else []:
                if isinstance(code, str) and code in KNOWN_FAILURES:
                    return KNOWN_FAILURES[code]
    return ""


def _status(answer: httpx.Response) -> str:
    try:
        body = answer.json()
    except ValueError:
        return ""
    if isinstance(body, list) and body:
        body = body[0]
    error = body.get("error") if isinstance(body, dict) else None
    return str(error.get("status") or "") if isinstance(error, dict) else ""


def _rows(answer: httpx.Response) -> list[dict]:
    """The rows of every batch of a searchStream answer."""
    try:
        batches = answer.json()
    except ValueError as error:
        raise ProviderError("Google Ads' answer is not JSON.") from error
    if isinstance(batches, dict):
        batches = [batches]
    return [row for batch in batches for row in batch.get("results") or []]


class GoogleAdsClient:
    def __init__(self, credentials: dict, *, http: httpx.Client | None = None):
        self.credentials = credentials
        self.http = http or httpx.Client(timeout=TIMEOUT_SECONDS)
        self.token: str | None = None

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> GoogleAdsClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _token(self) -> str:
        try:
            answer = self.http.post(
                settings.GOOGLE_OAUTH_TOKEN_URL,
                data={
                    "grant_type": "refresh_token",
                    "client_id": self.credentials.get("client_id", ""),
                    "client_secret": self.credentials.get("client_secret", ""),
                    "refresh_token": self.credentials.get("refresh_token", ""),
                },
            )
        except httpx.HTTPError as error:
            raise ProviderUnreachable(
                f"Google's token endpoint could not be reached: {error}"
            ) from error
        if answer.status_code >= 500:
            raise ProviderUnreachable(f"Google's token endpoint answered {answer.status_code}.")
        if answer.status_code == 429:
            raise ProviderLimited("Google's token endpoint answered 429 (too many requests).")
        token = answer.json().get("access_token") if answer.status_code == 200 else None
        if not token:
            raise ProviderRefused(
                f"Google refused the OAuth client or refresh token ({answer.status_code}): "
                f"{_message(answer)}"
            )
        return token

    def _headers(self) -> dict:
        headers = {
            "Authorization": f"Bearer {self.token}",
            "developer-token": self.credentials.get("developer_token", ""),
        }
        login = digits(self.credentials.get("login_customer_id", ""))
        if login:
            headers["login-customer-id"] = login
        return headers

    def search_stream(self, customer_id: str, query: str) -> list[dict]:
        """Every row GAQL ``query`` selects, from all the stream's batches."""
        customer = digits(customer_id)
        url = (
            f"{settings.GOOGLE_ADS_API_BASE}/{settings.GOOGLE_ADS_API_VERSION}/customers/"
            f"{customer}/googleAds:searchStream"
        )
        waits, renewed = list(BACKOFF), False
        while True:
            if self.token is None:
                self.token = self._token()
            try:
                answer = self.http.post(url, json={"query": query}, headers=self._headers())
            except httpx.HTTPError as error:
                raise ProviderUnreachable(f"Google Ads could not be reached: {error}") from error
            if answer.status_code == 200:
                return _rows(answer)
            if answer.status_code == 401 and not renewed:
                self.token, renewed = None, True
                continue
            if answer.status_code == 429 or _status(answer) == "RESOURCE_EXHAUSTED":
                if not waits:
                    raise ProviderLimited(
                        f"Google Ads kept asking us to slow down: {_message(answer)}"
                    )
                retry_after = answer.headers.get("Retry-After", "")
                fallback = waits.pop(0)
                _sleep(
                    min(int(retry_after), RETRY_AFTER_MAX) if retry_after.isdigit() else fallback
                )
                continue
            if answer.status_code in (401, 403):
                raise ProviderRefused(
                    f"Google Ads refused the credentials for customer {customer} "
                    f"({answer.status_code}): {_message(answer)}",
                    words=_known_words(answer),
                )
            failed = ProviderUnreachable if answer.status_code >= 500 else ProviderError
            raise failed(f"Google Ads answered {answer.status_code}: {_message(answer)}")
