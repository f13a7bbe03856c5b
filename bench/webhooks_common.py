"""What bench/webhooks.py's providers and phases share: its constants, the machine's CPU
use and load while a phase runs (`Phase`), and Django in this process: the broker's queue,
the connections it makes (Stripe's, with the charges it delivers) and what a run removes
when it ends.
"""

import hashlib
import hmac
import json
import os
import secrets
import string
import time
from collections.abc import Callable
from pathlib import Path

from config.queues import PROVIDERS, queue_name

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
BIN = ROOT / ".venv" / "bin"

MADE_BY = "bench/webhooks.py"
FINAL = ("applied", "held", "ignored", "dismissed")
# Cents per charge: small enough to leave every chosen sale with an unpaid balance.
AMOUNT = 100
ALPHANUMERIC = string.ascii_letters + string.digits
ZOOM_JOINED = "webinar.participant_joined"
ZOOM_LEFT = "webinar.participant_left"


# --- the machine ---------------------------------------------------------------------------


def cpu_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def busy_between(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total else 0.0


def _processes():
    """(name, process group, CPU jiffies used) of every live process."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        yield (
            stat[stat.index("(") + 1 : stat.rindex(")")],
            int(fields[2]),
            int(fields[11]) + int(fields[12]),
        )


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the live processes of a process group."""
    used = sum(cpu for _name, group, cpu in _processes() if group == pgid)
    return used / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU seconds used so far by PostgreSQL's live processes (its backends: any client's)."""
    used = sum(cpu for name, _group, cpu in _processes() if name == "postgres")
    return used / os.sysconf("SC_CLK_TCK")


class Phase:
    """Wall time, load average and the machine's CPU use over a block."""

    def __init__(self, group: Callable[[], int] | None = None):
        # The process group of the server measured; or extra_cpu, the CPU seconds of a
        # process measured (and ended) inside the block.
        self.group = group
        self.extra_cpu = 0.0

    def _ours(self) -> float:
        """CPU seconds of this process, PostgreSQL and the measured process group."""
        own = os.times()
        group = self.group() if self.group else None
        return (
            own.user
            + own.system
            + postgres_cpu_seconds()
            + (group_cpu_seconds(group) if group else 0.0)
        )

    def __enter__(self):
        self.load_before = os.getloadavg()[0]
        self.cpu_before = cpu_busy()
        self.ours_before = self._ours()
        self.began = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.began
        self.load_after = os.getloadavg()[0]
        after = cpu_busy()
        self.busy = busy_between(self.cpu_before, after)
        ticks = os.sysconf("SC_CLK_TCK")
        busy_seconds = (after[0] - self.cpu_before[0]) / ticks
        # CPU the rest of the machine used meanwhile, in cores (PostgreSQL counts as ours).
        ours = self._ours() - self.ours_before + self.extra_cpu
        self.others = max(0.0, busy_seconds - ours) / self.seconds

    def machine(self) -> dict:
        return {
            "load_before": round(self.load_before, 2),
            "load_after": round(self.load_after, 2),
            "cpu_busy": round(self.busy, 3),
            "other_cores": round(self.others, 2),
        }


# --- Django, in this process -----------------------------------------------------------------


