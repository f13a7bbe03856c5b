"""Calendly's API v2 over httpx, with a personal access token (Bearer).

Calendly publishes no official Python library: the few calls the service makes are
written here. A 429 is waited out (Calendly's Retry-After, capped, a few times) before it
becomes a ProviderError; a refused token is a ProviderError a person can act on.
"""

from __future__ import annotations

import time

import httpx
from django.conf import settings

from ..base import (
    LIMITED,
    REFUSED,
    UNEXPECTED,
    UNREACHABLE,
    ProviderError,
    ProviderLimited,
)

PAGE_SIZE = 100
TIMEOUT_SECONDS = 20
# Waits after a 429 when Calendly names none, in seconds; then the call gives up.
BACKOFF = (1, 2, 4, 8, 16)
RETRY_AFTER_MAX = 60
WEBHOOK_EVENTS = (
    "invitee.created",
    "invitee.canceled",
    "invitee_no_show.created",
    "invitee_no_show.deleted",
)


class CalendlyError(ProviderError):
    """Calendly refused a call; `status` is its HTTP status (0 when unreachable)."""

    def __init__(self, message: str, *, status: int = 0):
        super().__init__(message, kind=_kind_of(status))
        self.status = status


def _kind_of(status: int) -> str:
    if status == 0 or status >= 500:
        return UNREACHABLE
    if status in (401, 403):
        return REFUSED
    if status == 429:
        return LIMITED
    return UNEXPECTED


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    if not isinstance(body, dict):
        return ""
    return str(body.get("message") or body.get("title") or "")


class CalendlyClient:
    def __init__(self, token: str, *, sleep=None, transport: httpx.BaseTransport | None = None):
        self._sleep = sleep
        self._http = httpx.Client(
            base_url=settings.CALENDLY_API_BASE,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=TIMEOUT_SECONDS,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> CalendlyClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _wait(self, seconds: float) -> None:
        (self._sleep or _sleep)(seconds)

    def _request(self, method: str, path: str, *, params=None, json=None) -> dict:
        for wait in (*BACKOFF, None):
            try:
                response = self._http.request(method, path, params=params, json=json)
            except httpx.HTTPError as error:
                raise CalendlyError(f"Calendly could not be reached ({error}).") from error
            if response.status_code == 429:
                if wait is None:
                    raise ProviderLimited("Calendly kept answering 429 (too many requests).")
                retry_after = response.headers.get("Retry-After", "")
                self._wait(
                    min(int(retry_after), RETRY_AFTER_MAX) if retry_after.isdigit() else wait
                )
                continue
            if response.status_code == 401:
                raise CalendlyError(
                    "Calendly refused the personal access token (401): it is wrong, expired "
                    "or revoked. Create a new one and connect again.",
                    status=401,
                )
            if response.status_code == 403:
                raise CalendlyError(
                    "Calendly refused access (403): the token's user may not read these "
                    f"bookings or manage webhooks. {_message(response)}".strip(),
                    status=403,
                )
            if response.status_code >= 400:
                raise CalendlyError(
                    f"Calendly answered {response.status_code} to {method} {path}: "
                    f"{_message(response) or 'no reason given'}.",
                    status=response.status_code,
                )
            try:
                return response.json()
            except ValueError as error:
                raise ProviderError(f"Calendly's answer to {path} is not JSON.") from error
        raise AssertionError("unreachable")

    def me(self) -> dict:
        """The token's user: `uri`, `email`, `current_organization`..."""
        return self._request("GET", "/users/me")["resource"]

    def scheduled_events(self, *, user: str, min_start_time: str, page_token=None) -> dict:
        """One page of the user's events starting at or after `min_start_time`:
        `{"collection": [...], "pagination": {"next_page_token": ...}}`."""
        params = {"user": user, "min_start_time": min_start_time, "count": PAGE_SIZE}
        if page_token:
            params["page_token"] = page_token
        return self._request("GET", "/scheduled_events", params=params)

    def invitees(self, event_uuid: str) -> list[dict]:
        """Every invitee of one event (active and canceled), page by page."""
        invitees, token = [], None
        while True:
            params = {"count": PAGE_SIZE}
            if token:
                params["page_token"] = token
            page = self._request("GET", f"/scheduled_events/{event_uuid}/invitees", params=params)
            invitees += page.get("collection") or []
            token = (page.get("pagination") or {}).get("next_page_token")
            if not token:
                return invitees

    def webhook_subscription_create(
        self, *, url: str, organization: str, user: str, signing_key: str
    ) -> dict:
        """Subscribe `url` to the four invitee events of the user, signed with the key."""
        return self._request(
            "POST",
            "/webhook_subscriptions",
            json={
                "url": url,
                "events": list(WEBHOOK_EVENTS),
                "organization": organization,
                "user": user,
                "scope": "user",
                "signing_key": signing_key,
            },
        )["resource"]

    def webhook_subscriptions(self, *, organization: str, user: str) -> list[dict]:
        """The user's webhook subscriptions (first page: a user has few)."""
        page = self._request(
            "GET",
            "/webhook_subscriptions",
            params={
                "organization": organization,
                "user": user,
                "scope": "user",
                "count": PAGE_SIZE,
            },
        )
        return page.get("collection") or []
