"""figures.rollups: the daily roll-ups of leads, calls, past-call forms, the leads' cohort and
the funnels equal the records after
any sequence of writes, revisions and deletions, and the figures read through them answer
what the records answer, before and after the beat counts the days again."""

import random
from datetime import timedelta

import pytest
from django.db.models import Count
from django.utils import timezone

from core.times import workspace_zone
from figures import rollups
from figures.models import CallDay, PastOutcomeDay, RollupDirty, RollupState
from figures.period import Period
from figures.selectors import days
from figures.selectors.acquisition import (
    acquisition_counts,
    acquisition_series_counts,
    acquisition_total,
)
from figures.selectors.base import OUTCOME_RESULTS
from figures.selectors.calls import calls_counts
from figures.selectors.funnel import _funnel_stage_counts
from figures.selectors.leads import attribution_figures, leads_counts
from figures.selectors.outcomes import outcomes_counts
from figures.selectors.series import _series_rows
from workspaces.kept import utm_tags_ids
from workspaces.models import Call, Funnel, FunnelProgress, FunnelStage, Lead, Outcome, Workspace

pytestmark = pytest.mark.django_db

STATUSES = [Call.Status.SCHEDULED] * 4 + [Call.Status.CANCELLED]
ATTENDANCES = ["", Call.Attendance.SHOWED, Call.Attendance.NO_SHOW]
OUTCOMES = ["", *OUTCOME_RESULTS]
REASONS = ["", "price", "timing"]
# (source, medium, campaign, content)
TAGS = [
    ("", "", "", ""),
    ("meta", "paid", "spring", ""),
    ("meta", "paid", "autumn", "video"),
    ("google", "cpc", "spring", ""),
]


@pytest.fixture
def world(make_workspace, make_member):
    ws = make_workspace(timezone="America/New_York")
    members = [make_member(ws, "closer", name=f"C{n}") for n in range(2)]
    for key in ("vsl", "webinar"):
        funnel = Funnel.objects.create(workspace=ws, key=key, name=key)
        for position in range(4):
            FunnelStage.objects.create(funnel=funnel, key=f"s{position}", position=position)
    return ws, members


def _stored(kind) -> list[tuple]:
    """A roll-up's rows as comparable tuples."""
    fields = ("workspace_id", kind.time_field, *kind.columns, "n", *kind.sums)
    return sorted(kind.model.objects.values_list(*fields), key=repr)


def _recounted(kind, ws) -> list[tuple]:
    """The rows the records make now, counted in the workspace's zone."""
    zone = workspace_zone(ws)
    bounds = days.day_span(
        timezone.now().date() - timedelta(days=400),
        timezone.now().date() + timedelta(days=400),
        zone,
    )
    rows = rollups._counted(kind, ws, zone, bounds)
    fields = (kind.time_field, *kind.columns, "n", *kind.sums)
    return sorted(((ws.pk, *(getattr(row, name) for name in fields)) for row in rows), key=repr)


