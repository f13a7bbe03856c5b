"""Load a large, realistic workspace into a PostgreSQL database, quickly.

    .venv/bin/python bench/generate.py --database-url postgres://postgres@127.0.0.1:5432/bench_large
    .venv/bin/python bench/generate.py --database-url .../bench_small --leads 100000

The database is created when missing and migrated with Django's migrate command. The big
workspace gets --leads leads and, in proportion, calls (about 0.41 per lead), sales
(about 0.1 per lead) with instalments, payments and a few per cent of refunds, touches,
outcomes (including past-call outcomes), end-of-day reports, webinar events with
registrations, the `vsl` funnel with its funnel events, audit events and 60 members with
commission rules, and a year of daily ad spend for 50 campaigns (24 of them the campaigns
its leads carry). Beside it sit 50 small neighbouring workspaces.

Records arrive at a constant daily rate: 1,000,000 leads cover 730 days up to now, and a
smaller workspace covers proportionally fewer days (100,000 leads: 73 days), so a 30-day
period holds the same records in both and the comparison isolates the size of the
workspace. --span-days overrides this.

The bulk tables are written with COPY ... FREEZE, one connection per table so the server
parses while Python generates, with their secondary indexes and foreign keys dropped during
the load and rebuilt afterwards; then VACUUM ANALYZE. The service's invariants hold:
Call.outcome is the result of the call's latest outcome (and Call.outcome_reason its
reason: the loader writes no reasons), Call.replaced is true exactly
for calls another call reschedules, Lead.first_contact_at is the earliest touch by a
member, Lead.utm_tags is the UtmTags row of the lead's four tags, Lead.has_booking and
Lead.has_show follow its last call, Sale.cash_collected and
Lead.cash_collected are the succeeded payments, payments
carry their sale's closer and setter, Registration.booked_after says whether the lead
booked a call after the event started, and FunnelProgress holds each lead's entry and
stages reached in order. The figures' daily roll-ups are built last (rollups_build).
Same --seed, same day: same records.

A read token for the big workspace is minted with tokens.services.token_mint and written
with the ids the benchmark needs to bench/out/<database>.json.
"""

import argparse
import json
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import django
import psycopg
from django.apps import apps
from django.core.management import call_command
from django.db import connection, transaction
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

from bench.generate_rows import (  # noqa: E402
    DAY,
    HOUR,
    UTM_TAGS,
    Ids,
    Story,
    Writers,
    audit_write,
    eod_write,
    lead_story,
    libpq_url,
    spend_write,
)

MAIN_TZ = "America/New_York"
VSL_STAGES = ["opt-in", "application", "booked", "taken", "closed"]

# Tables written with COPY: (app_label, model name), in load order.
BULK_MODELS = [
    ("workspaces", "Lead"),
    ("workspaces", "Touch"),
    ("workspaces", "Call"),
    ("workspaces", "Outcome"),
    ("workspaces", "Sale"),
    ("workspaces", "Instalment"),
    ("workspaces", "Payment"),
    ("workspaces", "Refund"),
    ("workspaces", "EodReport"),
    ("workspaces", "Registration"),
    ("workspaces", "FunnelEvent"),
    ("workspaces", "FunnelProgress"),
    ("workspaces", "AdSpend"),
    ("audit", "AuditEvent"),
]

