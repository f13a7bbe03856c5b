"""The notifications round at scale: --workspaces workspaces (2,000), of which --due (200)
are due, each with an owner, a manager, a closer and a few of yesterday's records.

    .venv/bin/python bench/notify.py
    .venv/bin/python bench/notify.py --workspaces 5000 --due 500

On PostgreSQL (database --database, recreated and migrated), with the development settings
(mail to the in-memory backend, tasks run in this process: what is timed is the finding,
the rendering and the queueing, not an SMTP server). Prints, as JSON lines:

1. `empty`: a round with nothing due (no lead waiting either): the median of 20, target
   <= 20 ms;
2. `due`: finding the due workspaces (the indexed query on next_due_at and their hold),
   target <= 50 ms;
3. `digests`: every due workspace's digests read, rendered and queued, target <= 30 s.

A measurement: a missed target is marked, never fatal."""

# The project's modules are imported once Django is set up on the database made here.
# ruff: noqa: PLC0415

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 10, 12, 5, tzinfo=UTC)  # 08:05 in New York


def _database(args) -> str:
    url = f"{args.pg}/{args.database}"
    subprocess.run(
        ["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", args.database], check=True
    )
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", args.database], check=True)
    return url


def _load(count: int, due: int):
    from notifications.models import NotificationSettings
    from workspaces.models import Lead, Member, Workspace

    workspaces = Workspace.objects.bulk_create(
        [
            Workspace(
                name=f"Bench {n}", slug=f"bench-{n}", currency="USD", timezone="America/New_York"
            )
            for n in range(count)
        ]
    )
    NotificationSettings.objects.bulk_create(
        [NotificationSettings(workspace=ws) for ws in workspaces], ignore_conflicts=True
    )
    Member.objects.bulk_create(
        [
            Member(workspace=ws, name=f"{role} {n}", email=f"{role}{n}@bench.test", role=role)
            for n, ws in enumerate(workspaces)
            for role in ("owner", "manager", "closer")
        ]
    )
    yesterday = NOW - timedelta(hours=20)
    Lead.objects.bulk_create(
        [
            Lead(
                workspace=ws,
                name=f"Lead {i}",
                created_at=yesterday + timedelta(minutes=i),
                first_contact_at=yesterday + timedelta(minutes=i + 5),
            )
            for ws in workspaces
            for i in range(5)
        ]
    )
    due_ids = [ws.pk for ws in workspaces[:due]]
    NotificationSettings.objects.update(next_due_at=NOW + timedelta(days=1))
    NotificationSettings.objects.filter(pk__in=due_ids).update(
        next_due_at=NOW - timedelta(minutes=5)
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _report(step: str, seconds: float, target: float, **extra) -> None:
    print(
        json.dumps(
            {
                "step": step,
                "ms": round(seconds * 1000, 1),
                "target_ms": target * 1000,
                "met": seconds <= target,
                **extra,
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspaces", type=int, default=2000)
    parser.add_argument("--due", type=int, default=200)
    parser.add_argument("--database", default="bench_notify")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = _database(args)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_dev"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings
    from django.core import mail

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    from config.celery import app

    app.conf.task_always_eager = True
    from notifications.rounds import round_due, round_run, workspace_notify_of

    _load(args.workspaces, args.due)
    empty = []
    for _ in range(20):
        start = time.perf_counter()
        assert round_run(now=NOW - timedelta(hours=1))["workspaces"] == 0
        empty.append(time.perf_counter() - start)
    _report("empty", statistics.median(empty), 0.020, workspaces=args.workspaces)

    start = time.perf_counter()
    due = round_due(NOW)
    _report("due", time.perf_counter() - start, 0.050, found=len(due))

    start = time.perf_counter()
    sent = 0
    for workspace_id, awaited in due:
        sent += sum(workspace_notify_of(workspace_id, NOW, awaited).values())
    _report(
        "digests",
        time.perf_counter() - start,
        30.0,
        workspaces=len(due),
        messages=sent,
        mails=len(mail.outbox),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
