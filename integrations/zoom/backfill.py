"""The last 90 days of webinars, their registrants and their participants, read through
Zoom's REST API with the connection's Server-to-Server OAuth app.

The app's account ID, client ID and secret buy an access token
(`POST https://zoom.us/oauth/token?grant_type=account_credentials&account_id=…`, basic
auth), good for an hour and bought again when Zoom answers 401. Then, page by page
(`next_page_token`):
- `GET /v2/users/me/webinars?type=scheduled`: the webinars that start in the last 90 days
  or later, each as a `webinar.created` event read now;
- per webinar, `GET /v2/webinars/{id}/registrants`: each registrant as a
  `webinar.registration_created` at its `create_time`;
- per webinar that has started, `GET /v2/report/webinars/{uuid}/participants`: each
  session as a `webinar.participant_joined` at its join time and a
  `webinar.participant_left` at its leave time (the report has the times; the
  `past_webinars` list of participants has none).
Each item is shaped like the webhook it stands for and goes through the same mapping, so
backfill and webhooks make the same records. A 429 waits for `Retry-After` (or longer
each time) before asking again.

The cursor says where the backfill stands: listing webinars (with the page token), or at
which webinar, which resource and which page; it carries the webinars listed and since
when (fixed when the backfill starts), so a restarted worker resumes where it stopped.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

import httpx
from django.conf import settings

from ..base import (
    BackfillItem,
    BackfillPage,
    ProviderError,
    ProviderLimited,
    ProviderRefused,
    ProviderUnreachable,
)
from . import mapping

DAYS = 90
PAGE_SIZE = 300
# Waits after a 429 without Retry-After, in seconds, before giving up.
BACKOFF = (1, 2, 4, 8, 16, 32)
TIMEOUT = 30
_sleep = time.sleep


def _now() -> datetime:
    return datetime.now(tz=UTC)


class ZoomClient:
    def __init__(self, credentials: dict, *, http: httpx.Client | None = None):
        self.credentials = credentials
        self.http = http or httpx.Client(timeout=TIMEOUT)
        self.token = None

    def _token(self) -> str:
        try:
            answer = self.http.post(
                f"{settings.ZOOM_OAUTH_BASE}/token",
                params={
                    "grant_type": "account_credentials",
                    "account_id": self.credentials.get("account_id", ""),
                },
                auth=(
                    self.credentials.get("client_id", ""),
                    self.credentials.get("client_secret", ""),
                ),
            )
        except httpx.HTTPError as error:
            raise ProviderUnreachable(f"Zoom could not be reached: {error}") from error
        if answer.status_code >= 500:
            raise ProviderUnreachable(f"Zoom's token endpoint answered {answer.status_code}.")
        if answer.status_code == 429:
            raise ProviderLimited("Zoom's token endpoint answered 429 (too many requests).")
        if answer.status_code != 200 or not answer.json().get("access_token"):
            raise ProviderRefused(
                f"Zoom refused the app's account ID, client ID or secret ({answer.status_code})."
            )
        return answer.json()["access_token"]

    def get(self, path: str, params: dict) -> dict | None:
        """One page of a list; None when Zoom does not have it (404: a webinar deleted, a
        report not made yet)."""
        waits = list(BACKOFF)
        renewed = False
        while True:
            if self.token is None:
                self.token = self._token()
            try:
                answer = self.http.get(
                    f"{settings.ZOOM_API_BASE}{path}",
                    params=params,
                    headers={"Authorization": f"Bearer {self.token}"},
                )
            except httpx.HTTPError as error:
                raise ProviderUnreachable(f"Zoom could not be reached: {error}") from error
            if answer.status_code == 200:
                return answer.json()
            if answer.status_code == 404:
                return None
            if answer.status_code == 401 and not renewed:
                self.token, renewed = None, True
                continue
            if answer.status_code == 429:
                if not waits:
                    raise ProviderLimited("Zoom kept answering 429 (too many requests).")
                retry_after = answer.headers.get("Retry-After", "")
                fallback = waits.pop(0)
                _sleep(int(retry_after) if retry_after.isdigit() else fallback)
                continue
            message = ""
            with contextlib.suppress(ValueError):
                message = answer.json().get("message") or ""
            if answer.status_code in (401, 403):
                raise ProviderRefused(
                    f"Zoom refused to list {path} ({answer.status_code}): {message} Give the "
                    "app the scopes webinar:read:admin and report:read:admin."
                )
            failed = ProviderUnreachable if answer.status_code >= 500 else ProviderError
            raise failed(f"Zoom answered {answer.status_code} on {path}: {message}")


def _uuid_path(value: str) -> str:
    """Zoom asks for a webinar UUID starting with / or holding // to be encoded twice."""
    once = quote(value, safe="")
    return quote(once, safe="") if value.startswith("/") or "//" in value else once


def _ms(moment: datetime | None) -> int:
    return int(moment.timestamp() * 1000) if moment else 0


def _item(event_type: str, event_ts: int, obj: dict, account_id: str) -> BackfillItem:
    payload = {
        "event": event_type,
        "event_ts": event_ts,
        "payload": {"account_id": account_id, "object": obj},
    }
    return BackfillItem(described=mapping.describe(payload), payload=payload)