# Columns written per bulk table, by field name.
COLUMNS = {
    "Lead": [
        "id",
        "workspace",
        "external_id",
        "name",
        "email",
        "created_at",
        "status",
        "setter",
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_content",
        "first_contact_at",
        "has_sale",
        "cash_collected",
        "utm_tags",
        "has_booking",
        "has_show",
    ],
    "Touch": ["id", "workspace", "external_id", "lead", "member", "channel", "at"],
    "Call": [
        "id",
        "workspace",
        "external_id",
        "lead",
        "booked_at",
        "scheduled_for",
        "closer",
        "setter",
        "status",
        "rescheduled_from",
        "replaced",
        "attendance",
        "offer_made",
        "outcome",
        "outcome_reason",
    ],
    "Outcome": [
        "id",
        "workspace",
        "external_id",
        "call",
        "lead",
        "member",
        "result",
        "offer_made",
        "reason",
        "notes",
        "at",
    ],
    "Sale": [
        "id",
        "workspace",
        "external_id",
        "lead",
        "call",
        "origin",
        "closed_at",
        "closer",
        "setter",
        "contract_value",
        "payment_plan",
        "cash_collected",
    ],
    "Instalment": ["sale", "due_date", "amount"],
    "Payment": [
        "id",
        "workspace",
        "external_id",
        "sale",
        "paid_at",
        "amount",
        "status",
        "closer",
        "setter",
    ],
    "Refund": ["id", "workspace", "external_id", "payment", "sale", "kind", "at", "amount"],
    "EodReport": ["id", "workspace", "external_id", "member", "date", "submitted_at", "fields"],
    "Registration": [
        "id",
        "workspace",
        "external_id",
        "event",
        "lead",
        "registered_at",
        "joined_at",
        "left_at",
        "booked_after",
    ],
    "FunnelEvent": ["id", "workspace", "external_id", "lead", "funnel", "stage", "at"],
    "FunnelProgress": ["workspace", "funnel", "lead", "entered_at", "depth"],
    "AdSpend": [
        "id",
        "workspace",
        "external_id",
        "date",
        "platform",
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_content",
        "campaign_id",
        "campaign_name",
        "impressions",
        "clicks",
        "amount",
    ],
    "AuditEvent": [
        "id",
        "workspace",
        "agency",
        "at",
        "actor_kind",
        "actor_id",
        "actor_label",
        "action",
        "target_type",
        "target_id",
        "reason",
        "detail",
        "json_text",
    ],
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--database-url", required=True, help="postgres://user@host:port/name")
    p.add_argument("--leads", type=int, default=1_000_000, help="leads of the big workspace")
    p.add_argument("--span-days", type=float, default=None, help="default: 730 * leads / 1M")
    p.add_argument("--neighbours", type=int, default=50, help="small neighbouring workspaces")
    p.add_argument("--seed", type=int, default=20260301)
    p.add_argument("--recreate", action="store_true", help="drop and recreate the database")
    p.add_argument(
        "--if-absent", action="store_true", help="do nothing when the database is already loaded"
    )
    return p.parse_args(argv)


# --- the database itself -------------------------------------------------------------------


def database_prepare(url: str, *, recreate: bool, if_absent: bool) -> bool:
    """Create the database if needed. Returns False when it is loaded and may be kept."""
    info = psycopg.conninfo.conninfo_to_dict(libpq_url(url))
    name = info["dbname"]
    admin = psycopg.conninfo.make_conninfo(libpq_url(url), dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and recreate:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            conn.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))
            exists = None
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    with psycopg.connect(libpq_url(url)) as conn:
        loaded = conn.execute(
            "SELECT to_regclass('workspaces_lead') IS NOT NULL "
            "AND EXISTS (SELECT 1 FROM workspaces_lead)"
        ).fetchone()[0]
    if loaded and (if_absent and (OUT / f"{name}.json").exists()):
        return False
    if loaded:
        sys.exit(f"{name} already holds records: pass --recreate to load it again.")
    return True


def django_setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    django.setup()


# --- the workspaces ----------------------------------------------------------------------

MAIN_ROLES = (
    ["owner"] + ["admin"] * 2 + ["manager"] * 3 + ["closer"] * 18 + ["setter"] * 20 + ["sdr"] * 16
)
NEIGHBOUR_ROLES = ["owner", "closer", "closer", "setter", "setter", "sdr"]


# The month's goals of a benchmark workspace: one of the workspace per metric, and one for
# each of (at most) 50 members, on a metric of their slot (/api/v1/goals is timed on them).
WORKSPACE_GOALS = {
    "leads.created": 4000,
    "calls.booked": 1500,
    "calls.taken": 1000,
    "calls.closed": 300,
    "payments.cash_collected": 150_000_00,
    "payments.revenue_booked": 400_000_00,
}
MEMBER_GOALS = {"closer": ("payments.cash_collected", 20_000_00), "setter": ("calls.booked", 60)}


