"""The queues of the tasks, one per kind of work, each taken by its own pool of worker
processes (`make worker`, config/pools.py): a kind that piles up (deliveries to slow
endpoints, a large plan) never holds up another (a password reset's mail).

Every queue's name starts with CELERY_QUEUE ("celery" unless set), so several deployments
can share one Redis: `celery.mail`, `celery.deliveries`, … Tasks are routed by name
(Celery's task_routes); a task of the project missing here would go to the default queue,
CELERY_QUEUE itself, which only the sweeps' pool takes (the messages an older release
queued there are taken that way), and tests/core/test_queues.py refuses it.
"""

# The kinds, in the order `make worker` starts their pools.
MAIL = "mail"  # invitations, password resets, notices to owners, digests and alerts
APPLIES = "applies"  # approved plans
UPLOADS = "uploads"  # files of records uploaded on the Import page, checked and imported
PROVIDERS = "providers"  # providers' events applied, new connections' backfills
DELIVERIES = "deliveries"  # outbound webhooks: an event's deliveries, their attempts
SWEEPS = "sweeps"  # the beat's rounds
ROLLUPS = "rollups"  # the beat's round of the figures' roll-ups
KINDS = (MAIL, APPLIES, UPLOADS, PROVIDERS, DELIVERIES, SWEEPS, ROLLUPS)

TASK_KINDS = {
    "core.mail_deliver": MAIL,
    "accounts.password_reset_send": MAIL,
    "agency.tasks.apply_plan": APPLIES,
    "workspaces.upload_check": UPLOADS,
    "workspaces.upload_import": UPLOADS,
    "integrations.events_apply": PROVIDERS,
    "integrations.event_apply": PROVIDERS,
    "integrations.connection_backfill": PROVIDERS,
    "webhooks.deliveries_make": DELIVERIES,
    "webhooks.delivery_attempt": DELIVERIES,
    "core.tasks.purge_expired_idempotency_keys": SWEEPS,
    "integrations.events_apply_pending": SWEEPS,
    "integrations.connections_retry_due": SWEEPS,
    "integrations.connections_pull_due": SWEEPS,
    "webhooks.deliveries_sweep": SWEEPS,
    "webhooks.prune": SWEEPS,
    "figures.rollups_refresh": ROLLUPS,
    "notifications.round": SWEEPS,
    "notifications.workspace_notify": MAIL,
    "notifications.slack_deliver": DELIVERIES,
}


def prefix_from(environ) -> str:
    """The queues' prefix: CELERY_QUEUE, else "celery"."""
    return environ.get("CELERY_QUEUE", "") or "celery"


def queue_name(prefix: str, kind: str) -> str:
    return f"{prefix}.{kind}"


def queue_names(prefix: str) -> list[str]:
    return [queue_name(prefix, kind) for kind in KINDS]


def task_routes(prefix: str) -> dict[str, dict]:
    """Celery's task_routes: each task of the project to the queue of its kind."""
    return {name: {"queue": queue_name(prefix, kind)} for name, kind in TASK_KINDS.items()}
