"""One answer to "was this lead contacted" (workspaces.contact): the journey, the lead
page, /speed-to-lead, the overview's leads never contacted and the speed-to-lead alert
agree on which touch is the first contact."""

import re
from datetime import date, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from figures.period import Period
from figures.selectors import leads_of_period, speed_to_lead
from notifications.rounds import speed_to_lead_alerts
from notifications.services import settings_ensure
from tests.conftest import aware
from tests.figures.conftest import Records

from .conftest import signed_in

pytestmark = pytest.mark.django_db

# The workspace is in Berlin (UTC+1 in March): 14:01 UTC is 15:01 on the page.
CREATED, AUTOMATED, CALLED = "2026-03-10 13:50", "2026-03-10 14:01", "2026-03-10 14:40"


@pytest.fixture
def leads(team):
    """Ada: an automated email at 15:01, then the setter's call at 15:40. Bo: automated
    emails only."""
    rec = Records(team["workspace"])
    ada = rec.lead(CREATED, name="Ada", setter=team["setter"])
    rec.touch(ada, AUTOMATED, channel="email")
    rec.touch(ada, CALLED, member=team["setter"], channel="call")
    bo = rec.lead("2026-03-10 13:51", name="Bo", setter=team["setter"])
    rec.touch(bo, AUTOMATED, channel="email")
    rec.touch(bo, "2026-03-10 15:00", channel="email")
    return ada, bo


def _touches(team, lead, api, workspace_token):
    body = api(workspace_token(team["workspace"])).get(f"/api/v1/leads/{lead.pk}/journey").json()
    return body["data"]["lead"]["first_contact_at"], [
        (e["at"], e["counts_as_first_contact"], e["not_first_contact_reason"])
        for e in body["data"]["events"]
        if e["type"] == "touch"
    ]


def test_the_journey_marks_the_touches_that_are_not_a_first_contact(
    team, leads, api, workspace_token
):
    ada, bo = leads
    assert _touches(team, ada, api, workspace_token) == (
        "2026-03-10T14:40:00Z",
        [
            ("2026-03-10T14:01:00Z", False, "sent without a member (automated)"),
            ("2026-03-10T14:40:00Z", True, None),
        ],
    )
    assert _touches(team, bo, api, workspace_token) == (
        None,
        [
            ("2026-03-10T14:01:00Z", False, "sent without a member (automated)"),
            ("2026-03-10T15:00:00Z", False, "sent without a member (automated)"),
        ],
    )


def test_the_lead_page_says_the_first_contact_the_journey_marks(team, leads):
    ada, bo = leads
    html = signed_in(team["owner"]).get(f"/app/leads/{ada.pk}").content.decode()
    assert "<dt>First contact</dt><dd>10 Mar 2026, 15:40</dd>" in html
    events = re.findall(r"<time[^>]*>([^<]+)</time> <strong>([^<]+)</strong>(.*?)</li>", html)
    assert events == [
        ("10 Mar 2026, 14:50", "Lead created", ""),
        (
            "10 Mar 2026, 15:01",
            "Contacted",
            ' <span class="detail">by email. Not a first contact: sent without a member '
            "(automated).</span>",
        ),
        (
            "10 Mar 2026, 15:40",
            "First contact",
            ' <span class="detail">by call (Setter Person)</span>',
        ),
    ]
    html = signed_in(team["owner"]).get(f"/app/leads/{bo.pk}").content.decode()
    assert "<dt>First contact</dt><dd>not yet</dd>" in html
    assert "<strong>First contact</strong>" not in html
    assert html.count("Not a first contact: sent without a member (automated).") == 2


def test_the_journey_csv_says_it_too(team, leads):
    ada, _ = leads
    response = signed_in(team["owner"]).get(f"/app/leads/{ada.pk}", {"export": "csv"})
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[2:4] == [
        '"10 Mar 2026, 15:01:00",2026-03-10T14:01:00Z,Contacted,touch,'
        "by email. Not a first contact: sent without a member (automated).",
        '"10 Mar 2026, 15:40:00",2026-03-10T14:40:00Z,First contact,touch,by call (Setter Person)',
    ]