def goals_of_month(ws, members, moment) -> list:
    """Unsaved goals of the month of `moment` (local): the workspace's and 50 members'."""
    from workspaces.models import Goal  # noqa: PLC0415 (needs django.setup())

    month = moment.date().replace(day=1)
    goals = [
        Goal(workspace=ws, month=month, metric=metric, target=target)
        for metric, target in WORKSPACE_GOALS.items()
    ]
    holders = [m for m in members if m.role in ("closer", "setter", "sdr")][:50]
    for member in holders:
        metric, target = MEMBER_GOALS["closer" if member.role == "closer" else "setter"]
        goals.append(Goal(workspace=ws, month=month, metric=metric, member=member, target=target))
    return goals


def workspace_create(*, rng, new_id, agency, name, slug, tz, roles, start, end):
    """The small tables of one workspace, written with the ORM."""
    from workspaces.kept import utm_tags_ids  # noqa: PLC0415 (needs django.setup())
    from workspaces.models import (  # noqa: PLC0415 (needs django.setup())
        CommissionRule,
        Funnel,
        FunnelStage,
        Goal,
        Member,
        WebinarEvent,
        Workspace,
    )

    ws = Workspace.objects.create(
        id=new_id(), agency=agency, name=name, slug=slug, currency="USD", timezone=tz
    )
    zone = ZoneInfo(tz)
    first_day = datetime.fromtimestamp(start, zone).date()
    members = []
    rules = []
    for i, role in enumerate(roles):
        joined = None
        if role in ("closer", "setter", "sdr") and rng.random() < 0.3:
            joined = first_day + timedelta(days=rng.randint(0, max(1, int((end - start) / DAY))))
        m = Member(
            id=new_id(),
            workspace=ws,
            name=f"{role.title()} {i}",
            email=f"{role}{i}@{slug}.test",
            role=role,
            joined_at=joined,
            external_id=f"m{i}",
        )
        members.append(m)
        if role != "manager":
            slot = "closer" if role in ("closer", "owner", "admin") else "setter"
            basis = "cash_collected" if rng.random() < 0.6 else "revenue_booked"
            rate = Decimal(rng.choice(["0.0500", "0.0750", "0.1000", "0.1250"]))
            rules.append(
                CommissionRule(
                    id=new_id(),
                    workspace=ws,
                    member=m,
                    basis=basis,
                    slot=slot,
                    rate=rate,
                    external_id=f"cr{i}",
                )
            )
    Member.objects.bulk_create(members)
    CommissionRule.objects.bulk_create(rules)
    Goal.objects.bulk_create(goals_of_month(ws, members, datetime.fromtimestamp(end, zone)))
    funnel = Funnel.objects.create(workspace=ws, key="vsl", name="VSL funnel")
    stages = FunnelStage.objects.bulk_create(
        [FunnelStage(funnel=funnel, key=key, position=i) for i, key in enumerate(VSL_STAGES)]
    )
    # Two webinars a week (Tuesday and Thursday, 19:00 local), pitch 45 minutes in.
    events = []
    day = first_day
    last_day = datetime.fromtimestamp(end, zone).date() + timedelta(days=14)
    while day <= last_day:
        if day.weekday() in (1, 3):
            starts = datetime(day.year, day.month, day.day, 19, tzinfo=zone)
            events.append(
                WebinarEvent(
                    id=new_id(),
                    workspace=ws,
                    name=f"Masterclass {day}",
                    starts_at=starts,
                    pitch_at=starts + timedelta(minutes=45),
                    external_id=f"w{day}",
                )
            )
        day += timedelta(days=1)
    WebinarEvent.objects.bulk_create(events)
    member_rows = [(m.id, m.role, m.joined_at) for m in members]
    event_rows = [(e.starts_at.timestamp(), e.pitch_at.timestamp(), e.id) for e in events]
    utm_ids = utm_tags_ids(workspace=ws, combinations=UTM_TAGS)
    return ws, member_rows, funnel.id, [st.id for st in stages], event_rows, utm_ids