def django_start(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def broker_clear(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def broker_queued(url: str) -> int:
    import redis

    return redis.Redis.from_url(url).llen(queue_name("celery", PROVIDERS))


def random_text(length: int, alphabet: str = ALPHANUMERIC) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


def connection_create(workspace_id: str, provider: str, credentials: dict):
    """A connection made by the service; its backfill, which would read the provider's API
    (out of this machine's reach), is not started."""
    from audit.services import SYSTEM
    from integrations import connections, services
    from workspaces.models import Workspace

    workspace = Workspace.objects.get(pk=workspace_id)
    started = connections.backfill_enqueue
    connections.backfill_enqueue = lambda connection_id: None
    try:
        return services.connection_create(
            workspace=workspace,
            provider=provider,
            credentials=credentials,
            actor=SYSTEM,
            created_by=MADE_BY,
        )
    finally:
        connections.backfill_enqueue = started


def connection_make(workspace_id: str):
    """A Stripe connection made by the service, with a webhook signing secret of its own."""
    secret = "whsec_" + random_text(32)
    key = "sk_test_" + random_text(32)
    connection = connection_create(
        workspace_id, "stripe", {"secret_key": key, "webhook_secret": secret}
    )
    return connection, secret


def emails_pick(workspace_id: str, count: int) -> list[str]:
    """Emails of leads with a sale that has an unpaid balance (so a charge is placed), each
    lead once; repeated in turn when there are fewer such leads than deliveries."""
    from django.db.models import F

    from workspaces.models import Lead, Sale

    lead_ids = (
        Sale.objects.filter(workspace_id=workspace_id, cash_collected__lt=F("contract_value"))
        .order_by("lead_id")
        .values_list("lead_id", flat=True)
        .distinct()
    )
    emails = list(
        Lead.objects.filter(pk__in=lead_ids)
        .exclude(email="")
        .order_by("pk")
        .values_list("email", flat=True)[:count]
    )
    if not emails:
        raise SystemExit("The workspace has no lead with an unpaid sale to place charges on.")
    return [emails[i % len(emails)] for i in range(count)]


def deliveries_make(emails: list[str], run: str) -> list[bytes]:
    """Stripe `charge.succeeded` events, one per email, with ids of this run."""
    now = int(time.time())
    bodies = []
    for i, email in enumerate(emails):
        charge = {
            "id": f"ch_bench{run}{i:06d}",
            "object": "charge",
            "amount": AMOUNT,
            "currency": "usd",
            "created": now,
            "status": "succeeded",
            "paid": True,
            "billing_details": {"email": email, "name": None},
            "receipt_email": email,
            "customer": None,
            "metadata": {},
            "refunded": False,
            "amount_refunded": 0,
            "refunds": {"object": "list", "data": []},
        }
        event = {
            "id": f"evt_bench{run}{i:06d}",
            "object": "event",
            "api_version": "2024-06-20",
            "created": now,
            "type": "charge.succeeded",
            "livemode": False,
            "data": {"object": charge},
        }
        bodies.append(json.dumps(event).encode())
    return bodies


def sign(body: bytes, secret: str) -> str:
    timestamp = int(time.time())
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def cleanup(connection) -> dict:
    """Delete, in one transaction, what the run added: its payments (the kept cash of their
    leads and sales refreshed as it was), its connection and events, their audit events."""
    from django.db import transaction

    from integrations.models import Connection, Event
    from workspaces.kept import leads_sales_refresh
    from workspaces.models import Payment, Refund

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        charge_ids = list(
            Event.objects.filter(connection=connection)
            .exclude(object_id="")
            .values_list("object_id", flat=True)
            .distinct()
        )
        payments = Payment.objects.filter(workspace=workspace, external_id__in=charge_ids)
        lead_ids = set(payments.values_list("sale__lead_id", flat=True))
        refunds, _ = Refund.objects.filter(payment__in=payments).delete()
        deleted, _ = payments.delete()
        leads_sales_refresh(workspace=workspace, lead_ids=lead_ids)
        events, audits = connection_forget(connection)
    return {
        "payments": deleted,
        "refunds": refunds,
        "leads_refreshed": len(lead_ids),
        "events": events,
        "audit_events": audits,
    }


def connection_forget(connection) -> tuple[int, int]:
    """Delete the connection with its events, and the audit events about it or by it:
    (events, audit events) removed. Inside the caller's transaction."""
    from django.db.models import Q

    from audit.models import AuditEvent
    from integrations.models import Event

    audits, _ = AuditEvent.objects.filter(
        Q(actor_kind="integration", actor_id=str(connection.pk))
        | Q(target_type="integration_connection", target_id=str(connection.pk))
    ).delete()
    events = Event.objects.filter(connection=connection).count()
    connection.delete()
    return events, audits


def vacuum(tables: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM ANALYZE "{table}"')
