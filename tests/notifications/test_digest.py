"""The daily and weekly digests: at the digest hour in the workspace's zone, once per
recipient and period, with the figures read as the API reads them (a figure that cannot be
drawn says why), in plain text and HTML, each mail with its one-click unsubscribe."""

from datetime import date
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from notifications.models import Kind, OptOut, Sent
from notifications.services import settings_ensure
from workspaces.models import Goal

from .conftest import sent_to

WIDE = ["manager@northwind.test", "owner@northwind.test"]
EVERYONE = [
    "closer@northwind.test",
    "manager@northwind.test",
    "owner@northwind.test",
    "setter@northwind.test",
]


def notify(at: str) -> str:
    out = StringIO()
    call_command("notify", at=at, stdout=out)
    return out.getvalue()


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    def run_at(at: str) -> str:
        with django_capture_on_commit_callbacks(execute=True):
            return notify(at)

    return run_at


def yesterdays_records(team):
    """Monday 9 March 2026 in New York, and the Monday before."""
    rec = team.rec
    tz = "America/New_York"
    ada = rec.lead("2026-03-09 09:00", tz=tz, name="Ada Lovelace", setter=team.setter)
    bo = rec.lead("2026-03-09 23:30", tz=tz, name="Bo")  # 03:30 UTC on the 10th
    rec.touch(bo, "2026-03-10 04:00", member=team.setter)
    taken = rec.call(
        "2026-03-09 11:00",
        lead=ada,
        tz=tz,
        closer=team.closer,
        setter=team.setter,
        attendance="showed",
    )
    rec.outcome("closed", call=taken)
    sale = rec.sale(300000, "2026-03-09 12:00", lead=ada, tz=tz, closer=team.closer)
    rec.payment(sale, 125000, "2026-03-09 12:30", tz=tz)
    rec.lead("2026-03-02 10:00", tz=tz, name="Cy")
    rec.lead("2026-03-10 00:30", tz=tz, name="Today's lead")
    rec.eod(team.closer, "2026-03-09")


def test_the_daily_digest_at_eight_in_new_york_with_yesterdays_exact_figures(team, run):
    yesterdays_records(team)

    assert run("2026-03-10T11:59:00Z").endswith("sent: nothing\n")  # 07:59 EDT
    assert mail.outbox == []
    assert run("2026-03-10T12:05:00Z").endswith("sent: daily_digest 4\n")  # 08:05 EDT

    assert sent_to("Daily digest of Northwind: Monday 9 March 2026") == WIDE
    owner = next(m for m in mail.outbox if m.to == ["owner@northwind.test"])
    lines = owner.body.splitlines()
    assert lines[:11] == [
        "Daily digest of Northwind: Monday 9 March 2026, against the Monday before.",
        "",
        "Leads created: 2 (the Monday before: 1; +1 (+100.0%))",
        "Calls booked: 1 (the Monday before: 0; +1)",
        "Calls taken: 1 (the Monday before: 0; +1)",
        "Calls closed: 1 (the Monday before: 0; +1)",
        "Show rate: 100.0% (the Monday before: not drawn)",
        "Close rate: 100.0% (the Monday before: not drawn)",
        "Cash collected: $1,250.00 (the Monday before: $0.00; +$1,250.00)",
        "Revenue booked: $3,000.00 (the Monday before: $0.00; +$3,000.00)",
        "",
    ]
    assert "EOD reports missed: Setter Person" in lines
    # Ada still waits (since 09:00 EDT yesterday); Bo was contacted; today's lead waits too.
    assert "Leads still waiting for a first contact: 2" in lines
    assert owner.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = owner.extra_headers["List-Unsubscribe"].strip("<>")
    assert link.startswith("http://127.0.0.1:8000/unsubscribe/")
    html = owner.alternatives[0][0]
    assert '<tr data-metric="payments.cash_collected">' in html
    assert "$1,250.00" in html and f'href="{link}"' in html

    # The closer's own digest holds their board.
    closer = next(m for m in mail.outbox if m.to == ["closer@northwind.test"])
    assert closer.subject == "Daily digest of Northwind (your board): Monday 9 March 2026"
    assert closer.body.splitlines()[2:6] == [
        "Calls booked: 1 (the Monday before: 0; +1)",
        "Calls taken: 1 (the Monday before: 0; +1)",
        "Calls closed: 1 (the Monday before: 0; +1)",
        "Show rate: 100.0% (the Monday before: not drawn)",
    ]
    assert (
        "Commission owed: not drawn: Closer Person has no commission rule. "
        "(the Monday before: not drawn)"
    ) in closer.body.splitlines()

    # Never a second time: the same instant, a later one, the next round.
    assert run("2026-03-10T12:05:00Z").endswith("sent: nothing\n")
    assert run("2026-03-10T15:00:00Z").endswith("sent: nothing\n")
    assert len(mail.outbox) == 4
    assert Sent.objects.filter(kind=Kind.DAILY_DIGEST, period="2026-03-09").count() == 4


def test_a_figure_that_cannot_be_drawn_says_why(team, run):
    team.rec.lead("2026-03-09 10:00", tz="America/New_York")
    run("2026-03-10T12:05:00Z")
    owner = next(m for m in mail.outbox if m.to == ["owner@northwind.test"])
    assert (
        "Show rate: not drawn: Calls taken or no-show: none in the period. "
        "(the Monday before: not drawn)"
    ) in owner.body.splitlines()
    assert "Show rate: 0" not in owner.body