class Writes:
    """Random writes of every kind a counted column sees."""

    def __init__(self, ws, members, seed):
        self.ws, self.members, self.rng = ws, members, random.Random(seed)
        self.now = timezone.now()

    def instant(self):
        return self.now + timedelta(
            days=self.rng.randint(-45, 8),
            hours=self.rng.randint(0, 23),
            minutes=self.rng.randint(0, 59),
        )

    def tags(self) -> dict:
        """A lead's four tags and, most often, its kept combination (as the services write
        it; without it, as an import of old rows may leave it)."""
        tags = self.rng.choice(TAGS)
        kept = None
        if self.rng.random() < 0.8:
            kept = utm_tags_ids(workspace=self.ws, combinations=[tags])[tags]
        names = ("utm_source", "utm_medium", "utm_campaign", "utm_content")
        return {**dict(zip(names, tags, strict=True)), "utm_tags_id": kept}

    def flags(self) -> dict:
        rng = self.rng
        sale = rng.random() < 0.3
        return {
            "has_booking": rng.random() < 0.5,
            "has_show": rng.random() < 0.3,
            "has_sale": sale,
            "cash_collected": rng.choice([0, 15000, 99900]) if sale else 0,
        }

    def lead(self):
        return Lead.objects.create(
            workspace=self.ws, name="L", created_at=self.instant(), **self.tags(), **self.flags()
        )

    def call_add(self):
        rng = self.rng
        Call.objects.create(
            workspace=self.ws,
            lead=self.lead(),
            booked_at=self.now - timedelta(days=50),
            scheduled_for=self.instant(),
            status=rng.choice(STATUSES),
            attendance=rng.choice(ATTENDANCES),
            offer_made=rng.choice([None, True, False]),
            outcome=rng.choice(OUTCOMES),
            outcome_reason=rng.choice(REASONS),
            replaced=rng.random() < 0.15,
            closer=rng.choice([None, *self.members]),
        )

    def call_change(self):
        call = Call.objects.filter(workspace=self.ws).order_by("?").first()
        if call is None:
            return
        rng = self.rng
        change = rng.choice(
            ["scheduled_for", "status", "attendance", "offer_made", "outcome", "replaced"]
        )
        value = {
            "scheduled_for": self.instant,
            "status": lambda: rng.choice(STATUSES),
            "attendance": lambda: rng.choice(ATTENDANCES),
            "offer_made": lambda: rng.choice([None, True, False]),
            "outcome": lambda: rng.choice(OUTCOMES),
            "replaced": lambda: not call.replaced,
        }[change]()
        if rng.random() < 0.5:
            # An UPDATE of that one column.
            Call.objects.filter(pk=call.pk).update(**{change: value})
            return
        setattr(call, change, value)
        if change == "outcome":
            call.outcome_reason = rng.choice(REASONS)
        call.save()

    def calls_bulk(self):
        """UPDATEs over many rows: some moved a day later, others marked showed."""
        ids = list(
            Call.objects.filter(workspace=self.ws).order_by("?").values_list("pk", flat=True)[:10]
        )
        for call in Call.objects.filter(pk__in=ids[:5]):
            Call.objects.filter(pk=call.pk).update(
                scheduled_for=call.scheduled_for + timedelta(days=1)
            )
        Call.objects.filter(pk__in=ids[5:]).update(attendance=Call.Attendance.SHOWED)

    def call_delete(self):
        call = Call.objects.filter(workspace=self.ws).order_by("?").first()
        if call is not None:
            call.delete()

    def past_add(self):
        rng = self.rng
        Outcome.objects.create(
            workspace=self.ws,
            lead=self.lead(),
            member=rng.choice(self.members),
            result=rng.choice(OUTCOME_RESULTS),
            reason=rng.choice(REASONS),
            at=self.instant(),
        )

    def past_change(self):
        form = Outcome.objects.filter(workspace=self.ws).order_by("?").first()
        if form is None:
            return
        rng = self.rng
        choice = rng.choice(["at", "result", "reason", "call"])
        if choice == "at":
            form.at = self.instant()
        elif choice == "result":
            form.result = rng.choice(OUTCOME_RESULTS)
        elif choice == "reason":
            form.reason = rng.choice(REASONS)
        else:
            form.call = Call.objects.filter(workspace=self.ws).order_by("?").first()
        if rng.random() < 0.5:
            # An UPDATE of that one column.
            name = "call" if choice == "call" else choice
            Outcome.objects.filter(pk=form.pk).update(**{name: getattr(form, name)})
            return
        form.save()

    def past_delete(self):
        form = Outcome.objects.filter(workspace=self.ws).order_by("?").first()
        if form is not None:
            form.delete()

    def lead_change(self):
        lead = Lead.objects.filter(workspace=self.ws).order_by("?").first()
        if lead is None:
            return
        if self.rng.random() < 0.5:
            Lead.objects.filter(pk=lead.pk).update(created_at=self.instant())
        else:
            lead.created_at = self.instant()
            lead.save()

    def funnels(self):
        return list(Funnel.objects.filter(workspace=self.ws).order_by("pk"))

    def progress_add(self):
        FunnelProgress.objects.create(
            workspace=self.ws,
            funnel=self.rng.choice(self.funnels()),
            lead=self.lead(),
            entered_at=self.instant(),
            depth=self.rng.randint(0, 4),
        )

    def progress_change(self):
        progress = FunnelProgress.objects.filter(workspace=self.ws).order_by("?").first()
        if progress is None:
            return
        rng = self.rng
        name = rng.choice(["entered_at", "depth", "funnel"])
        value = {
            "entered_at": self.instant,
            "depth": lambda: rng.randint(0, 4),
            "funnel": lambda: rng.choice(self.funnels()),
        }[name]()
        if rng.random() < 0.5:
            FunnelProgress.objects.filter(pk=progress.pk).update(**{name: value})
            return
        setattr(progress, name, value)
        progress.save()

    def lead_cohort_change(self):
        """What the services keep on a lead as its calls, sales and tags change."""
        lead = Lead.objects.filter(workspace=self.ws).order_by("?").first()
        if lead is None:
            return
        values = self.rng.choice([self.tags, self.flags])()
        if self.rng.random() < 0.5:
            name = self.rng.choice(sorted(values))
            Lead.objects.filter(pk=lead.pk).update(**{name: values[name]})
            return
        for name, value in values.items():
            setattr(lead, name, value)
        lead.save()

    def lead_delete(self):
        """A lead deleted with its calls and forms (the cascade)."""
        lead = Lead.objects.filter(workspace=self.ws).order_by("?").first()
        if lead is not None:
            lead.delete()

    def step(self):
        getattr(
            self,
            self.rng.choice(
                ["call_add"] * 4
                + ["call_change"] * 3
                + [
                    "calls_bulk",
                    "call_delete",
                    "past_add",
                    "past_add",
                    "past_change",
                    "past_delete",
                    "lead_change",
                    "lead_change",
                    "lead_cohort_change",
                    "lead_cohort_change",
                    "progress_add",
                    "progress_change",
                    "lead_delete",
                ]
            ),
        )()


