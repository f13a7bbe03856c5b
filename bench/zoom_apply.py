"""Zoom participant events applied in-process by integrations.services.events_apply.

    .venv/bin/python bench/zoom_apply.py                    # bench_large, 5,000 people
    .venv/bin/python bench/zoom_apply.py --people 1000

On a database loaded by bench/generate.py (its bench/out/<name>.json), with the production
settings (DEBUG off, fresh keys):

0. makes a Zoom connection on the big workspace (its backfill, which would call Zoom, is not
   started), a webinar event and --people registrations of existing leads' emails, as Zoom's
   webinar.created and webinar.registration_created events would have made them (the events
   stored as applied);
1. stores a joined and a left event per person (2 x --people participant events), in the
   order of their times: each person joins within the first ten minutes and leaves between
   thirty and ninety minutes in;
2. times events_apply(connection_id=...) in this process, as the worker's task runs it:
   events/s, target >= 300; then checks every registration's join and leave.

At the end, in one transaction, it deletes what it added: the registrations, the webinar
event, the connection with its events, and their audit events; no lead is made (checked).
Then VACUUM ANALYZEs the tables it wrote. A run interrupted before that is cleaned up by the
next run (its connection is made by "bench/zoom_apply.py"). A missed target is marked, never
fatal.
"""

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.served import production_environment  # noqa: E402

OUT = ROOT / "bench" / "out"
MADE_BY = "bench/zoom_apply.py"
APPLY_TARGET = 300.0
START = datetime(2026, 11, 20, 17, 0, tzinfo=UTC)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database", default="bench_large", help="a database of bench/generate.py")
    p.add_argument("--people", type=int, default=5000, help="registrants, each joins and leaves")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="leave the connection and its records")
    args = p.parse_args(argv)
    args.people = max(1, min(args.people, 50_000))
    return args


def django_start(database_url: str) -> None:
    import os

    os.environ.update(production_environment(database_url=database_url, port=8799))
    import django

    django.setup()


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def webinar_object(webinar_id: int) -> dict:
    return {
        "uuid": "benchAAAiAAAAAiAiAiiAii==",
        "id": webinar_id,
        "host_id": "z8yCxjabcdEFGHfp8uQ",
        "topic": "Bench webinar",
        "type": 5,
        "start_time": iso(START),
        "duration": 90,
        "timezone": "UTC",
    }


def registered(webinar_id: int, email: str, n: int, at: datetime) -> dict:
    return {
        "event": "webinar.registration_created",
        "event_ts": ms(at),
        "payload": {
            "account_id": "benchAccount01",
            "object": {
                **webinar_object(webinar_id),
                "registrant": {
                    "id": f"reg-{n}",
                    "first_name": f"Person {n}",
                    "last_name": "",
                    "email": email,
                    "status": "approved",
                },
            },
        },
    }


def participant(webinar_id: int, kind: str, email: str, n: int, at: datetime) -> dict:
    person = {
        "user_id": str(16778240 + n),
        "user_name": f"Person {n}",
        "id": f"p-{n}",
        "participant_uuid": f"p-{n}-{kind}-{ms(at)}",
        "email": email,
        "registrant_id": f"reg-{n}",
    }
    person["join_time" if kind == "joined" else "leave_time"] = iso(at)
    return {
        "event": f"webinar.participant_{kind}",
        "event_ts": ms(at) + 512,
        "payload": {
            "account_id": "benchAccount01",
            "object": {**webinar_object(webinar_id), "id": str(webinar_id), "participant": person},
        },
    }


def leftovers_remove() -> int:
    from integrations.models import Connection

    left = list(Connection.objects.filter(created_by=MADE_BY))
    for connection in left:
        cleanup(connection)
    return len(left)


def connection_make(workspace):
    from audit.services import SYSTEM
    from integrations import services

    started = services._backfill_enqueue
    services._backfill_enqueue = lambda connection_id: None
    try:
        return services.connection_create(
            workspace=workspace,
            provider="zoom",
            credentials={
                "account_id": "benchAccount01",
                "client_id": "benchClientId01",
                "client_secret": "benchClientSecret0123456789",
                "webhook_secret_token": "benchWebhookSecretToken0",
            },
            actor=SYSTEM,
            created_by=MADE_BY,
        )
    finally:
        services._backfill_enqueue = started


def events_store(connection, payloads: list[dict], state: str) -> None:
    """Store the events as the endpoint would (described by the provider), many at a time."""
    from django.utils import timezone

    from integrations.models import Event
    from integrations.providers import provider_get

    provider = provider_get("zoom")
    now = timezone.now()
    rows = []
    for payload in payloads:
        described = provider.describe(payload)
        rows.append(
            Event(
                connection=connection,
                workspace_id=connection.workspace_id,
                provider="zoom",
                event_id=described.event_id,
                event_type=described.event_type,
                object_id=described.object_id,
                payload=payload,
                received_at=now,
                occurred_at=described.occurred_at,
                state=state,
                applied_at=now if state == Event.State.APPLIED else None,
            )
        )
    Event.objects.bulk_create(rows, batch_size=1000)


