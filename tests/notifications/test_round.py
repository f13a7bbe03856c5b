"""The beat's round: only the workspaces whose next due instant has come, each message
claimed once whatever runs twice; a round missed in an outage sends what is at most six
hours late and logs what it skips; speed-to-lead alerts at their threshold, once per lead;
EOD reminders to those who have not filed today's."""

import logging

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications.models import NEVER_READ, Kind, NotificationSettings, Sent
from notifications.rounds import round_due, round_run
from notifications.services import settings_ensure
from tests.conftest import at_once, aware

from .conftest import sent_to


def at(text: str):
    return aware(text)


@pytest.fixture
def beat(django_capture_on_commit_callbacks):
    """A round of the beat as of an instant, its workspaces' work done here."""

    def run(when: str) -> dict:
        with django_capture_on_commit_callbacks(execute=True):
            return round_run(now=at(when), inline=True)

    return run


def test_a_round_reads_only_the_due_workspaces_and_sets_their_next_instant(team, beat):
    row = settings_ensure(team.workspace)
    assert beat("2026-03-10 10:00") == {"workspaces": 1, "sent": {}}  # 06:00 EDT
    row.refresh_from_db()
    assert row.next_due_at == at("2026-03-10 12:00")  # 08:00 EDT
    # Not due before then: not read at all.
    assert beat("2026-03-10 11:59") == {"workspaces": 0, "sent": {}}
    assert beat("2026-03-10 12:00") == {"workspaces": 1, "sent": {"daily_digest": 4}}
    row.refresh_from_db()
    assert row.next_due_at == at("2026-03-11 12:00")
    assert beat("2026-03-10 12:01") == {"workspaces": 0, "sent": {}}