def _periods(ws, now):
    today = now.astimezone(workspace_zone(ws)).date()
    return [
        Period.of_days(workspace=ws, first_day=today - timedelta(days=29), last_day=today),
        Period.of_days(
            workspace=ws, first_day=today - timedelta(days=40), last_day=today - timedelta(days=3)
        ),
        Period.of_days(
            workspace=ws, first_day=today - timedelta(days=5), last_day=today + timedelta(days=7)
        ),
    ]


def _answers(ws, now) -> list:
    answers = []
    for period in _periods(ws, now):
        answers.append(dict(calls_counts(workspace=ws, period=period, now=now)))
        answers.append(outcomes_counts(workspace=ws, period=period))
        answers.append(leads_counts(workspace=ws, period=period))
        answers.append(attribution_figures(workspace=ws, period=period).data)
        for funnel in Funnel.objects.filter(workspace=ws).order_by("pk"):
            stages = list(funnel.stages.all())
            answers.append(
                _funnel_stage_counts(workspace=ws, funnel=funnel, stages=stages, period=period)
            )
        for by in ("campaign", "source"):
            answers.append(acquisition_counts(workspace=ws, period=period, by=by))
        answers.append(acquisition_series_counts(workspace=ws, period=period, buckets=None))
        answers.append(acquisition_total(workspace=ws, period=period))
        for interval in ("day", "week"):
            _, buckets = _series_rows(ws, period, interval)
            per_bucket = calls_counts(workspace=ws, period=period, now=now, buckets=buckets)
            answers.append({start: dict(counts) for start, counts in per_bucket.items()})
            answers.append(outcomes_counts(workspace=ws, period=period, buckets=buckets))
            answers.append(leads_counts(workspace=ws, period=period, buckets=buckets))
            answers.append(acquisition_series_counts(workspace=ws, period=period, buckets=buckets))
    return answers


