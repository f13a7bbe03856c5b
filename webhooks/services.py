"""Webhook endpoints and the delivery of events to them.

Endpoints are written here only, each write with its audit event. Deliveries follow the
Standard Webhooks specification: a POST of the event's JSON, signed with the endpoint's
secret (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`),
at least once, retried on SCHEDULE, the endpoint disabled and its owners emailed after
three days of failures. The HTTP send of one attempt is webhooks.transport's; the circuit
breaker's arithmetic is webhooks.breaker's, its counts and pauses written here.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from audit.services import SYSTEM, Actor, audit_record
from core.crypto import encrypt_text
from core.display import utc_clock_text, utc_moment_text
from core.errors import InvalidField
from core.mail import mail_send
from core.metrics import OUTBOUND, OUTBOUND_DEFERRED
from core.tasks import task_send
from core.throttling import rate_count
from core.times import instant_parse
from core.times import utc_iso as _iso
from events.services import event_claim, event_record, events_prune, events_undispatched
from events.types import EVENT_TYPES, PING
from workspaces.models import Member, Workspace

from . import breaker, guard, transport
from .dispatch import wants_forget
from .models import Delivery, DeliveryAttempt, WebhookEndpoint
from .slots import slots_free, slots_give_back, slots_take
from .transport import Outcome

logger = logging.getLogger(__name__)

MAX_ENDPOINTS = 20
# The wait before each retry: an attempt that fails is tried again after 5 s, 5 min,
# 30 min, 2 h, 5 h, 10 h and 10 h; the eighth failure is the last.
SCHEDULE = (
    timedelta(seconds=5),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=5),
    timedelta(hours=10),
    timedelta(hours=10),
)
DISABLE_AFTER = timedelta(days=3)
KEEP = timedelta(days=30)


def _now() -> datetime:
    """The clock of deliveries (the retry-schedule tests move it)."""
    return timezone.now()


def now_for_pages() -> datetime:
    """The clock the pages judge a pause by (the deliveries' own)."""
    return _now()


def secret_new() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


# --- Endpoints ---------------------------------------------------------------------------


def _url_checked(url: str) -> str:
    try:
        guard.url_check(url, unresolved_ok=True)
    except guard.UrlRefused as refused:
        raise InvalidField("url", f"url: {refused.message}") from None
    return url


def _types_checked(types: list[str] | None) -> list[str]:
    types = list(dict.fromkeys(types or []))
    unknown = [name for name in types if name not in EVENT_TYPES]
    if unknown:
        raise InvalidField(
            "events",
            f"events: unknown event type(s) {', '.join(unknown)}; the types are "
            f"{', '.join(EVENT_TYPES)}.",
        )
    return types


def _description_checked(description: str) -> str:
    if len(description) > 200:
        raise InvalidField("description", "description: at most 200 characters.")
    return description


@dataclass(frozen=True)
class Created:
    endpoint: WebhookEndpoint
    secret: str


def endpoint_create(
    *,
    workspace: Workspace,
    url: str,
    events: list[str] | None = None,
    description: str = "",
    enabled: bool = True,
    actor: Actor,
) -> Created:
    """A new endpoint and its signing secret (shown once: only its encryption is kept)."""
    url = _url_checked(url)
    types = _types_checked(events)
    description = _description_checked(description)
    secret = secret_new()
    with transaction.atomic():
        # One endpoint written at a time per workspace, so the limit holds.
        Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
        if WebhookEndpoint.objects.filter(workspace=workspace).count() >= MAX_ENDPOINTS:
            raise InvalidField(
                "url",
                f"A workspace has at most {MAX_ENDPOINTS} webhook endpoints; delete one first.",
            )
        endpoint = WebhookEndpoint.objects.create(
            workspace=workspace,
            url=url,
            event_types=types,
            description=description,
            enabled=enabled,
            secret_encrypted=encrypt_text(secret),
        )
        audit_record(
            actor=actor,
            action="webhook_endpoint.created",
            target_type="webhook_endpoint",
            target_id=endpoint.pk,
            workspace=workspace,
            detail={"url": url, "events": types, "enabled": enabled},
        )
        wants_forget(workspace.pk)
    return Created(endpoint=endpoint, secret=secret)


def endpoint_update(*, endpoint: WebhookEndpoint, changes: dict, actor: Actor) -> WebhookEndpoint:
    """Change an endpoint's url, events, description or enabled. Enabling it again clears
    its failures."""
    values = {}
    if "url" in changes:
        values["url"] = _url_checked(changes["url"])
    if "events" in changes:
        values["event_types"] = _types_checked(changes["events"])
    if "description" in changes:
        values["description"] = _description_checked(changes["description"])
    if "enabled" in changes:
        values["enabled"] = bool(changes["enabled"])
    with transaction.atomic():
        endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
        changed = {k: v for k, v in values.items() if getattr(endpoint, k) != v}
        if not changed:
            return endpoint
        if changed.get("enabled") is True:
            changed["failing_since"] = None
            changed["disabled_reason"] = ""
        for name, value in changed.items():
            setattr(endpoint, name, value)
        endpoint.updated_at = _now()
        endpoint.save(update_fields=[*changed, "updated_at"])
        audit_record(
            actor=actor,
            action="webhook_endpoint.updated",
            target_type="webhook_endpoint",
            target_id=endpoint.pk,
            workspace=endpoint.workspace,
            detail={
                ("events" if k == "event_types" else k): v
                for k, v in changed.items()
                if k in ("url", "event_types", "description", "enabled")
            },
        )
        wants_forget(endpoint.workspace_id)
    if changed.get("enabled") is True:
        # What waited while it was off is sent now.
        transaction.on_commit(lambda: deliveries_send_due(endpoint_id=endpoint.pk), robust=True)
    return endpoint


def endpoint_delete(*, endpoint: WebhookEndpoint, actor: Actor) -> None:
    with transaction.atomic():
        endpoint_id, workspace = endpoint.pk, endpoint.workspace
        endpoint.delete()
        audit_record(
            actor=actor,
            action="webhook_endpoint.deleted",
            target_type="webhook_endpoint",
            target_id=endpoint_id,
            workspace=workspace,
            detail={"url": endpoint.url},
        )
        wants_forget(workspace.pk)


def endpoint_answer(endpoint: WebhookEndpoint, *, secret: str | None = None) -> dict:
    """An endpoint as the API answers it; the secret only in the answer that made it."""
    body = {
        "id": str(endpoint.pk),
        "url": endpoint.url,
        "events": list(endpoint.event_types),
        "description": endpoint.description,
        "enabled": endpoint.enabled,
        "created_at": _iso(endpoint.created_at),
    }
    if secret is not None:
        body["secret"] = secret
    return body


# --- Deliveries --------------------------------------------------------------------------


# The deliveries of an event its own task attempts at once; more endpoints than this get a
# task each, so one slow endpoint holds back only these.
ATTEMPT_AT_ONCE = 4


@dataclass
class Made:
    """An event's deliveries: those to attempt now (already held for it) and those to queue
    (held until `lease` for the message that will carry them)."""

    now: list[Delivery]
    queued: list[int]
    lease: datetime | None = None


def deliveries_make(event_seq: int, *, held: int = ATTEMPT_AT_ONCE) -> Made:
    """The deliveries of an event to the enabled endpoints that want it (once: a second
    run finds the event dispatched), each attempted now only while its endpoint and its
    workspace have a free slot (the others wait for one). Of those, the first `held` are
    made held for an attempt by the caller (attempt_held), so nobody else attempts them
    meanwhile; the rest are held for their messages, to send with deliveries_send."""
    now = _now()
    with transaction.atomic():
        event = event_claim(event_seq)
        if event is None:
            return Made(now=[], queued=[])
        endpoints = [
            endpoint
            for endpoint in WebhookEndpoint.objects.filter(
                workspace_id=event.workspace_id, enabled=True
            )
            if endpoint.wants(event.type)
        ]
        # A paused endpoint's deliveries wait, held by nobody, for the sweep after its
        # cool-off; the others come first.
        endpoints.sort(key=lambda endpoint: breaker.paused(endpoint, now))
        open_ = sum(1 for endpoint in endpoints if not breaker.paused(endpoint, now))
        room = _queue_room(event.workspace_id, endpoints[:open_])
        # The n-th delivery with room to run: the first `held` of them are attempted by
        # the caller.
        turn = [sum(room[:n]) if n < open_ and room[n] else None for n in range(len(endpoints))]
        held_until = now + timedelta(seconds=_lease_seconds())
        lease = _queued_lease(now)

        def state(n: int) -> dict:
            if n >= open_:
                return {"next_attempt_at": now, "leased_until": None}  # paused
            if turn[n] is None:
                return _slot_wait(now)
            return {"next_attempt_at": now, "leased_until": held_until if turn[n] < held else lease}

        deliveries = Delivery.objects.bulk_create(
            [
                Delivery(event=event, endpoint=endpoint, **state(n))
                for n, endpoint in enumerate(endpoints)
            ]
        )
    made = [(turn[n], delivery) for n, delivery in enumerate(deliveries) if turn[n] is not None]
    return Made(
        now=[delivery for n, delivery in made if n < held],
        queued=[delivery.pk for n, delivery in made if n >= held],
        lease=lease,
    )


def _queue_room(workspace_id, endpoints: list[WebhookEndpoint]) -> list[bool]:
    """For each endpoint in turn, whether to attempt its delivery now: while the workspace
    and the endpoint have a free slot as the cache counts them. The others wait for a slot
    at once (_slot_wait), as an attempt that found none would: a fan-out to endpoints that
    are all busy makes no attempt and sends no message that would only be put off."""
    free = slots_free(workspace_id=workspace_id, endpoint_ids=[e.pk for e in endpoints])
    if free is None:
        return [True] * len(endpoints)
    workspace_free, endpoint_free = free
    room = []
    for endpoint in endpoints:
        own = endpoint_free[endpoint.pk]
        fits = (workspace_free is None or workspace_free > 0) and (own is None or own > 0)
        if fits:
            workspace_free = None if workspace_free is None else workspace_free - 1
            endpoint_free[endpoint.pk] = None if own is None else own - 1
        room.append(fits)
    return room


def _slot_wait(now: datetime) -> dict:
    """A delivery waiting for a slot, held by nobody: sent by the next attempt of its
    endpoint or workspace to end, or by the sweep after WEBHOOK_SLOT_WAIT_SECONDS."""
    return {
        "next_attempt_at": now + timedelta(seconds=settings.WEBHOOK_SLOT_WAIT_SECONDS),
        "leased_until": None,
        "waiting_slot": True,
    }


def _lease_seconds() -> int:
    return settings.WEBHOOK_TIMEOUT_SECONDS + 5


def _due(now: datetime):
    """The deliveries due for an attempt that nobody holds, to enabled endpoints."""
    return (
        Delivery.objects.filter(
            state=Delivery.State.PENDING, next_attempt_at__lte=now, endpoint__enabled=True
        )
        .filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
        .filter(breaker.not_paused(now))
    )


def _queued_lease(now: datetime) -> datetime:
    """Until when a delivery is held for the message queued to attempt it: a delivery is
    held from the moment it is queued, so the beat's sweep never queues it again while its
    message waits (only once the hold ran out: a message lost with its broker)."""
    return now + timedelta(seconds=settings.WEBHOOK_QUEUED_SECONDS)


def _lease_take(delivery_id: int, now: datetime, queued: datetime | None = None) -> bool:
    """Hold the delivery for one attempt; False if another holds it or it is not due.

    A message queued with the delivery held for it (`queued`, the hold it was sent with)
    takes the delivery over from that hold, and only from it: a message whose hold ran out
    and was given to another finds it changed. A message that cannot attempt (it came
    early, the delivery is done, its endpoint off or paused) lets its hold go, for the
    sweep."""
    attempt_lease = now + timedelta(seconds=_lease_seconds())
    if queued is None:
        return bool(
            _due(now).filter(pk=delivery_id).update(leased_until=attempt_lease, waiting_slot=False)
        )
    taken = (
        Delivery.objects.filter(
            pk=delivery_id,
            leased_until=queued,
            state=Delivery.State.PENDING,
            next_attempt_at__lte=now,
            endpoint__enabled=True,
        )
        .filter(breaker.not_paused(now))
        .update(leased_until=attempt_lease, waiting_slot=False)
    )
    if not taken:
        Delivery.objects.filter(pk=delivery_id, leased_until=queued).update(leased_until=None)
    return bool(taken)


def attempt_run(delivery_id: int, lease: str | None = None) -> str:
    """One attempt of a due delivery; says what happened ("skipped" when another worker
    holds it, it is not due, or its endpoint is off). `lease` is the hold the delivery was
    queued with (its message's second argument; none for a message queued before holds)."""
    now = _now()
    queued = instant_parse(lease) if lease else None
    if not _lease_take(delivery_id, now, queued):
        return "skipped"
    delivery = Delivery.objects.select_related("event", "endpoint").get(pk=delivery_id)
    return attempt_held(delivery, now)


def attempt_held(delivery: Delivery, now: datetime | None = None) -> str:
    """One attempt of a delivery this process holds (its lease taken, or made held), unless
    its endpoint or its workspace has as many attempts under way as its cap allows, or its
    workspace spent its budget of attempts (RATE_LIMIT_OUTBOUND_ATTEMPTS): then it is put
    off ("deferred")."""
    now = now or _now()
    endpoint = delivery.endpoint
    held = slots_take(
        endpoint_id=endpoint.pk, workspace_id=endpoint.workspace_id, seconds=_lease_seconds()
    )
    if held is None:
        return _defer(
            delivery, now, timedelta(seconds=settings.WEBHOOK_SLOT_WAIT_SECONDS), slot=True
        )
    try:
        budget = rate_count("outbound", f"workspace:{endpoint.workspace_id}")
        if budget is not None and not budget.allowed:
            return _defer(delivery, now, timedelta(seconds=budget.reset))
        return _attempt(delivery, now)
    finally:
        slots_give_back(held)
        if held:
            _slot_waiter_send(endpoint)


def _defer(delivery: Delivery, now: datetime, wait: timedelta, *, slot: bool = False) -> str:
    """Put an attempt off (its retries untouched: it was not attempted), with no message
    queued for it: one waiting for a slot (`slot`) is sent by the next attempt of its
    endpoint or workspace to end, and the sweep takes any still waiting after `wait`; one
    of a workspace past its budget (which may have thousands waiting) is left for the
    sweep, which takes them in turns with the other workspaces'. Nothing is queued again
    and again while a slow endpoint holds its slots."""
    Delivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=now + wait, leased_until=None, waiting_slot=slot
    )
    OUTBOUND_DEFERRED.inc()
    return "deferred"


