"""The worker's side of outbound webhooks: make an event's deliveries, attempt one, and
the beat's rounds (due retries, lost hand-overs, the 30 days' pruning)."""

from celery import shared_task

from . import services


@shared_task(name="webhooks.deliveries_make")
def deliveries_make(event_seq: int) -> int:
    """An event's deliveries: the first few attempted here, the rest queued."""
    made = services.deliveries_make(event_seq)
    services.deliveries_send(made.queued, made.lease)
    for delivery in made.now:
        services.attempt_held(delivery)
    return len(made.now) + len(made.queued)


@shared_task(name=services.ATTEMPT_TASK)
def delivery_attempt(delivery_id: int, lease: str | None = None) -> str:
    """One attempt of a delivery held until `lease` for this message (see
    services.attempt_run)."""
    return services.attempt_run(delivery_id, lease)


@shared_task(name="webhooks.deliveries_sweep")
def deliveries_sweep() -> dict:
    """Queue every due delivery nobody holds (retries, and attempts whose worker died),
    and hand over the events whose hand-over was lost."""
    return {
        "events": services.events_dispatch_lost(),
        "deliveries": services.deliveries_send_due(),
    }


@shared_task(name="webhooks.prune")
def prune() -> dict:
    return services.prune()
