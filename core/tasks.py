from celery import shared_task

from .idempotency import purge_expired


@shared_task(name="core.tasks.purge_expired_idempotency_keys")
def purge_expired_idempotency_keys() -> int:
    return purge_expired()