def _slot_waiter_send(endpoint: WebhookEndpoint) -> None:
    """A slot of the endpoint and of its workspace was given back: queue the delivery that
    has waited longest for one, of the endpoint first, else of the workspace's other
    endpoints."""
    now = _now()
    lease = _queued_lease(now)
    waiting = Delivery.objects.filter(
        waiting_slot=True, state=Delivery.State.PENDING, endpoint__enabled=True
    ).filter(Q(leased_until__isnull=True) | Q(leased_until__lt=now))
    try:
        with transaction.atomic():
            for scope in (
                waiting.filter(endpoint_id=endpoint.pk),
                waiting.filter(endpoint__workspace_id=endpoint.workspace_id),
            ):
                picked = list(
                    scope.filter(breaker.not_paused(now))
                    .order_by("pk")
                    .select_for_update(skip_locked=True, of=("self",))
                    .values_list("pk", flat=True)[:1]
                )
                if picked:
                    Delivery.objects.filter(pk=picked[0]).update(
                        waiting_slot=False, next_attempt_at=now, leased_until=lease
                    )
                    break
    except Exception:
        logger.exception("Could not pick the delivery waiting for a slot; the sweep will")
        return
    if picked:
        _send_later(picked[0], lease)


def _attempt(delivery: Delivery, now: datetime) -> str:
    started = time.monotonic()
    outcome = transport.post(delivery.endpoint, delivery.event, now)
    duration_ms = int((time.monotonic() - started) * 1000)
    retry = _attempt_record(delivery, outcome, now, duration_ms)
    OUTBOUND.labels("succeeded" if outcome.succeeded else "failed").inc()
    if retry is not None and retry.lease is not None:
        _send_later(delivery.pk, retry.lease, retry.wait)
    return "succeeded" if outcome.succeeded else "failed"