def test_the_due_query_is_one_indexed_range(team):
    settings_ensure(team.workspace)

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET enable_seqscan = off")
            cursor.execute(
                "EXPLAIN SELECT workspace_id FROM notifications_notificationsettings "
                "WHERE next_due_at <= now() ORDER BY next_due_at LIMIT 2000"
            )
            plan = "\n".join(line for (line,) in cursor.fetchall())
            cursor.execute("SET enable_seqscan = on")
        assert "notify_next_due" in plan
    with CaptureQueriesContext(connection) as queries:
        assert round_due(at("2026-03-10 12:00")) == [(team.workspace.pk, NEVER_READ)]
    statements = [q["sql"].split()[0] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert statements == ["SELECT", "UPDATE"]  # the due rows, locked; their hold


@pytest.mark.parametrize(("down_until", "sent"), [("15:00", 4), ("20:00", 0)])
def test_an_outage_sends_what_is_at_most_six_hours_late(team, beat, caplog, down_until, sent):
    beat("2026-03-10 10:00")  # sets the next instant: 12:00 UTC
    caplog.set_level(logging.WARNING, logger="notifications.rounds")
    # Down from 11:00 to 15:00 (3 hours late) or to 20:00 (8 hours late).
    result = beat(f"2026-03-10 {down_until}")
    assert result["sent"].get("daily_digest", 0) == sent
    assert len(mail.outbox) == sent
    skipped = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    if sent:
        assert skipped == []
    else:
        assert skipped == [
            f"notifications of workspace {team.workspace.pk} due at 2026-03-10T12:00:00+00:00 "
            "skipped: 8:00:00 late (more than 6:00:00)"
        ]
    # Either way the next one is tomorrow's, on time.
    assert beat("2026-03-11 12:00")["sent"] == {"daily_digest": 4}


def test_a_lead_waiting_past_the_threshold_tells_its_setter_once(team, beat):
    row = settings_ensure(team.workspace)
    assert row.speed_to_lead_minutes == 15
    lead = team.rec.lead("2026-03-10 14:00", name="Ada Lovelace", setter=team.setter)
    beat("2026-03-10 13:00")  # settles the digest's next instant
    mail.outbox = []
    assert beat("2026-03-10 14:14:59")["sent"] == {}
    assert beat("2026-03-10 14:15:00")["sent"] == {"speed_to_lead": 1}
    assert [m.to for m in mail.outbox] == [["setter@northwind.test"]]
    alert = mail.outbox[0]
    assert alert.subject == "Ada Lovelace has waited 15 minutes for a first contact"
    assert f"Open the lead: http://127.0.0.1:8000/app/leads/{lead.pk}" in alert.body
    assert alert.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Once per lead: later rounds, the operator's round.
    assert beat("2026-03-10 14:16")["sent"] == {}
    assert beat("2026-03-10 15:30")["sent"] == {}
    assert len(mail.outbox) == 1
    assert Sent.objects.filter(kind=Kind.SPEED_TO_LEAD).count() == 1


def test_a_lead_without_a_setter_tells_the_managers_and_a_contacted_one_nobody(
    team, beat, make_member
):
    settings_ensure(team.workspace)
    make_member(team.workspace, "manager", email="second-manager@northwind.test")
    team.rec.lead("2026-03-10 14:00", name="Nobody's")
    contacted = team.rec.lead("2026-03-10 14:00", name="Called", setter=team.setter)
    team.rec.touch(contacted, "2026-03-10 14:10", member=team.setter)
    beat("2026-03-10 13:00")
    mail.outbox = []
    assert beat("2026-03-10 14:20")["sent"] == {"speed_to_lead": 1}
    assert sent_to("Nobody's has waited 20 minutes") == [
        "manager@northwind.test",
        "second-manager@northwind.test",
    ]


def test_alerts_off_and_a_lead_past_the_catch_up_window_send_nothing(team, beat):
    row = settings_ensure(team.workspace)
    team.rec.lead("2026-03-10 04:00", name="Old", setter=team.setter)
    beat("2026-03-10 13:00")  # 8h45 after its threshold: skipped
    assert Sent.objects.filter(kind=Kind.SPEED_TO_LEAD).count() == 0
    row.speed_to_lead_minutes = None
    row.save()
    team.rec.lead("2026-03-10 14:00", name="New", setter=team.setter)
    assert beat("2026-03-10 14:30")["sent"] == {}


def test_the_eod_reminder_goes_to_those_who_have_not_filed_todays(team, beat, make_member):
    row = settings_ensure(team.workspace)
    row.eod_reminder_hour = 17
    row.daily_digest = row.weekly_digest = False
    row.save()
    team.rec.eod(team.closer, "2026-03-10")
    beat("2026-03-10 12:00")
    assert beat("2026-03-10 20:59")["sent"] == {}  # 16:59 EDT
    assert beat("2026-03-10 21:00")["sent"] == {"eod_reminder": 1}
    assert [m.to for m in mail.outbox] == [["setter@northwind.test"]]
    reminder = mail.outbox[0]
    assert reminder.subject == "Your EOD report of Tuesday 10 March for Northwind"
    assert f"File it: http://127.0.0.1:8000/app/{team.workspace.pk}/file/eod/" in reminder.body
    # Saturday is not a working day: no reminder.
    assert beat("2026-03-14 21:00")["sent"] == {}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_rounds_at_once_send_each_digest_once(make_workspace, make_member):
    workspaces = [make_workspace(timezone="America/New_York") for _ in range(6)]
    for ws in workspaces:
        for role in ("owner", "manager"):
            make_member(ws, role)
    NotificationSettings.objects.update(next_due_at=at("2026-03-10 12:00"))
    mail.outbox = []
    results = at_once(2, lambda n: round_run(now=at("2026-03-10 12:05"), inline=True))
    assert sorted(r["workspaces"] for r in results) in ([0, 6], [1, 5], [2, 4], [3, 3])
    assert sum(r["sent"].get("daily_digest", 0) for r in results) == 12
    # And the operator's round of the same instant, twice at once: nothing more.
    results = at_once(2, lambda n: round_run(now=at("2026-03-10 12:05"), every=True, inline=True))
    assert [r["sent"] for r in results] == [{}, {}]
    assert Sent.objects.count() == 12
    assert len(mail.outbox) == 12