def _same_with_and_without(ws, settings) -> None:
    now = timezone.now()
    settings.FIGURES_ROLLUPS = True
    rolled = _answers(ws, now)
    settings.FIGURES_ROLLUPS = False
    plain = _answers(ws, now)
    settings.FIGURES_ROLLUPS = True
    assert rolled == plain


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rollups_equal_the_records_after_any_writes(world, settings, seed):
    ws, members = world
    writes = Writes(ws, members, seed)
    for _ in range(30):
        writes.call_add()
        writes.past_add()
        writes.progress_add()
    assert rollups.rollups_build(ws) > 0
    for kind in days.KINDS.values():
        assert _stored(kind) == _recounted(kind, ws)
    _same_with_and_without(ws, settings)
    for round_ in range(6):
        for _ in range(12):
            writes.step()
        # Dirty, not yet counted again: the figures read those days from the records.
        assert RollupDirty.objects.filter(workspace_id=ws.pk).exists()
        _same_with_and_without(ws, settings)
        if round_ % 2:
            rollups.rollups_refresh()
            assert not RollupDirty.objects.exists()
            for kind in days.KINDS.values():
                assert _stored(kind) == _recounted(kind, ws)
            _same_with_and_without(ws, settings)


def test_a_round_counts_at_most_its_days_and_leaves_the_rest_for_the_next(world, settings):
    ws, members = world
    writes = Writes(ws, members, 11)
    for _ in range(40):
        writes.call_add()
        writes.past_add()
    rollups.rollups_build(ws)
    for _ in range(40):
        writes.step()
    zone = workspace_zone(ws)

    def dirty() -> set:
        return {
            kind: days.dirty_days(days.KINDS[kind], workspace_id=ws.pk, zone=zone)
            for kind in RollupDirty.objects.values_list("kind", flat=True).distinct()
        }

    before = dirty()
    total = sum(len(found) for found in before.values())
    assert total > 6
    settings.ROLLUPS_DAYS_PER_ROUND = 3
    rounds = 0
    while RollupDirty.objects.exists():
        left = sum(len(found) for found in dirty().values())
        rollups.rollups_refresh()
        rounds += 1
        after = sum(len(found) for found in dirty().values())
        # At most the round's days were counted (at least one a kind), and none came back.
        assert left - max(3, len(before)) <= after < left
        _same_with_and_without(ws, settings)
        assert rounds < total + 1
    assert rounds > 1
    for kind in days.KINDS.values():
        assert _stored(kind) == _recounted(kind, ws)


def test_figures_read_the_rollup_for_the_days_it_holds(world, settings):
    """After a build, a 30-day period is read as the roll-up's days before today and the
    records' today; a write makes its day read from the records until counted again."""
    ws, members = world
    writes = Writes(ws, members, 7)
    for _ in range(20):
        writes.call_add()
    now = timezone.now()
    early = Call.objects.filter(workspace=ws).order_by("-booked_at", "pk").first()
    Call.objects.filter(pk=early.pk).update(scheduled_for=now - timedelta(days=60))
    rollups.rollups_build(ws)
    period = _periods(ws, now)[0]
    cut = days.runs(days.CALLS, workspace=ws, period=period, now=now)
    assert [rolled for rolled, _ in cut] == [True, False]
    assert cut[0][1].start == period.start and cut[-1][1].end == period.end
    # A call moved from before the period to ten days ago: that day is dirty.
    call = Call.objects.get(pk=early.pk)
    call.scheduled_for = now - timedelta(days=10)
    call.save()
    cut = days.runs(days.CALLS, workspace=ws, period=period, now=now)
    assert [rolled for rolled, _ in cut] == [True, False, True, False]
    rollups.rollups_refresh()
    cut = days.runs(days.CALLS, workspace=ws, period=period, now=now)
    assert [rolled for rolled, _ in cut] == [True, False]


def test_no_rollup_means_the_records_and_no_dirty_rows(world, settings):
    ws, members = world
    writes = Writes(ws, members, 3)
    writes.call_add()
    assert not RollupDirty.objects.exists()
    now = timezone.now()
    assert days.runs(days.CALLS, workspace=ws, period=_periods(ws, now)[0], now=now) is None