@dataclass
class _Retry:
    wait: timedelta
    # Held for the message sent now to attempt it after the wait (a wait of a minute at
    # most); None: the sweep queues it when it falls due.
    lease: datetime | None


def _attempt_record(delivery, outcome: Outcome, now: datetime, duration_ms: int):
    """Log the attempt, schedule the next or close the delivery, and keep the endpoint's
    failure clock. Returns the next attempt (None: no more)."""
    endpoint = delivery.endpoint
    with transaction.atomic():
        DeliveryAttempt.objects.create(
            delivery=delivery,
            endpoint=endpoint,
            started_at=now,
            duration_ms=duration_ms,
            succeeded=outcome.succeeded,
            status_code=outcome.status_code,
            response_excerpt=outcome.excerpt,
            error=outcome.error,
        )
        attempts = delivery.attempts + 1
        values = {
            "attempts": attempts,
            "last_attempt_at": now,
            "last_status": outcome.status_code,
            "leased_until": None,
        }
        retry = None
        if outcome.succeeded:
            values |= {"state": Delivery.State.SUCCEEDED, "next_attempt_at": None}
            # The endpoint as read with the delivery, moments ago: most succeed with no
            # failure to clear, and write nothing to it.
            if endpoint.failing_since is not None:
                WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failing_since=None)
            _breaker_close(endpoint, now)
        else:
            if attempts <= len(SCHEDULE):
                wait = SCHEDULE[attempts - 1]
                values["next_attempt_at"] = now + wait
                lease = None
                if wait <= timedelta(minutes=1):
                    lease = values["leased_until"] = _queued_lease(now + wait)
                retry = _Retry(wait=wait, lease=lease)
            else:
                values |= {"state": Delivery.State.FAILED, "next_attempt_at": None}
            _failure_clock(endpoint, now)
            _breaker_count(endpoint, outcome, now)
        Delivery.objects.filter(pk=delivery.pk).update(**values)
    return retry