@pytest.mark.parametrize(
    ("zone", "before", "after", "period"),
    [
        # New York springs forward on Sunday 8 March 2026: 08:00 is 13:00 UTC on the 7th,
        # 12:00 UTC on the 8th.
        ("America/New_York", "2026-03-07T12:59:00Z", "2026-03-07T13:00:00Z", "2026-03-06"),
        ("America/New_York", "2026-03-08T11:59:00Z", "2026-03-08T12:00:00Z", "2026-03-07"),
        # and falls back on Sunday 1 November: 12:00 UTC on 31 October, 13:00 UTC on the 1st.
        ("America/New_York", "2026-10-31T11:59:00Z", "2026-10-31T12:00:00Z", "2026-10-30"),
        ("America/New_York", "2026-11-01T12:59:00Z", "2026-11-01T13:00:00Z", "2026-10-31"),
        # Sydney falls back on Sunday 5 April 2026: 08:00 is 21:00 UTC the day before under
        # daylight time, 22:00 UTC under standard time.
        ("Australia/Sydney", "2026-04-03T20:59:00Z", "2026-04-03T21:00:00Z", "2026-04-03"),
        ("Australia/Sydney", "2026-04-04T21:59:00Z", "2026-04-04T22:00:00Z", "2026-04-04"),
        # and springs forward on Sunday 4 October: 22:00 UTC, then 21:00 UTC.
        ("Australia/Sydney", "2026-10-02T21:59:00Z", "2026-10-02T22:00:00Z", "2026-10-02"),
        ("Australia/Sydney", "2026-10-03T20:59:00Z", "2026-10-03T21:00:00Z", "2026-10-03"),
    ],
)
def test_the_digest_hour_is_local_on_both_days_of_a_clock_change(
    team, run, zone, before, after, period
):
    workspace = team.workspace
    workspace.timezone = zone
    workspace.save(update_fields=["timezone"])
    run(before)
    assert Sent.objects.filter(kind=Kind.DAILY_DIGEST).count() == 0
    run(after)
    assert set(Sent.objects.filter(kind=Kind.DAILY_DIGEST).values_list("period", flat=True)) == {
        period
    }
    assert sent_to("Daily digest") == EVERYONE


def test_yesterday_is_the_local_day_even_when_it_had_23_hours(team, run):
    """Sunday 8 March 2026 in New York lasted 23 hours: its digest counts the leads of
    05:00 UTC on the 8th to 04:00 UTC on the 9th."""
    rec = team.rec
    rec.lead("2026-03-08 04:59")  # 23:59 EST on the 7th
    rec.lead("2026-03-08 05:00")  # 00:00 EST on the 8th
    rec.lead("2026-03-09 03:59")  # 23:59 EDT on the 8th
    rec.lead("2026-03-09 04:00")  # 00:00 EDT on the 9th
    run("2026-03-09T12:00:00Z")
    owner = next(m for m in mail.outbox if m.to == ["owner@northwind.test"])
    assert owner.body.splitlines()[2] == "Leads created: 2 (the Sunday before: 0; +2)"


def test_the_weekly_digest_on_mondays_compares_the_week_before(team, run):
    rec = team.rec
    tz = "America/New_York"
    for day in ("2026-03-02", "2026-03-04", "2026-03-08"):
        rec.lead(f"{day} 10:00", tz=tz)
    rec.lead("2026-02-25 10:00", tz=tz)
    rec.lead("2026-03-09 10:00", tz=tz)  # this week's
    run("2026-03-09T12:05:00Z")  # Monday 9 March, 08:05 EDT
    weekly = [m for m in mail.outbox if m.subject.startswith("Weekly digest")]
    assert sorted(a for m in weekly for a in m.to) == EVERYONE
    owner = next(m for m in weekly if m.to == ["owner@northwind.test"])
    assert owner.subject == "Weekly digest of Northwind: week of 2 March 2026"
    assert owner.body.splitlines()[2] == ("Leads created: 3 (the week before: 1; +2 (+200.0%))")
    assert Sent.objects.filter(kind=Kind.WEEKLY_DIGEST).values_list("period", flat=True)[0] == (
        "2026-03-02"
    )
    # Tuesday has no weekly digest.
    run("2026-03-10T12:05:00Z")
    assert Sent.objects.filter(kind=Kind.WEEKLY_DIGEST).count() == 4


def test_digests_turned_off_send_nothing_and_a_member_who_opted_out_gets_none(team, run):
    OptOut.objects.create(member=team.manager, kind=Kind.DAILY_DIGEST)
    run("2026-03-10T12:05:00Z")
    assert sent_to("Daily digest") == [
        "closer@northwind.test",
        "owner@northwind.test",
        "setter@northwind.test",
    ]
    row = settings_ensure(team.workspace)
    row.daily_digest = False
    row.save()
    run("2026-03-11T12:05:00Z")
    assert len(mail.outbox) == 3


def test_the_digest_holds_the_goals_pace(team, run):
    rec = team.rec
    for day in ("2026-03-02", "2026-03-03", "2026-03-09"):
        rec.lead(f"{day} 10:00", tz="America/New_York")
    Goal.objects.create(
        workspace=team.workspace, month=date(2026, 3, 1), metric="leads.created", target=31
    )
    run("2026-03-10T12:05:00Z")
    owner = next(m for m in mail.outbox if m.to == ["owner@northwind.test"])
    lines = owner.body.splitlines()
    goals = lines.index("Goals this month:")
    # 9 of March's 31 days have passed by 08:05 on the 10th: 9 expected, 3 made.
    assert lines[goals + 1] == "Leads created: 3 of 31, Behind pace"