def _webinar_object(webinar: dict) -> dict:
    return {
        key: webinar[key]
        for key in ("uuid", "id", "host_id", "topic", "type", "start_time", "duration", "timezone")
        if key in webinar
    }


def _registrant_items(webinar: dict, registrants: list, account_id: str) -> list:
    items = []
    for registrant in registrants:
        if not isinstance(registrant, dict) or not registrant.get("email"):
            continue
        created = mapping.zoom_time(registrant.get("create_time"))
        obj = {**_webinar_object(webinar), "registrant": registrant}
        items.append(_item(mapping.REGISTERED, _ms(created), obj, account_id))
    return items


def _participant_items(webinar: dict, rows: list, account_id: str) -> list:
    items = []
    for row in rows:
        if not isinstance(row, dict) or not row.get("user_email"):
            continue
        person = {
            "id": row.get("id") or "",
            "user_id": row.get("user_id") or "",
            "user_name": row.get("name") or "",
            "email": row["user_email"],
            "registrant_id": row.get("registrant_id") or "",
        }
        joined = mapping.zoom_time(row.get("join_time"))
        left = mapping.zoom_time(row.get("leave_time"))
        if joined is not None:
            obj = {
                **_webinar_object(webinar),
                "participant": {**person, "join_time": row["join_time"]},
            }
            items.append(_item(mapping.JOINED, _ms(joined), obj, account_id))
        if left is not None:
            obj = {
                **_webinar_object(webinar),
                "participant": {**person, "leave_time": row["leave_time"]},
            }
            items.append(_item(mapping.LEFT, _ms(left), obj, account_id))
    return items


def _webinar_pages(client, *, cursor: dict, since: int, now, account_id: str, webinars: list):
    """The stage that lists the webinars (from 90 days back), page by page."""
    token = cursor.get("token") or ""
    while True:
        params = {"type": "scheduled", "page_size": PAGE_SIZE}
        if token:
            params["next_page_token"] = token
        listed = client.get("/users/me/webinars", params) or {}
        items = []
        for webinar in listed.get("webinars") or []:
            start = mapping.zoom_time(webinar.get("start_time"))
            if start is None or start.timestamp() < since:
                continue
            object_ = _webinar_object(webinar)
            items.append(_item(mapping.EventType.WEBINAR_CREATED, _ms(now), object_, account_id))
            webinars.append(object_)
        token = listed.get("next_page_token") or ""
        if token:
            following = {"since": since, "stage": "webinars", "token": token, "webinars": webinars}
        elif webinars:
            following = {
                "since": since,
                "stage": "people",
                "index": 0,
                "resource": "registrants",
                "webinars": webinars,
            }
        else:
            following = None
        yield BackfillPage(items=items, cursor=following)
        if not token:
            return


def _people_listed(client, webinar: dict, resource: str, token: str, now) -> dict:
    """One page of a webinar's registrants or (once it started) its participants."""
    started = mapping.zoom_time(webinar.get("start_time"))
    if resource == "participants" and (started is None or started > now):
        return {}
    params = {"page_size": PAGE_SIZE}
    if token:
        params["next_page_token"] = token
    if resource == "registrants":
        return client.get(f"/webinars/{webinar['id']}/registrants", params) or {}
    path = f"/report/webinars/{_uuid_path(str(webinar.get('uuid') or webinar['id']))}"
    return client.get(f"{path}/participants", params) or {}


def _people_pages(client, *, cursor: dict, since: int, now, account_id: str, webinars: list):
    """The stage that reads each webinar's registrants, then its participants."""
    index = cursor.get("index", 0)
    resource = cursor.get("resource", "registrants")
    token = cursor.get("token") or ""
    while index < len(webinars):
        webinar = webinars[index]
        listed = _people_listed(client, webinar, resource, token, now)
        if resource == "registrants":
            items = _registrant_items(webinar, listed.get("registrants") or [], account_id)
        else:
            items = _participant_items(webinar, listed.get("participants") or [], account_id)
        token = listed.get("next_page_token") or ""
        if not token:
            if resource == "registrants":
                resource = "participants"
            else:
                index, resource = index + 1, "registrants"
        following = None
        if index < len(webinars):
            following = {
                "since": since,
                "stage": "people",
                "index": index,
                "resource": resource,
                "webinars": webinars,
            }
            if token:
                following["token"] = token
        yield BackfillPage(items=items, cursor=following)


def pages(
    *, connection, credentials: dict, cursor: dict | None, client: ZoomClient | None = None
) -> Iterator[BackfillPage]:
    cursor = dict(cursor or {})
    now = _now()
    stage = {
        "since": cursor.get("since") or int((now - timedelta(days=DAYS)).timestamp()),
        "now": now,
        "account_id": credentials.get("account_id", ""),
        "webinars": list(cursor.get("webinars") or []),
    }
    client = client or ZoomClient(credentials)
    if cursor.get("stage", "webinars") == "webinars":
        following = None
        for page in _webinar_pages(client, cursor=cursor, **stage):
            following = page.cursor
            yield page
        cursor = following or {}
    if cursor:
        yield from _people_pages(client, cursor=cursor, **stage)