# --- The circuit breaker -------------------------------------------------------------------


def _breaker_count(endpoint: WebhookEndpoint, outcome: Outcome, now: datetime) -> None:
    """Count a failed attempt in the endpoint's run of timeouts and 5xx answers (another
    failure ends the run); pause the endpoint when the run reaches the setting, or when the
    first attempt after a cool-off fails the same way."""
    if not outcome.overloaded:
        # The row as it is now (the endpoint was read with the delivery, moments ago).
        WebhookEndpoint.objects.filter(pk=endpoint.pk, breaker_failures__gt=0).update(
            breaker_failures=0, breaker_timeouts=0
        )
        return
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        breaker_failures=F("breaker_failures") + 1,
        breaker_timeouts=F("breaker_timeouts") + int(outcome.timed_out),
    )
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if breaker.paused(endpoint, now):
        return  # an attempt that started before the pause: it is paused already
    if endpoint.breaker_failures >= settings.WEBHOOK_BREAKER_FAILURES or endpoint.pauses:
        _breaker_open(endpoint, now)


def _breaker_open(endpoint: WebhookEndpoint, now: datetime) -> None:
    cooloff = breaker.breaker_cooloff(endpoint.pauses)
    endpoint.paused_until = now + cooloff
    endpoint.pauses += 1
    endpoint.paused_reason = breaker.run_words(endpoint.breaker_failures, endpoint.breaker_timeouts)
    endpoint.save(update_fields=["paused_until", "pauses", "paused_reason"])
    audit_record(
        actor=SYSTEM,
        action="webhook_endpoint.paused",
        target_type="webhook_endpoint",
        target_id=endpoint.pk,
        workspace=endpoint.workspace,
        reason=f"Paused after {endpoint.paused_reason}.",
        detail={
            "url": endpoint.url,
            "paused_until": _iso(endpoint.paused_until),
            "cooloff_seconds": int(cooloff.total_seconds()),
            "failures": endpoint.breaker_failures,
            "timeouts": endpoint.breaker_timeouts,
        },
    )
    logger.warning(
        "Webhook endpoint %s paused for %d s after %s",
        endpoint.pk,
        cooloff.total_seconds(),
        endpoint.paused_reason,
    )


