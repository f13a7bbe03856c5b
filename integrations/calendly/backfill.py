"""The last 90 days of bookings read through Calendly's API, and the webhook subscription.

The token's user's scheduled events starting in the last 90 days (and every later one)
are read page by page with their invitees. Each invitee becomes a BackfillItem shaped like
the webhook it stands for: `invitee.created`, and `invitee.canceled` when it was canceled,
and `invitee_no_show.created` when it is marked a no-show. Their ids are made from the
invitee as a webhook's are (event, uri, the time of the change), so reading again stores
nothing twice, and the records are keyed on the invitee's uri, as the webhooks' are.

The cursor (`{since, page_token}`) says where the events' pages stand.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from ..base import BackfillItem, BackfillPage
from ..selectors import webhook_url
from . import mapping
from .client import CalendlyClient, CalendlyError

DAYS = 90


def _now() -> datetime:
    return datetime.now(tz=UTC)


def _since() -> str:
    start = _now() - timedelta(days=DAYS)
    return start.strftime("%Y-%m-%dT%H:%M:%S.000000Z")


def _item(event_type: str, created_at, user: str, body: dict) -> BackfillItem | None:
    payload = {"event": event_type, "created_at": created_at, "created_by": user, "payload": body}
    described = mapping.describe(payload)
    if not described.event_id:
        return None
    return BackfillItem(described=described, payload=payload)


def invitee_items(invitee: dict, scheduled_event: dict, user: str) -> list[BackfillItem]:
    """The webhooks an invitee read from the API stands for."""
    body = {**invitee, "scheduled_event": scheduled_event}
    items = [_item(mapping.CREATED, invitee.get("created_at"), user, body)]
    if invitee.get("status") == "canceled":
        cancellation = invitee.get("cancellation") or {}
        at = cancellation.get("created_at") or invitee.get("updated_at")
        items.append(_item(mapping.CANCELED, at, user, body))
    no_show = invitee.get("no_show")
    if isinstance(no_show, dict) and no_show.get("uri"):
        mark = {
            "uri": no_show["uri"],
            "invitee": invitee.get("uri"),
            "created_at": no_show.get("created_at"),
        }
        items.append(_item(mapping.NO_SHOW_CREATED, no_show.get("created_at"), user, mark))
    return [item for item in items if item is not None]


def pages(*, connection, credentials: dict, cursor: dict | None) -> Iterator[BackfillPage]:
    cursor = dict(cursor or {})
    since = cursor.get("since") or _since()
    token = cursor.get("page_token")
    with CalendlyClient(credentials["personal_access_token"]) as client:
        user = client.me()["uri"]
        while True:
            page = client.scheduled_events(user=user, min_start_time=since, page_token=token)
            items = []
            for scheduled_event in page.get("collection") or []:
                event_uuid = str(scheduled_event.get("uri") or "").rstrip("/").rsplit("/", 1)[-1]
                if not event_uuid:
                    continue
                for invitee in client.invitees(event_uuid):
                    items += invitee_items(invitee, scheduled_event, user)
            token = (page.get("pagination") or {}).get("next_page_token")
            following = {"since": since, "page_token": token} if token else None
            yield BackfillPage(items=items, cursor=following)
            if following is None:
                return


def subscribe(*, connection, credentials: dict, signing_secret: str | None) -> dict:
    """Create the webhook subscription when the service generated the signing key (the
    client made none at Calendly). Returns what to keep in the connection's options."""
    options = connection.options or {}
    if not options.get("signing_secret_generated") or options.get("webhook_subscription"):
        return {}
    if not signing_secret:
        return {}
    url = webhook_url(connection)
    with CalendlyClient(credentials["personal_access_token"]) as client:
        user = client.me()
        where = {"organization": user["current_organization"], "user": user["uri"]}
        try:
            subscription = client.webhook_subscription_create(
                url=url, signing_key=signing_secret, **where
            )
        except CalendlyError as error:
            if error.status != 409:
                raise
            # Already subscribed: an earlier run made it and stopped before keeping its uri
            # (the URL names this connection, and its key never changes).
            subscription = next(
                (s for s in client.webhook_subscriptions(**where) if s.get("callback_url") == url),
                None,
            )
            if subscription is None:
                raise
    return {"webhook_subscription": subscription.get("uri", "")}
