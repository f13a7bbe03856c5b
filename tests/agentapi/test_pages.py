"""Filing work in the app: the form pages write what the API writes, once per submission."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from agentapi.models import Draft
from agentapi.pages import _local_iso
from audit.models import AuditEvent
from core.display import day_text, moment_text
from figures.period import local_today
from workspaces.models import Call, EodReport, Outcome
from workspaces.services import eod_upsert

pytestmark = pytest.mark.django_db


def browser(member) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    return client


def open_form(client, url):
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    html = page.content.decode()
    submission = re.search(r'name="submission_id" value="([0-9a-f-]{36})"', html).group(1)
    return submission, client.cookies["csrftoken"].value


def post_call_url(team, call):
    return f"/app/{team.workspace.pk}/file/post-call/{call.pk}/"


def test_the_board_lists_the_calls_awaiting_an_outcome_with_a_link(team, make_call):
    closer = team.members["closer"]
    call = make_call(team.workspace, closer=closer)
    make_call(team.workspace, closer=team.members["setter"])  # someone else's
    html = browser(closer).get(f"/app/{team.workspace.pk}/board/").content.decode()
    rows = re.findall(r'<li data-call-id="([0-9a-f-]+)">', html)
    assert rows == [str(call.pk)]
    assert f'href="{post_call_url(team, call)}"' in html


def test_the_board_lists_missed_eod_days_and_awaiting_calls_first_each_with_file(team, make_call):
    closer = team.members["closer"]
    team.workspace.working_days = [0, 1, 2, 3, 4, 5, 6]
    team.workspace.save()
    today = local_today(team.workspace)
    for back in (2, 4):
        eod_upsert(
            workspace=team.workspace,
            external_id=None,
            member=closer,
            date=today - timedelta(days=back),
            submitted_at=timezone.now(),
            fields={"dials": 10},
        )
    first, second = (
        make_call(team.workspace, closer=closer),
        make_call(team.workspace, closer=closer),
    )
    html = browser(closer).get(f"/app/{team.workspace.pk}/board/?range=7").content.decode()
    # The to-do comes before the figures.
    assert html.index('id="board-todo"') < html.index('id="board-calls"')
    days = re.findall(r'<li data-eod-day="([0-9-]+)">', html)
    expected = [today - timedelta(days=back) for back in (1, 3, 5, 6)]
    assert days == [today.isoformat()] + [day.isoformat() for day in expected]
    assert '<span class="count" id="eod-missed-count">4 missed days</span>' in html
    assert 'id="eod-missed-earlier"' not in html  # five or fewer are all listed at once
    assert f'href="/app/{team.workspace.pk}/file/eod/" id="file-eod-today"' in html
    yesterday = expected[0].isoformat()
    assert (
        f'href="/app/{team.workspace.pk}/file/eod/?date={yesterday}" id="file-eod-{yesterday}"'
    ) in html
    assert '<span class="count" id="awaiting-count">2 calls</span>' in html
    assert (
        "2 calls past their start have no attendance recorded; the show rate leaves them out."
    ) in html
    assert sorted(re.findall(r'<li data-call-id="([0-9a-f-]+)">', html)) == sorted(
        [str(first.pk), str(second.pk)]
    )
    assert f'href="{post_call_url(team, first)}" id="file-{first.pk}"' in html

    # Filing today's report and one call leaves one missed day fewer, and "1 call".
    eod_upsert(
        workspace=team.workspace,
        external_id=None,
        member=closer,
        date=today,
        submitted_at=timezone.now(),
        fields={"dials": 0},
    )
    eod_upsert(
        workspace=team.workspace,
        external_id=None,
        member=closer,
        date=expected[0],
        submitted_at=timezone.now(),
        fields={"notes": "Quiet day."},
    )
    second.attendance = "no_show"
    second.save()
    html = browser(closer).get(f"/app/{team.workspace.pk}/board/?range=7").content.decode()
    assert re.findall(r'<li data-eod-day="([0-9-]+)">', html) == [
        day.isoformat() for day in expected[1:]
    ]
    assert '<span class="count" id="eod-missed-count">3 missed days</span>' in html
    assert '<span class="count" id="awaiting-count">1 call</span>' in html


def test_past_five_missed_days_the_earlier_ones_fold_away(team):
    closer = team.members["closer"]
    team.workspace.working_days = [0, 1, 2, 3, 4, 5, 6]
    team.workspace.save()
    today = local_today(team.workspace)
    html = browser(closer).get(f"/app/{team.workspace.pk}/board/?range=7").content.decode()
    earlier = html[html.index('id="eod-missed-earlier"') :]
    assert "<summary>1 earlier missed day</summary>" in earlier
    assert re.findall(r'<li data-eod-day="([0-9-]+)">', earlier) == [
        (today - timedelta(days=6)).isoformat()
    ]
    assert '<span class="count" id="eod-missed-count">6 missed days</span>' in html


def test_an_owners_board_asks_for_no_eod_report(team):
    html = browser(team.members["owner"]).get(f"/app/{team.workspace.pk}/board/").content
    html = html.decode()
    assert 'id="eod-due"' not in html
    assert '<span class="muted">Owner</span></h1>' in html


def test_a_closer_files_a_post_call_once_and_it_is_what_the_api_writes(team, make_call, write, api):
    closer = team.members["closer"]
    call, twin = make_call(team.workspace, closer=closer), make_call(team.workspace, closer=closer)
    client = browser(closer)
    submission, csrf = open_form(client, post_call_url(team, call))
    fields = {
        "attendance": "showed",
        "outcome": "no_sale",
        "offer_made": "yes",
        "reason": "Price",
        "notes": "Wants to think.",
    }
    body = {"submission_id": submission, "csrfmiddlewaretoken": csrf, **fields}
    first = client.post(post_call_url(team, call), body)
    assert (first.status_code, first["Location"]) == (302, f"/app/{team.workspace.pk}/board/")
    # A double click: the same submission again files nothing more.
    again = client.post(post_call_url(team, call), body)
    assert again.status_code == 302
    assert Outcome.objects.filter(call=call).count() == 1

    # The API files the same on the twin call.
    api_body = {
        "submission_id": "5f0b2c1e-3b8e-4c7e-9d7e-0c3a2b1d4e5f",
        "call_id": str(twin.pk),
        "attendance": "showed",
        "outcome": "no_sale",
        "offer_made": True,
        "reason": "Price",
        "notes": "Wants to think.",
    }
    assert write(team.sessions["closer"], "/api/v1/forms/post-call", api_body).status_code == 201

    def written(c):
        c = Call.objects.get(pk=c.pk)
        outcome = Outcome.objects.get(call=c)
        return (
            c.attendance,
            c.outcome,
            c.offer_made,
            outcome.result,
            outcome.reason,
            outcome.notes,
            outcome.member_id,
        )

    assert (
        written(call)
        == written(twin)
        == ("showed", "no_sale", True, "no_sale", "Price", "Wants to think.", closer.pk)
    )
    # The page's filing answers the API's replay with the same submission_id.
    replay = write(
        team.sessions["closer"],
        "/api/v1/forms/post-call",
        {**api_body, "submission_id": submission, "call_id": str(call.pk)},
    )
    assert replay.status_code == 201
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["outcome"]["result"] == "no_sale"
    # It left the awaiting list.
    html = client.get(f"/app/{team.workspace.pk}/board/").content.decode()
    assert str(call.pk) not in re.findall(r'<li data-call-id="([0-9a-f-]+)">', html)


def test_bad_input_is_refused_beside_the_field_and_kept(team, make_call):
    closer = team.members["closer"]
    call = make_call(team.workspace, closer=closer)
    client = browser(closer)
    submission, csrf = open_form(client, post_call_url(team, call))
    refused = client.post(
        post_call_url(team, call),
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "attendance": "showed",
            "notes": "kept text",
        },
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    # Beside the field, in words, marked for assistive technology, and summed up on top.
    assert (
        '<span class="error" id="id_outcome_error"><span class="visually-hidden">Error: </span>'
        "Choose the outcome of the call.</span>"
    ) in html
    assert re.search(
        r'<select name="outcome" aria-invalid="true" aria-describedby="id_outcome_error" '
        r'id="id_outcome">',
        html,
    )
    assert '<a href="#id_outcome">Outcome: Choose the outcome of the call.</a>' in html
    assert "There is a problem" in html
    assert "kept text" in html
    assert Outcome.objects.count() == 0


def test_money_is_refused_in_words_not_the_apis(team, make_call):
    closer = team.members["closer"]
    call = make_call(team.workspace, closer=closer)
    client = browser(closer)
    submission, csrf = open_form(client, post_call_url(team, call))
    refused = client.post(
        post_call_url(team, call),
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "attendance": "showed",
            "outcome": "closed",
            "contract_value": "12.345",
            "cash_collected": "lots",
        },
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Contract value: Enter an amount with at most 2 decimals, like 1234.50." in html
    assert "Cash collected today: Enter an amount as a number, like 1234.50." in html
    assert "There are 2 problems" in html
    assert "major units" not in html and "as a string or a number" not in html
    assert 'value="12.345"' in html
    assert Outcome.objects.count() == 0


def test_slots_and_workspaces_are_the_apis(team, make_call):
    call = make_call(team.workspace, closer=team.members["setter"])
    assert browser(team.members["closer"]).get(post_call_url(team, call)).status_code == 403
    elsewhere = make_call(team.other, closer=team.other_closer)
    url = f"/app/{team.workspace.pk}/file/post-call/{elsewhere.pk}/"
    assert browser(team.members["closer"]).get(url).status_code == 404
    assert browser(team.other_closer).get(post_call_url(team, call)).status_code == 404


def test_an_eod_report_from_a_page(team):
    setter = team.members["setter"]
    client = browser(setter)
    url = f"/app/{team.workspace.pk}/file/eod/"
    submission, csrf = open_form(client, url)
    answer = client.post(
        url,
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "dials": "80",
            "conversations": "12",
            "notes": "Good day.",
        },
    )
    assert answer.status_code == 302
    report = EodReport.objects.get(member=setter)
    assert report.fields == {"dials": 80, "conversations": 12, "notes": "Good day."}
    assert AuditEvent.objects.filter(workspace=team.workspace, action="form.eod.filed").exists()


def test_an_empty_eod_report_from_a_page_is_refused_naming_the_fields(team):
    setter = team.members["setter"]
    client = browser(setter)
    url = f"/app/{team.workspace.pk}/file/eod/"
    submission, csrf = open_form(client, url)
    refused = client.post(
        url,
        {"submission_id": submission, "csrfmiddlewaretoken": csrf, "dials": "", "notes": " "},
    )
    assert refused.status_code == 400
    assert (
        "Fill in at least one of the report&#x27;s fields (a count, even 0, or a text): an "
        "empty report is not filed."
    ) in refused.content.decode()
    assert not EodReport.objects.filter(member=setter).exists()


def test_the_eod_form_opens_on_the_workspaces_today(team):
    team.workspace.timezone = "Pacific/Kiritimati"  # UTC+14: its today is often not UTC's
    team.workspace.save()
    today = local_today(team.workspace)
    html = browser(team.members["setter"]).get(f"/app/{team.workspace.pk}/file/eod/").content
    html = html.decode()
    assert f'<input type="date" name="date" value="{today.isoformat()}"' in html
    assert '<p class="notice" id="eod-replaces" hidden></p>' in html
    assert '<button class="btn" type="submit" id="file">File</button>' in html
    # The page's zone is named by its city too.
    assert (
        "Dates and times are in Pacific/Kiritimati time "
        '<span id="zone-city">(Kiritimati, UTC+14:00)</span>.'
    ) in html


def test_filing_a_day_again_says_it_replaces_the_earlier_report(team):
    setter = team.members["setter"]
    client = browser(setter)
    url = f"/app/{team.workspace.pk}/file/eod/"
    today = local_today(team.workspace)
    submission, csrf = open_form(client, url)
    first = client.post(
        url,
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "date": today.isoformat(),
            "dials": "80",
        },
    )
    assert first.status_code == 302
    filed = EodReport.objects.get(member=setter)
    board = client.get(first["Location"]).content.decode()
    assert f"End-of-day report of {day_text(today)} filed.<" in board

    # Before filing again: the form says so, keeps the earlier counts, and its button too.
    again = client.get(url).content.decode()
    when = moment_text(filed.submitted_at)
    assert (
        f'<p class="notice" id="eod-replaces">You filed the report of {day_text(today)} at '
        f"{when}: filing this day again replaces it.</p>"
    ) in again
    assert 'name="dials" value="80"' in again
    assert '<button class="btn" type="submit" id="file">Replace the report</button>' in again
    assert f'"{today.isoformat()}": "You filed the report of' in again

    submission, csrf = open_form(client, url)
    second = client.post(
        url,
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "date": today.isoformat(),
            "dials": "95",
        },
    )
    assert second.status_code == 302
    board = client.get(second["Location"]).content.decode()
    assert (
        f"End-of-day report of {day_text(today)} filed. It replaces the one you filed at {when}."
    ) in board
    assert EodReport.objects.get(member=setter).fields == {"dials": 95}


def test_an_eod_day_still_to_come_is_refused_in_words(team):
    setter = team.members["setter"]
    client = browser(setter)
    url = f"/app/{team.workspace.pk}/file/eod/"
    tomorrow = local_today(team.workspace) + timedelta(days=1)
    submission, csrf = open_form(client, url)
    refused = client.post(
        url,
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "date": tomorrow.isoformat(),
            "dials": "-3",
        },
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert (
        '<a href="#id_date">Day: This day has not come yet: choose today or an earlier day.</a>'
        in html
    )
    assert '<a href="#id_dials">Dials: Enter 0 or more.</a>' in html
    assert "timezone" not in html
    assert not EodReport.objects.exists()


def test_a_draft_is_checked_and_filed_and_closes(team, write):
    closer = team.members["closer"]
    proposed = write(
        team.write_token,
        "/api/v1/forms/drafts",
        {"form": "eod", "member_id": str(closer.pk), "fields": {"fields": {"dials": 40}}},
    )
    assert proposed.status_code == 201
    draft_id = proposed.json()["id"]
    client = browser(closer)
    work = client.get(f"/app/{team.workspace.pk}/work/").content.decode()
    assert f'id="check-{draft_id}"' in work
    url = f"/app/{team.workspace.pk}/file/eod/?draft={draft_id}"
    page = client.get(url).content.decode()
    assert 'name="dials"' in page and 'value="40"' in page
    submission, csrf = open_form(client, url)
    answer = client.post(
        url,
        {
            "submission_id": submission,
            "csrfmiddlewaretoken": csrf,
            "draft_id": draft_id,
            "dials": "45",
        },
    )
    assert answer.status_code == 302
    assert Draft.objects.get(pk=draft_id).status == "filed"
    assert EodReport.objects.get(member=closer).fields == {"dials": 45}


def test_a_forms_time_is_its_wall_time_in_the_zone_unless_it_names_its_offset():
    berlin = ZoneInfo("Europe/Berlin")
    assert _local_iso("2026-03-05T14:30", berlin) == "2026-03-05T14:30:00+01:00"
    assert _local_iso("2026-07-05T14:30", berlin) == "2026-07-05T14:30:00+02:00"
    # Typed with an offset of its own (a page posted by a script): the offset is kept.
    assert _local_iso("2026-03-05T14:30:00-05:00", berlin) == "2026-03-05T14:30:00-05:00"
    assert _local_iso("soon", berlin) == "soon"  # the serializer names it
