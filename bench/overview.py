"""Time the overview page of a benchmark workspace, rendered on the server.

    .venv/bin/python bench/overview.py bench/out/bench_large.json --runs 60
    .venv/bin/python bench/overview.py bench/out/bench_large.json --range 90

Renders the overview (every headline figure of the period and the previous one, the daily
series, the funnel, attribution, commission, EOD and waiting leads, and the template) for
the workspace's owner in-process, --runs times after --warmup, and prints p50 / p95 in ms.
With --lists it also times the first page of each list a figure opens (calls taken, calls
awaiting an outcome, leads created, leads never contacted; target p95 <= 100 ms), as the
owner's account (made for the run inside a transaction that is rolled back when the
owner has none).
Sign-in and the HTTP server are left out (the figures API's own benchmark, bench/run.py,
measures those); the database is only read.
"""

import argparse
import base64
import json
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

import django
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("info", help="bench/out/<database>.json written by bench/generate.py")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--range", default="30", help="the period picker's choice (7, 30, 90...)")
    parser.add_argument("--lists", action="store_true", help="also time the lists")
    parser.add_argument(
        "--parts", action="store_true", help="also time each part of the page alone"
    )
    args = parser.parse_args(argv)
    info = json.loads(Path(args.info).read_text())
    os.environ["DATABASE_URL"] = info["database_url"]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    os.environ["DEBUG"] = "false"
    os.environ["LOG_LEVEL"] = "ERROR"
    # With DEBUG off the development keys are refused: keys of this run's own (the page
    # decrypts nothing).
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(48)
    os.environ["FIELD_ENCRYPTION_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
    # With DEBUG off the settings need the public address; the pages link the static files
    # by their plain names (nothing is collected for a run).
    os.environ.setdefault("BASE_URL", "http://127.0.0.1:8000")
    os.environ.setdefault("STATIC_HASHED", "false")
    django.setup()
    from django.contrib.auth.models import AnonymousUser  # noqa: PLC0415 (needs django.setup())

    from dashboard.pages import overview_page  # noqa: PLC0415 (needs django.setup())
    from workspaces.models import Member, Workspace  # noqa: PLC0415 (needs django.setup())

    workspace = Workspace.objects.get(pk=info["workspace_id"])
    owner = Member.objects.filter(workspace=workspace, role="owner").first()
    factory = RequestFactory()

    def render_once():
        request = factory.get(f"/app/{workspace.pk}/", {"range": args.range})
        request.user = AnonymousUser()
        response = overview_page(request, workspace, owner)
        assert response.status_code == 200, response.status_code
        return len(response.content)

    p50, p95, queries, size = timed(render_once, args)
    print(
        f"overview range={args.range} of {info['database_url'].rsplit('/', 1)[-1]}: "
        f"{args.runs} renders, p50 {p50:.1f} ms, p95 {p95:.1f} ms, {queries} queries, "
        f"{size:,} bytes"
    )
    if args.parts:
        parts_time(args, workspace, owner, factory)
    if args.lists:
        lists_time(args, workspace, owner, factory)
    return 0


def timed(render, args) -> tuple[float, float, int, int]:
    """p50 and p95 in ms of --runs renders after --warmup, the queries of one, its size."""
    for _ in range(args.warmup):
        size = render()
    with CaptureQueriesContext(connection) as queries:
        render()
    times = []
    for _ in range(args.runs):
        began = time.perf_counter()
        render()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    return statistics.median(times), p95, len(queries.captured_queries), size


def parts_time(args, workspace, owner, factory) -> None:
    """Each part of the overview timed alone (its selector, or the rest of the page's
    work for "page"): where the render's milliseconds go."""
    from dashboard import selectors  # noqa: PLC0415
    from dashboard.periods import period_pick  # noqa: PLC0415
    from figures import selectors as figures  # noqa: PLC0415

    request = factory.get(f"/app/{workspace.pk}/", {"range": args.range})
    picked = period_pick(workspace=workspace, params=request.GET)
    period = picked.period
    parts = {
        "series and headline, this period": lambda: figures.series_with_totals(
            workspace=workspace,
            period=period,
            metrics=[*selectors.CASH_CHART, *selectors.CALLS_CHART],
            totals=[metric for metric in selectors.HEADLINE if metric != "leads.created"],
            interval=picked.interval,
        ),
        "headline, previous period": lambda: figures.metric_figures(
            workspace=workspace, period=picked.previous, metrics=selectors.HEADLINE
        ),
        "funnel": lambda: selectors._funnel(workspace, period),
        "attribution (and leads created)": lambda: figures.attribution_figures(
            workspace=workspace, period=period
        ),
        "commission": lambda: figures.commission_figures(workspace=workspace, period=period),
        "eod": lambda: figures.eod_figures(workspace=workspace, period=period),
        "waiting": lambda: figures.speed_to_lead(
            workspace=workspace, within_minutes=selectors.WAITING_MINUTES
        ),
        "never contacted": lambda: figures.leads_of_period(
            workspace=workspace, period=period, never_contacted=True
        ).count(),
        "first run": lambda: selectors.first_run(workspace=workspace),
    }
    total = 0.0
    for label, part in parts.items():
        p50, p95, queries, _ = timed(lambda part=part: (part(), 0)[1], args)
        total += p50
        print(f"  part {label}: p50 {p50:.1f} ms, p95 {p95:.1f} ms, {queries} queries")
    print(f"  parts' p50 added up: {total:.1f} ms")


def lists_time(args, workspace, owner, factory) -> None:
    from django.contrib.auth import get_user_model  # noqa: PLC0415
    from django.db import transaction  # noqa: PLC0415

    from dashboard.lists import calls_list, leads_list  # noqa: PLC0415

    lists = {
        "calls taken": (calls_list, {"figure": "taken"}),
        "calls awaiting an outcome": (calls_list, {"figure": "awaiting_outcome"}),
        "leads created": (leads_list, {}),
        "leads never contacted": (leads_list, {"waiting": "1"}),
    }
    with transaction.atomic():
        if owner.user_id is None:
            owner.user = get_user_model().objects.create_user(
                username=f"bench-owner-{owner.pk}", email=owner.email
            )
            type(owner).objects.filter(pk=owner.pk).update(user=owner.user)
        for label, (view, params) in lists.items():
            path = f"/app/{workspace.pk}/"

            def once(view=view, params=params, path=path):
                request = factory.get(path, {"range": args.range, **params})
                request.user = owner.user
                response = view(request, workspace_id=workspace.pk)
                assert response.status_code == 200, response.status_code
                return len(response.content)

            p50, p95, queries, _size = timed(once, args)
            print(f"  list {label}: p50 {p50:.1f} ms, p95 {p95:.1f} ms, {queries} queries")
        transaction.set_rollback(True)


if __name__ == "__main__":
    raise SystemExit(main())