def test_a_new_time_zone_reads_the_records_until_rebuilt(world, settings):
    ws, members = world
    writes = Writes(ws, members, 5)
    for _ in range(25):
        writes.call_add()
        writes.past_add()
    rollups.rollups_build(ws)
    ws.timezone = "Asia/Kolkata"
    ws.save()
    now = timezone.now()
    assert days.runs(days.CALLS, workspace=ws, period=_periods(ws, now)[0], now=now) is None
    _same_with_and_without(ws, settings)
    assert rollups.rollups_refresh(builds=5)["rebuilt"] == len(days.KINDS)
    ws = Workspace.objects.get(pk=ws.pk)  # a new request's
    assert set(RollupState.objects.values_list("zone", flat=True)) == {"Asia/Kolkata"}
    for kind in days.KINDS.values():
        assert _stored(kind) == _recounted(kind, ws)
    assert days.runs(days.CALLS, workspace=ws, period=_periods(ws, now)[0], now=now)
    _same_with_and_without(ws, settings)


def test_the_beat_builds_missing_rollups_a_few_a_round(make_workspace, settings):
    made = [make_workspace() for _ in range(3)]
    assert rollups.rollups_refresh(builds=2)["built"] == 2
    assert rollups.rollups_refresh(builds=2)["built"] == 1
    assert RollupState.objects.filter(workspace__in=made).count() == 3 * len(days.KINDS)
    assert rollups.rollups_refresh(builds=2)["built"] == 0


def test_a_member_is_read_from_the_records(world, settings):
    """The roll-ups count the whole workspace: a member's figures read the records."""
    ws, members = world
    writes = Writes(ws, members, 9)
    for _ in range(30):
        writes.call_add()
    rollups.rollups_build(ws)
    now = timezone.now()
    period = _periods(ws, now)[0]
    member = members[0]
    expected = Call.objects.filter(
        workspace=ws,
        replaced=False,
        closer=member,
        scheduled_for__gte=period.start,
        scheduled_for__lt=period.end,
        status=Call.Status.SCHEDULED,
    ).aggregate(n=Count("pk"))["n"]
    counts = calls_counts(workspace=ws, period=period, member=member, now=now)
    assert counts["booked"] == expected
    assert CallDay.objects.exists() and PastOutcomeDay.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_round_outside_any_transaction_counts_in_one_snapshot(
    make_workspace, make_member, settings
):
    """As the beat runs it: each refresh its own transaction (REPEATABLE READ on
    PostgreSQL), every dirty row it saw removed, the roll-up equal to the records."""
    ws = make_workspace(timezone="Europe/Berlin")
    writes = Writes(ws, [make_member(ws, "closer", name="C")], 11)
    for _ in range(15):
        writes.call_add()
        writes.past_add()
    rollups.rollups_build(ws)
    for _ in range(20):
        writes.step()
    assert RollupDirty.objects.exists()
    rollups.rollups_refresh()
    assert not RollupDirty.objects.exists()
    for kind in days.KINDS.values():
        assert _stored(kind) == _recounted(kind, ws)
    _same_with_and_without(ws, settings)


def test_the_beat_builds_a_kind_added_since_a_workspace_was_built(world, settings):
    """A workspace built before a kind of roll-up existed gets that kind alone."""
    ws, members = world
    writes = Writes(ws, members, 13)
    for _ in range(10):
        writes.progress_add()
    rollups.rollups_build(ws)
    RollupState.objects.filter(workspace=ws, kind="funnels").delete()
    days.FUNNELS.model.objects.all().delete()
    before = dict(RollupState.objects.filter(workspace=ws).values_list("kind", "built_at"))
    assert rollups.rollups_refresh(builds=5)["built"] == 1
    after = dict(RollupState.objects.filter(workspace=ws).values_list("kind", "built_at"))
    assert set(after) == set(days.KINDS)
    assert {kind: after[kind] for kind in before} == before  # the others left as they were
    assert _stored(days.FUNNELS) == _recounted(days.FUNNELS, ws)
    assert _stored(days.FUNNELS)