def _breaker_close(endpoint: WebhookEndpoint, now: datetime) -> None:
    """A success: the run ends, and a paused endpoint is resumed (audited). Judged by the
    row as it is now, not as read with the delivery (another attempt may have paused it
    meanwhile); most successes match no row and write nothing."""
    was_paused = WebhookEndpoint.objects.filter(pk=endpoint.pk, pauses__gt=0).update(
        breaker_failures=0, breaker_timeouts=0, pauses=0, paused_until=None, paused_reason=""
    )
    if not was_paused:
        WebhookEndpoint.objects.filter(pk=endpoint.pk, breaker_failures__gt=0).update(
            breaker_failures=0, breaker_timeouts=0
        )
        return
    audit_record(
        actor=SYSTEM,
        action="webhook_endpoint.resumed",
        target_type="webhook_endpoint",
        target_id=endpoint.pk,
        workspace=endpoint.workspace,
        detail={"url": endpoint.url},
    )
    logger.info("Webhook endpoint %s resumed after a success", endpoint.pk)


def endpoint_pause_text(endpoint: WebhookEndpoint, now: datetime | None = None) -> str:
    """The pause of an endpoint in words for its page ("" when it is not paused)."""
    now = now or _now()
    if not breaker.paused(endpoint, now):
        return ""
    until = endpoint.paused_until.astimezone(UTC)
    same_day = until.date() == now.astimezone(UTC).date()
    when = utc_clock_text(until) if same_day else utc_moment_text(until)
    return f"Paused until {when} after {endpoint.paused_reason}; deliveries wait and resume then."