def setup(workspace, connection, webinar_id: int, people: int, rng: random.Random):
    """The webinar and its registrations of existing leads, as Zoom's events made them; the
    participant events stored, received. Returns {email: (joined, left)}."""
    from django.db import transaction

    from integrations.models import Event
    from workspaces.kept import registrations_booked_refresh
    from workspaces.models import Lead, Registration
    from workspaces.services import webinar_event_upsert

    leads = list(
        Lead.objects.filter(workspace=workspace)
        .exclude(email="")
        .order_by("pk")
        .values_list("pk", "email")[: people * 3]
    )
    leads = [(pk, email) for pk, email in leads if email.isascii()]
    leads = rng.sample(leads, people)
    registered_at = START - timedelta(days=3)
    with transaction.atomic():
        event, _ = webinar_event_upsert(
            workspace=workspace,
            external_id=str(webinar_id),
            name="Bench webinar",
            starts_at=START,
        )
        created = {
            "event": "webinar.created",
            "event_ts": ms(START - timedelta(days=7)),
            "payload": {"account_id": "benchAccount01", "object": webinar_object(webinar_id)},
        }
        registrations, payloads = [], [created]
        for n, (lead_id, email) in enumerate(leads):
            email = email.strip().lower()
            at = registered_at + timedelta(seconds=n)
            payloads.append(registered(webinar_id, email, n, at))
            registrations.append(
                Registration(
                    workspace=workspace,
                    external_id=f"zoom:{webinar_id}:{email}",
                    event=event,
                    lead_id=lead_id,
                    registered_at=at,
                )
            )
        Registration.objects.bulk_create(registrations, batch_size=1000)
        registrations_booked_refresh(workspace=workspace, event_ids=[event.pk])
        events_store(connection, payloads, Event.State.APPLIED)

    times, participants = {}, []
    for n, (_lead_id, email) in enumerate(leads):
        email = email.strip().lower()
        joined = START + timedelta(seconds=rng.randrange(0, 600))
        left = START + timedelta(seconds=rng.randrange(1800, 5400))
        times[email] = (joined, left)
        participants.append((joined, participant(webinar_id, "joined", email, n, joined)))
        participants.append((left, participant(webinar_id, "left", email, n, left)))
    participants.sort(key=lambda item: item[0])
    with transaction.atomic():
        events_store(connection, [payload for _at, payload in participants], Event.State.RECEIVED)
    return event, times


def check(workspace, event, times: dict) -> int:
    """How many registrations differ from the participant events' times."""
    from workspaces.models import Registration

    wrong = 0
    found = {
        external_id: (joined, left)
        for external_id, joined, left in Registration.objects.filter(event=event).values_list(
            "external_id", "joined_at", "left_at"
        )
    }
    for email, expected in times.items():
        if found.get(f"zoom:{event.external_id}:{email}") != expected:
            wrong += 1
    return wrong


def cleanup(connection) -> dict:
    from django.db import transaction
    from django.db.models import Q

    from audit.models import AuditEvent
    from integrations.models import Connection, Event
    from workspaces.models import Registration, WebinarEvent

    with transaction.atomic():
        connection = Connection.objects.select_for_update().get(pk=connection.pk)
        workspace = connection.workspace
        webinars = list(
            Event.objects.filter(connection=connection, event_type="webinar.created")
            .values_list("object_id", flat=True)
            .distinct()
        )
        events = WebinarEvent.objects.filter(workspace=workspace, external_id__in=webinars)
        registrations, _ = Registration.objects.filter(event__in=events).delete()
        webinar_events, _ = events.delete()
        audits, _ = AuditEvent.objects.filter(
            Q(actor_kind="integration", actor_id=str(connection.pk))
            | Q(target_type="integration_connection", target_id=str(connection.pk))
        ).delete()
        stored = Event.objects.filter(connection=connection).count()
        connection.delete()
    return {
        "registrations": registrations,
        "webinar_events": webinar_events,
        "events": stored,
        "audit_events": audits,
    }


def vacuum(tables: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f'VACUUM ANALYZE "{table}"')


def main(argv=None) -> int:
    args = parse_args(argv)
    meta = json.loads((OUT / f"{args.database}.json").read_text())
    django_start(meta["database_url"])

    from django.db.models import Count

    from integrations import services
    from integrations.models import Event
    from workspaces.models import Lead, Workspace

    removed = leftovers_remove()
    if removed:
        print(f"removed {removed} connection(s) left by an earlier run")
    workspace = Workspace.objects.get(pk=meta["workspace_id"])
    rng = random.Random(args.seed)
    webinar_id = 99_000_000_000 + rng.randrange(1_000_000)
    zoom_leads = Lead.objects.filter(workspace=workspace, external_id__startswith="zoom:").count()
    connection = connection_make(workspace)
    try:
        started = time.perf_counter()
        event, times = setup(workspace, connection, webinar_id, args.people, rng)
        print(f"setup: {args.people} registrations, {2 * args.people} participant events "
              f"stored in {time.perf_counter() - started:.1f} s")  # fmt: skip
        started = time.perf_counter()
        taken = services.events_apply(connection_id=connection.pk)
        seconds = time.perf_counter() - started
        rate = taken / seconds if seconds else 0.0
        mark = "" if rate >= APPLY_TARGET else "  (below the target)"
        print(f"applied {taken} events in {seconds:.2f} s: {rate:.1f} events/s, "
              f"target >= {APPLY_TARGET:.0f}{mark}")  # fmt: skip
        states = dict(
            Event.objects.filter(connection=connection)
            .values("state")
            .annotate(n=Count("pk"))
            .values_list("state", "n")
        )
        print(f"events by state: {states}; registrations wrong: {check(workspace, event, times)}")
        made = (
            Lead.objects.filter(workspace=workspace, external_id__startswith="zoom:").count()
            - zoom_leads
        )
        print(f"leads made: {made}")
    finally:
        if not args.keep:
            print("cleanup:", cleanup(connection))
            vacuum(
                [
                    "workspaces_registration",
                    "workspaces_webinarevent",
                    "integrations_event",
                    "audit_auditevent",
                ]
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
