"""The worker's side of the integrations: applying stored events."""

from datetime import timedelta

from celery import shared_task

from . import services


@shared_task(name=services.APPLY_CONNECTION_TASK, acks_late=True)
def events_apply(connection_id: str) -> int:
    """Apply a connection's received events in batches until none is left. Safe to run
    twice, or beside another run: each batch locks its events and skips those locked."""
    return services.events_apply(connection_id=connection_id)


@shared_task(name=services.APPLY_TASK, acks_late=True)
def event_apply(event_id: int) -> str:
    """Apply one stored event. Safe to run twice: the event's row is locked and an event
    already applied, ignored or dismissed is left alone."""
    event = services.event_apply(event_id=event_id)
    return event.state if event is not None else "missing"


@shared_task(name="integrations.events_apply_pending", acks_late=True)
def events_apply_pending(older_than_seconds: int = 300) -> int:
    """Send the apply task again for the connections with events left unapplied (run by
    the beat schedule). Returns how many connections."""
    pending = services.connections_pending(older_than=timedelta(seconds=older_than_seconds))
    for connection_id in pending:
        events_apply.delay(connection_id)
    return len(pending)


@shared_task(name=services.BACKFILL_TASK, acks_late=True)
def connection_backfill(connection_id: str) -> str:
    """A new connection's first calls to its provider (its webhook subscription where the
    service makes it, then the last 90 days), resuming at the stored cursor."""
    connection = services.connection_backfill(connection_id=connection_id)
    return connection.state if connection is not None else "missing"


@shared_task(name="integrations.connections_retry_due", acks_late=True)
def connections_retry_due() -> int:
    """Send the backfill task again for failing connections whose provider could not be
    reached (or asked us to slow down) a while ago (run by the beat schedule)."""
    return len(services.connections_retry_due())


@shared_task(name="integrations.connections_pull_due", acks_late=True)
def connections_pull_due() -> int:
    """Start the daily read of the last days of each connection pulled on a schedule (ad
    platforms revise recent days) whose last read is a day old (run by the beat
    schedule)."""
    return len(services.connections_pull_due())