def _failure_clock(endpoint: WebhookEndpoint, now: datetime) -> None:
    WebhookEndpoint.objects.filter(pk=endpoint.pk, failing_since__isnull=True).update(
        failing_since=now
    )
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if endpoint.enabled and endpoint.failing_since <= now - DISABLE_AFTER:
        _endpoint_disable(endpoint, now)


def _endpoint_disable(endpoint: WebhookEndpoint, now: datetime) -> None:
    endpoint.enabled = False
    endpoint.disabled_reason = "Every delivery failed for three days."
    endpoint.updated_at = now
    endpoint.save(update_fields=["enabled", "disabled_reason", "updated_at"])
    workspace = endpoint.workspace
    audit_record(
        actor=SYSTEM,
        action="webhook_endpoint.disabled",
        target_type="webhook_endpoint",
        target_id=endpoint.pk,
        workspace=workspace,
        reason=endpoint.disabled_reason,
        detail={"url": endpoint.url, "failing_since": _iso(endpoint.failing_since)},
    )
    wants_forget(workspace.pk)
    owners = Member.objects.filter(
        workspace=workspace, role=Member.Role.OWNER, is_active=True
    ).values_list("email", flat=True)
    mail_send(
        to=list(owners),
        template="webhook_disabled",
        context={
            "workspace": workspace,
            "endpoint": endpoint,
            "failing_since": endpoint.failing_since,
            "page_url": f"{settings.BASE_URL}/settings/{workspace.pk}/webhooks/",
        },
    )


# The task of one attempt (webhooks/tasks.py), sent by name: the tasks module imports this
# one, never the other way round.
ATTEMPT_TASK = "webhooks.delivery_attempt"


def _send_later(delivery_id: int, lease: datetime, wait: timedelta | None = None) -> None:
    """Queue the attempt of a delivery held until `lease` for this message."""
    try:
        countdown = wait.total_seconds() if wait else None
        task_send(ATTEMPT_TASK, args=[delivery_id, lease.isoformat()], countdown=countdown)
    except Exception:
        logger.warning("Could not queue delivery %s; the beat will send it", delivery_id)
        with contextlib.suppress(Exception):  # else the hold runs out on its own
            Delivery.objects.filter(pk=delivery_id, leased_until=lease).update(leased_until=None)


def deliveries_send(delivery_ids: list[int], lease: datetime) -> None:
    """Queue the attempts of deliveries held until `lease` for their messages."""
    for delivery_id in delivery_ids:
        _send_later(delivery_id, lease)