# --- dropping and rebuilding indexes around the load ------------------------------------


def constraints_drop(cur, tables: list[str]) -> list[str]:
    """Drop secondary indexes, unique and foreign-key constraints; return how to rebuild."""
    rebuild = []
    cur.execute(
        "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid), c.contype "
        "FROM pg_constraint c WHERE c.contype IN ('f', 'u') "
        "AND (c.conrelid = ANY(%s::regclass[]) OR c.confrelid = ANY(%s::regclass[])) "
        "ORDER BY c.contype DESC",
        [tables, tables],
    )
    constraints = cur.fetchall()
    for table, name, _definition, _ in constraints:
        cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    cur.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisprimary",
        [tables],
    )
    for name, definition in cur.fetchall():
        cur.execute(f"DROP INDEX {name}")
        rebuild.append(definition)
    # Unique constraints first (they are indexes), then foreign keys.
    for table, name, definition, _kind in sorted(constraints, key=lambda c: c[3] != "u"):
        rebuild.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    return rebuild


def main(argv=None) -> int:
    args = parse_args(argv)
    url = args.database_url
    if not database_prepare(url, recreate=args.recreate, if_absent=args.if_absent):
        print(f"{url.rsplit('/', 1)[-1]} is already loaded; pass --recreate to load it again.")
        return 0
    began = time.monotonic()
    django_setup(url)
    from audit.services import SYSTEM  # noqa: PLC0415 (needs django.setup())
    from tokens.services import token_mint  # noqa: PLC0415 (needs django.setup())
    from workspaces.models import Agency  # noqa: PLC0415 (needs django.setup())

    call_command("migrate", interactive=False, verbosity=0)
    migrated = time.monotonic()

    rng = random.Random(args.seed)
    new_id = Ids(rng)
    now = time.time()
    end = now - now % HOUR  # the hour the load runs in
    span = args.span_days if args.span_days is not None else 730.0 * args.leads / 1_000_000
    start = end - span * DAY

    tables = {}
    for app, model_name in BULK_MODELS:
        model = apps.get_model(app, model_name)
        cols = [model._meta.get_field(f).column for f in COLUMNS[model_name]]
        tables[model_name] = (model._meta.db_table, cols)
    table_names = [t for t, _ in tables.values()]

    with transaction.atomic():
        agency = Agency.objects.create(id=new_id(), name="Benchmark Agency", tier="agency")
        main_ws = workspace_create(
            rng=rng,
            new_id=new_id,
            agency=agency,
            name="Benchmark Workspace",
            slug="benchmark",
            tz=MAIN_TZ,
            roles=MAIN_ROLES,
            start=start,
            end=end,
        )
        neighbours = []
        for i in range(args.neighbours):
            neighbours.append(
                workspace_create(
                    rng=rng,
                    new_id=new_id,
                    agency=agency if i % 2 else None,
                    name=f"Neighbour {i}",
                    slug=f"neighbour-{i}",
                    tz="Europe/London",
                    roles=NEIGHBOUR_ROLES,
                    start=start,
                    end=end,
                )
            )

    with connection.cursor() as cur:
        rebuild = constraints_drop(cur, table_names)
    connection.close()
    small_done = time.monotonic()

    writers = Writers(url, tables)
    main_counts = None
    try:
        for wsinfo, n_leads, n_audit in [(main_ws, args.leads, int(args.leads * 0.15))] + [
            (n, max(1, args.leads // 500), max(1, args.leads // 5000)) for n in neighbours
        ]:
            ws, members, funnel_id, stage_ids, events, utm_ids = wsinfo
            story = Story(
                ws=ws.id,
                members=members,
                funnel_id=funnel_id,
                stage_ids=stage_ids,
                events=events,
                utm_ids=utm_ids,
                start=start,
                end=end,
                tz=ZoneInfo(ws.timezone),
                scale=1,
            )
            times = sorted(rng.uniform(start, end) for _ in range(n_leads))
            for n, t in enumerate(times):
                lead_story(story, writers, rng, new_id, t, n)
            eod_write(story, writers, rng, new_id, ws.working_days)
            audit_write(story, writers, rng, new_id, n_audit)
            if main_counts is None:
                spend_write(story, writers, rng, new_id)
                main_counts = dict(writers.counts)
        counts = dict(writers.counts)
    finally:
        writers.close()
    copied = time.monotonic()

    with psycopg.connect(libpq_url(url), autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        for statement in rebuild:
            conn.execute(statement)
        indexed = time.monotonic()
        for table in [
            *table_names,
            "workspaces_workspace",
            "workspaces_member",
            "workspaces_webinarevent",
            "workspaces_commissionrule",
            "workspaces_funnel",
            "workspaces_funnelstage",
        ]:
            conn.execute(f"VACUUM (ANALYZE) {table}")
    analysed = time.monotonic()
    # The figures' daily roll-ups, as the beat would build them, then their statistics.
    call_command("rollups_build", all=True, verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    from figures.selectors.days import KINDS  # noqa: PLC0415 (needs django.setup())

    with psycopg.connect(libpq_url(url), autocommit=True) as conn:
        for table in [kind.model._meta.db_table for kind in KINDS.values()]:
            conn.execute(f"VACUUM (ANALYZE) {table}")
    rolled = time.monotonic()

    ws = main_ws[0]
    minted = token_mint(actor=SYSTEM, name="Benchmark", scopes=["read"], workspace=ws)
    with connection.cursor() as cur:
        # A lead with a full story (calls, outcomes, a sale, payments) for the journey.
        cur.execute(
            "SELECT s.lead_id FROM workspaces_sale s JOIN workspaces_call c ON c.id = s.call_id "
            "WHERE s.workspace_id = %s AND c.rescheduled_from_id IS NOT NULL "
            "ORDER BY s.closed_at DESC LIMIT 1",
            [ws.id],
        )
        row = cur.fetchone()
        if row is None:
            cur.execute(
                "SELECT lead_id FROM workspaces_sale WHERE workspace_id = %s LIMIT 1", [ws.id]
            )
            row = cur.fetchone()
        journey_lead = str(row[0]) if row else None
        cur.execute("SELECT count(*) FROM workspaces_lead WHERE workspace_id = %s", [ws.id])
        main_leads = cur.fetchone()[0]

    name = url.rsplit("/", 1)[-1]
    OUT.mkdir(parents=True, exist_ok=True)
    total = time.monotonic() - began
    out = {
        "database_url": url,
        "workspace_id": str(ws.id),
        "token": minted.plaintext,
        "journey_lead_id": journey_lead,
        "seed": args.seed,
        "leads": main_leads,
        "span_days": span,
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "counts": main_counts,
        "counts_all_workspaces": counts,
        "seconds": round(total, 1),
    }
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(out, indent=2))
    path.chmod(0o600)

    print(
        f"Loaded {name}: big workspace {main_leads:,} leads over {span:g} days, "
        f"{args.neighbours} neighbours (seed {args.seed})"
    )
    print(f"  {'table':<28} {'big workspace':>14} {'all workspaces':>15}")
    for model_name, count in counts.items():
        print(f"  {tables[model_name][0]:<28} {main_counts[model_name]:>14,} {count:>15,}")
    print(f"  {'(all bulk rows)':<28} {sum(main_counts.values()):>14,} {sum(counts.values()):>15,}")
    print(
        f"Time: migrate {migrated - began:.1f}s, small tables {small_done - migrated:.1f}s, "
        f"COPY {copied - small_done:.1f}s, indexes and constraints {indexed - copied:.1f}s, "
        f"VACUUM ANALYZE {analysed - indexed:.1f}s, daily roll-ups {rolled - analysed:.1f}s; "
        f"total {total:.1f}s"
    )
    print(f"Token and ids written to {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
