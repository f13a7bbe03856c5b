"""The writes of the integrations, by concern, named here for the rest of the service.

- connections.py: connections made, disconnected, failing and recovered; credentials;
  their counters, cursors and options (connection_change, the one way they change);
- events.py: the events providers send, stored once and queued for the worker;
- apply.py: applying stored events in batches, through the providers' mappings;
- held.py: held events a person assigns or dismisses;
- backfills.py: a new connection's hook and its last 90 days; scheduled pulls.

Every function takes keyword arguments, runs in one transaction and records its audit
event inside it; tasks are sent with transaction.on_commit, by name (core.tasks.task_send),
so no module here imports a task module (the worker's tasks import them).
"""

from core.tasks import task_send

from .apply import (
    ATTEMPTS_MAX,
    BATCH_SIZE,
    UNEXPECTED_ATTEMPTS_MAX,
    connections_pending,
    event_apply,
    events_apply,
    events_apply_batch,
)
from .backfills import (
    backfill_page_record,
    connection_backfill,
    connection_on_connect,
    connections_pull_due,
    pull_window,
)
from .connections import (
    BACKFILL_TASK,
    connection_change,
    connection_create,
    connection_credentials,
    connection_disconnect,
    connection_fail,
    connection_id_allocate,
    connection_id_for_link,
    connection_id_sign,
    connection_id_unsign,
    connection_live,
    connection_recover,
    connection_retry,
    connection_signing_secret,
    connections_retry_due,
    delivery_refuse,
    integration_actor,
)
from .events import (
    APPLY_CONNECTION_TASK,
    APPLY_TASK,
    event_receive,
    events_apply_soon,
    events_release,
)
from .held import event_assign, event_dismiss
from .providers import provider_get
from .selectors import webhook_url

__all__ = [
    "APPLY_CONNECTION_TASK",
    "APPLY_TASK",
    "ATTEMPTS_MAX",
    "BACKFILL_TASK",
    "BATCH_SIZE",
    "UNEXPECTED_ATTEMPTS_MAX",
    "backfill_page_record",
    "connection_backfill",
    "connection_change",
    "connection_create",
    "connection_credentials",
    "connection_disconnect",
    "connection_fail",
    "connection_id_allocate",
    "connection_id_for_link",
    "connection_id_sign",
    "connection_id_unsign",
    "connection_live",
    "connection_on_connect",
    "connection_recover",
    "connection_retry",
    "connection_signing_secret",
    "connections_pending",
    "connections_pull_due",
    "connections_retry_due",
    "delivery_refuse",
    "event_apply",
    "event_assign",
    "event_dismiss",
    "event_receive",
    "events_apply",
    "events_apply_batch",
    "events_apply_soon",
    "events_release",
    "integration_actor",
    "provider_get",
    "pull_window",
    "task_send",
    "webhook_url",
]