def deliveries_send_due(*, endpoint_id=None, limit: int = 1000) -> int:
    """Queue the due deliveries nobody holds (the beat; an endpoint enabled again), each
    held for its message as it is queued: a second round, or two at once, queue none of
    them again.

    Round-robin across workspaces: a round takes at most WEBHOOK_SWEEP_PER_WORKSPACE of
    one workspace's deliveries (the longest due first) and queues them in turns, each
    workspace's first, then each one's second, …: a workspace with thousands waiting
    neither fills a round nor queues ahead of the others. Of the deliveries put off for
    want of a slot it takes at most the workspace's cap (WEBHOOK_WORKSPACE_CONCURRENCY):
    a backlog behind slow endpoints is not queued again by the hundred, only to be put off
    again."""
    now = _now()
    due = _due(now)
    if endpoint_id is not None:
        due = due.filter(endpoint_id=endpoint_id)
    # Those waiting for a slot take turns of their own, at most the workspace's cap a round
    # (more could not run at once anyway; the next attempt to end sends the next one).
    turn = Window(
        RowNumber(),
        partition_by=[F("endpoint__workspace_id"), F("waiting_slot")],
        order_by=[F("next_attempt_at").asc(), F("pk").asc()],
    )
    waiting_turns = max(1, settings.WEBHOOK_WORKSPACE_CONCURRENCY)
    picked = list(
        due.annotate(turn=turn)
        .filter(
            Q(waiting_slot=False, turn__lte=settings.WEBHOOK_SWEEP_PER_WORKSPACE)
            | Q(waiting_slot=True, turn__lte=waiting_turns)
        )
        .order_by("turn", "next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    lease = _queued_lease(now)
    with transaction.atomic():
        # Those still due and not taken meanwhile (a lock cannot go with the window).
        free = set(
            _due(now)
            .filter(pk__in=picked)
            .select_for_update(skip_locked=True, of=("self",))
            .values_list("pk", flat=True)
        )
        ids = [pk for pk in picked if pk in free]
        Delivery.objects.filter(pk__in=ids).update(leased_until=lease)
    deliveries_send(ids, lease)
    return len(ids)


def events_dispatch_lost(*, older_than: timedelta = timedelta(seconds=30)) -> int:
    """Events whose hand-over after commit was lost (a broker down then): make their
    deliveries now, and queue them."""
    seqs = events_undispatched(before=_now() - older_than)
    for seq in seqs:
        # Queued, not attempted here: the beat's round stays short.
        made = deliveries_make(seq, held=0)
        deliveries_send(made.queued, made.lease)
    return len(seqs)


def _deliveries_reopen(endpoint: WebhookEndpoint, ids: list[int], actor: Actor, detail: dict):
    """Send these deliveries of the endpoint again, with a fresh schedule, audited."""
    now = _now()
    lease = _queued_lease(now)
    with transaction.atomic():
        Delivery.objects.filter(pk__in=ids).update(
            state=Delivery.State.PENDING, attempts=0, next_attempt_at=now, leased_until=lease
        )
        audit_record(
            actor=actor,
            action="webhook_delivery.resent",
            target_type="webhook_endpoint",
            target_id=endpoint.pk,
            workspace=endpoint.workspace,
            detail=detail,
        )
        transaction.on_commit(lambda: deliveries_send(ids, lease), robust=True)
    return len(ids)


def delivery_resend(*, delivery: Delivery, actor: Actor) -> Delivery:
    """Send the event to the endpoint again, whatever became of it."""
    _deliveries_reopen(delivery.endpoint, [delivery.pk], actor, {"event": delivery.event.id})
    return delivery


def deliveries_resend_failed(*, endpoint: WebhookEndpoint, since: datetime, actor: Actor) -> int:
    """Send again every failed delivery to the endpoint of an event since that time."""
    ids = list(
        Delivery.objects.filter(
            endpoint=endpoint, state=Delivery.State.FAILED, event__created_at__gte=since
        ).values_list("pk", flat=True)
    )
    detail = {"failed_since": _iso(since), "deliveries": len(ids)}
    return _deliveries_reopen(endpoint, ids, actor, detail)


def endpoint_ping(*, endpoint: WebhookEndpoint, actor: Actor) -> Delivery:
    """A `ping` event to this endpoint only (never in the feed), to test it."""
    now = _now()
    lease = _queued_lease(now)
    with transaction.atomic():
        event = event_record(
            workspace=endpoint.workspace,
            type=PING,
            data={
                "endpoint_id": str(endpoint.pk),
                "message": "A test event from the Webhooks page.",
            },
        )
        delivery = Delivery.objects.create(
            event=event, endpoint=endpoint, next_attempt_at=now, leased_until=lease
        )
        audit_record(
            actor=actor,
            action="webhook_endpoint.pinged",
            target_type="webhook_endpoint",
            target_id=endpoint.pk,
            workspace=endpoint.workspace,
        )
        transaction.on_commit(lambda: _send_later(delivery.pk, lease), robust=True)
    return delivery


def prune(now: datetime | None = None) -> dict[str, int]:
    """Forget events and attempts older than 30 days."""
    before = (now or _now()) - KEEP
    attempts, _ = DeliveryAttempt.objects.filter(started_at__lt=before).delete()
    return {"attempts": attempts, "events": events_prune(before=before)}
