"""Held events a person resolves: assigned to a sale, or dismissed."""

from __future__ import annotations

from django.db import transaction

from audit.services import Actor, audit_record
from core.errors import InvalidField, NotFound
from workspaces.models import Sale

from .apply import ATTEMPTS_MAX, Effects, event_locked, outcome_write, provider_apply
from .base import Applied
from .events import event_dismissed_save
from .models import Event


def _held(event: Event) -> Event:
    locked = event_locked(event.pk)
    if locked is None or locked.connection.workspace_id != event.workspace_id:
        raise NotFound("No such event.")
    if locked.state != Event.State.HELD:
        raise InvalidField("event", f"The event is {locked.state}, not held.")
    return locked


def event_assign(*, event: Event, sale: Sale, actor: Actor) -> Event:
    """Place a held Stripe payment on a sale a person chose, and apply it there.

    A payment in another currency than the workspace's cannot be placed: dismiss it.
    """
    with transaction.atomic():
        locked = _held(event)
        if sale.workspace_id != locked.workspace_id:
            raise NotFound("No such sale.")
        if locked.hold_code == Event.HoldCode.CURRENCY:
            raise InvalidField(
                "sale",
                "A payment in another currency cannot be placed on a "
                "sale of this workspace; dismiss it instead.",
            )
        locked.assigned_sale = sale
        locked.attempts = min(locked.attempts + 1, ATTEMPTS_MAX)
        effects = Effects(locked.connection_id, locked.provider)
        outcome = provider_apply(locked)
        outcome_write(
            locked, outcome, actor=actor, effects=effects, action="integration.event_assigned"
        )
        effects.write()
        if not isinstance(outcome, Applied):
            raise InvalidField("sale", outcome.reason or "The event cannot be placed there.")
    return locked


def event_dismiss(*, event: Event, actor: Actor) -> Event:
    """Leave a held event unapplied for good; the events waiting for its object go too."""
    with transaction.atomic():
        locked = _held(event)
        dismissed = [locked]
        if locked.object_id and locked.hold_code != Event.HoldCode.WAITING:
            dismissed += list(
                Event.objects.select_for_update()
                .filter(
                    connection_id=locked.connection_id,
                    state=Event.State.HELD,
                    hold_code=Event.HoldCode.WAITING,
                    waits_for=locked.object_id,
                )
                .select_related("workspace")
            )
        effects = Effects(locked.connection_id, locked.provider)
        for item in dismissed:
            event_dismissed_save(item)
            effects.moved(Event.State.HELD, Event.State.DISMISSED)
            audit_record(
                actor=actor,
                action="integration.event_dismissed",
                target_type="integration_event",
                target_id=item.pk,
                workspace=item.workspace,
                reason=item.hold_reason,
                detail={"provider": item.provider, "event_id": item.event_id},
            )
        effects.write()
    return locked
