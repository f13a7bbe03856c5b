"""Each kind of task has its queue, under the CELERY_QUEUE prefix, and `make worker` a
pool for each; a mail goes out while the deliveries' queue is full of slow work."""

import json
import os
import subprocess
import sys
import threading

import pytest
from django.conf import settings
from django.db import transaction

from audit.services import SYSTEM
from config import pools
from config.celery import app as celery_app
from config.queues import DELIVERIES, MAIL
from tests.worker import Worker, kind_queues, wait_for
from webhooks import services as webhooks
from workspaces.services import lead_upsert

from ..conftest import aware
from ..webhooks.receiver import Answer

KINDS = {
    "mail": {
        "core.mail_deliver",
        "accounts.password_reset_send",
        "notifications.workspace_notify",
    },
    "applies": {"agency.tasks.apply_plan"},
    "uploads": {"workspaces.upload_check", "workspaces.upload_import"},
    "providers": {
        "integrations.events_apply",
        "integrations.event_apply",
        "integrations.connection_backfill",
    },
    "deliveries": {
        "webhooks.deliveries_make",
        "webhooks.delivery_attempt",
        "notifications.slack_deliver",
    },
    "sweeps": {
        "core.tasks.purge_expired_idempotency_keys",
        "integrations.events_apply_pending",
        "integrations.connections_retry_due",
        "integrations.connections_pull_due",
        "webhooks.deliveries_sweep",
        "webhooks.prune",
        "notifications.round",
    },
    "rollups": {"figures.rollups_refresh"},
}


def test_every_task_of_the_project_goes_to_the_queue_of_its_kind():
    celery_app.loader.import_default_modules()
    ours = {name for name in celery_app.tasks if not name.startswith("celery.")}
    assert ours == set().union(*KINDS.values())
    prefix = settings.CELERY_TASK_DEFAULT_QUEUE
    routed = {name: celery_app.amqp.router.route({}, name, (), {})["queue"].name for name in ours}
    assert routed == {name: f"{prefix}.{kind}" for kind, names in KINDS.items() for name in names}


def _settings(**env) -> dict:
    """The Celery settings of a fresh process with this environment."""
    read = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps({n: getattr(settings, n) for n in "
        "('CELERY_TASK_DEFAULT_QUEUE', 'CELERY_TASK_ROUTES', 'METRICS_QUEUES')}))"
    )
    clean = {"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "config.settings_dev"}
    result = subprocess.run(
        [sys.executable, "-c", read],
        cwd=settings.BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_celery_queue_is_the_prefix_of_every_queue():
    assert _settings()["CELERY_TASK_DEFAULT_QUEUE"] == "celery"
    values = _settings(CELERY_QUEUE="acme")
    assert values["CELERY_TASK_DEFAULT_QUEUE"] == "acme"
    assert values["CELERY_TASK_ROUTES"]["core.mail_deliver"] == {"queue": "acme.mail"}
    assert values["CELERY_TASK_ROUTES"]["webhooks.delivery_attempt"] == {"queue": "acme.deliveries"}
    assert values["METRICS_QUEUES"] == [
        "acme.mail",
        "acme.applies",
        "acme.uploads",
        "acme.providers",
        "acme.deliveries",
        "acme.sweeps",
        "acme.rollups",
        "acme",
    ]


def _queues(command: list[str]) -> str:
    return command[command.index("--queues") + 1]


def test_make_worker_starts_a_pool_per_kind_and_the_beat():
    made = pools.commands({"CELERY_QUEUE": "acme"})
    assert [_queues(c) for c in made[:-1]] == [
        "acme.mail",
        "acme.applies",
        "acme.uploads",
        "acme.providers",
        "acme.deliveries",
        "acme.sweeps,acme",
        "acme.rollups",
    ]
    assert [c[c.index("--hostname") + 1] for c in made[:-1]] == [
        "mail@%h",
        "applies@%h",
        "uploads@%h",
        "providers@%h",
        "deliveries@%h",
        "sweeps@%h",
        "rollups@%h",
    ]
    assert made[-1][1:] == ["-A", "config", "beat", "--loglevel", "INFO"]
    # The deliveries wait on the network: 24 threads, more than a workspace's cap of 8.
    assert made[4][made[4].index("--pool") + 1 :][:3] == ["threads", "--concurrency", "24"]
    assert made[3][made[3].index("--concurrency") + 1] == "2"
    assert "--pool" not in made[3]
    # Two uploads at once, a workspace's one at a time: another's file is never held up.
    assert made[2][made[2].index("--concurrency") + 1] == "2"
    assert made[0][made[0].index("--pool") + 1] == "solo"
    # A file's check and import take the CPU the web processes leave; the others do not
    # start lowered.
    assert made[2][:4] == ["nice", "-n", "10", pools.CELERY]
    assert [c[0] for c in made if c is not made[2]] == [pools.CELERY] * 7
    assert pools.commands({"WORKER_NICE_UPLOADS": "0", "WORKER_KINDS": "uploads"})[0][0] == (
        pools.CELERY
    )
    assert pools.commands({"WORKER_NICE_MAIL": "5", "WORKER_KINDS": "mail"})[0][:3] == [
        "nice",
        "-n",
        "5",
    ]

    only = pools.commands(
        {"WORKER_KINDS": "deliveries", "WORKER_BEAT": "false", "WORKER_CONCURRENCY_DELIVERIES": "9"}
    )
    assert len(only) == 1
    assert (_queues(only[0]), only[0][only[0].index("--concurrency") + 1]) == (
        "celery.deliveries",
        "9",
    )
    with pytest.raises(SystemExit, match="WORKER_KINDS: unknown kind"):
        pools.commands({"WORKER_KINDS": "mail,emails"})


@pytest.fixture
def kinds(transactional_db):
    yield from kind_queues(transactional_db)


@pytest.mark.redis
@pytest.mark.postgres
def test_a_mail_goes_out_while_the_deliveries_wait_behind_a_slow_endpoint(
    kinds, make_workspace, receiver, tmp_path
):
    ws = make_workspace()
    webhooks.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    release = threading.Event()
    receiver.default = Answer(hold=release)  # every delivery waits on the endpoint
    for n in range(20):
        with transaction.atomic():
            lead_upsert(workspace=ws, external_id=f"L{n}", created_at=aware("2026-11-02 10:00"))
    assert kinds.length(DELIVERIES) == 20
    outbox = tmp_path / "mail"
    outbox.mkdir()
    env = {
        "CELERY_QUEUE": kinds.prefix,
        "WEBHOOK_ALLOW_LOOPBACK": "true",
        "WEBHOOK_TIMEOUT_SECONDS": "120",
        "EMAIL_URL": f"file://{outbox}",
    }
    deliveries = Worker(tmp_path / "deliveries.log", kinds.name(DELIVERIES), env)
    mail = Worker(tmp_path / "mail.log", kinds.name(MAIL), env)
    try:
        wait_for(lambda: len(receiver.received) == 1, "a delivery to hold its worker", deliveries)
        celery_app.send_task(
            "core.mail_deliver",
            args=[{"subject": "Reset", "text": "t", "html": "<p>t</p>", "to": ["a@b.test"]}],
        )
        wait_for(lambda: any(outbox.iterdir()), "the mail", mail)
        assert kinds.length(MAIL) == 0
        # Meanwhile the deliveries' pool is still on its first event, the others waiting.
        assert len(receiver.received) == 1
        assert kinds.length(DELIVERIES) == 19
    finally:
        deliveries.kill()
        release.set()
        mail.stop()