@pytest.mark.parametrize(
    ("now", "waiting", "rate"),
    [
        # The automated email of 14:01 does not count: both wait until the call.
        ("2026-03-10 14:39:59", [("Ada", 49), ("Bo", 48)], 0.0),
        ("2026-03-10 14:40", [("Bo", 49)], 0.5),
    ],
)
def test_speed_to_lead_waits_for_the_member_touch(team, leads, now, waiting, rate):
    data = speed_to_lead(workspace=team["workspace"], within_minutes=120, now=aware(now)).data
    assert [(row["name"], row["minutes_waited"]) for row in data["leads"]] == waiting
    assert (data["waiting"].value, data["contacted_rate"].value) == (len(waiting), rate)


def test_the_leads_never_contacted_are_those_without_a_member_touch(team, leads):
    ws = team["workspace"]
    day = date(2026, 3, 10)
    period = Period.of_days(workspace=ws, first_day=day, last_day=day)
    never = leads_of_period(workspace=ws, period=period, never_contacted=True)
    assert [lead.name for lead in never] == ["Bo"]


def test_the_overview_counts_and_lists_the_leads_without_a_member_touch(team):
    """The overview reads the last 120 minutes as of now."""
    rec = Records(team["workspace"])
    now = timezone.now()
    ada = rec.lead(now - timedelta(minutes=60), name="Ada")
    rec.touch(ada, now - timedelta(minutes=59), channel="email")
    rec.touch(ada, now - timedelta(minutes=20), member=team["setter"])
    bo = rec.lead(now - timedelta(minutes=40), name="Bo")
    rec.touch(bo, now - timedelta(minutes=39), channel="email")
    html = signed_in(team["owner"]).get(f"/app/{team['workspace'].pk}/").content.decode()
    never = re.search(r'<p id="never-contacted">(.*?) <a', html).group(1)
    assert never == "1 lead created in the period has never been contacted."
    table = re.search(r'<table id="waiting-table">.*?</table>', html, re.S).group(0)
    assert re.findall(r'class="lead-link">([^<]+)</a>.*?<td>(\d+ min)</td>', table) == [
        ("Bo", "40 min")
    ]


@pytest.mark.parametrize(
    ("minutes", "sent"),
    [
        # Due at 14:39 (49 minutes), before the call: the automated email does not stop it.
        (49, 1),
        # Due at 14:40 (50 minutes), when the call is held: no alert.
        (50, 0),
    ],
)
def test_the_alert_is_sent_until_the_member_touch(
    team, django_capture_on_commit_callbacks, minutes, sent
):
    row = settings_ensure(team["workspace"])
    row.speed_to_lead_minutes = minutes
    row.save()
    rec = Records(team["workspace"])
    ada = rec.lead(CREATED, name="Ada", setter=team["setter"])
    rec.touch(ada, AUTOMATED, channel="email")
    due = aware(CREATED) + timedelta(minutes=minutes)
    if due >= aware(CALLED):
        rec.touch(ada, CALLED, member=team["setter"], channel="call")
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        assert speed_to_lead_alerts(due) == sent
    assert [m.subject for m in mail.outbox] == (
        [f"Ada has waited {minutes} minutes for a first contact"] if sent else []
    )


def test_an_automated_only_lead_is_alerted(team, django_capture_on_commit_callbacks):
    settings_ensure(team["workspace"])  # 15 minutes
    rec = Records(team["workspace"])
    bo = rec.lead(CREATED, name="Bo", setter=team["setter"])
    rec.touch(bo, "2026-03-10 13:51", channel="email")
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        assert speed_to_lead_alerts(aware("2026-03-10 14:05")) == 1
    assert [m.subject for m in mail.outbox] == ["Bo has waited 15 minutes for a first contact"]


def test_a_member_touch_before_the_lead_was_created_is_not_a_first_contact(
    team, api, workspace_token
):
    """It would make the time to the first contact negative: the lead waits for the next."""
    rec = Records(team["workspace"])
    ada = rec.lead(CREATED, name="Ada", setter=team["setter"])
    rec.touch(ada, "2026-03-10 13:45", member=team["setter"], channel="call")
    ada.refresh_from_db()
    assert ada.first_contact_at is None
    rec.touch(ada, CALLED, member=team["setter"], channel="call")
    assert _touches(team, ada, api, workspace_token) == (
        "2026-03-10T14:40:00Z",
        [
            ("2026-03-10T13:45:00Z", False, "dated before the lead was created"),
            ("2026-03-10T14:40:00Z", True, None),
        ],
    )
