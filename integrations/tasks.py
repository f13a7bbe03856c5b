"""The worker's side of the integrations: applying a stored event."""

from celery import shared_task

from . import services


@shared_task(name=services.APPLY_TASK, acks_late=True)
def event_apply(event_id: int) -> str:
    """Apply one stored event. Safe to run twice: the event's row is locked and an event
    already applied, ignored or dismissed is left alone."""
    event = services.event_apply(event_id=event_id)
    return event.state if event is not None else "missing"
