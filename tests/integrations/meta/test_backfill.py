"""Meta Ads against a local stand-in of the graph API answering Meta's recorded answers:
the account's currency checked at connect, 90 days read page by page (`after` cursors),
the last 7 days read again by the schedule with a day's revision replacing its amount,
Meta's rate limits waited out, a refused token and another currency said in words."""

import json
from datetime import date, timedelta

import pytest
from django.test import Client

from audit.models import AuditEvent
from audit.services import SYSTEM
from integrations import services
from integrations.models import Connection
from workspaces.models import AdSpend

from .conftest import ACCOUNT, CREDENTIALS, TOKEN

pytestmark = pytest.mark.django_db

INSIGHTS = f"/v26.0/{ACCOUNT}/insights"
ACCOUNT_PATH = f"/v26.0/{ACCOUNT}"


def _rows(workspace):
    return list(
        AdSpend.objects.filter(workspace=workspace)
        .order_by("date", "campaign_id")
        .values_list(
            "external_id",
            "date",
            "platform",
            "amount",
            "utm_source",
            "utm_campaign",
            "campaign_name",
            "impressions",
            "clicks",
        )
    )


FIRST_READ = [
    (
        "meta:120210000000001:2026-03-01",
        date(2026, 3, 1),
        "meta",
        12345,
        "facebook",
        "Spring webinar US",
        "Spring webinar US",
        10234,
        321,
    ),
    (
        "meta:120210000000002:2026-03-01",
        date(2026, 3, 1),
        "meta",
        7,
        "facebook",
        "Retargeting",
        "Retargeting",
        88,
        1,
    ),
    (
        "meta:120210000000001:2026-03-02",
        date(2026, 3, 2),
        "meta",
        9810,
        "facebook",
        "Spring webinar US",
        "Spring webinar US",
        9120,
        280,
    ),
]


def test_connect_reads_90_days_page_by_page_then_the_schedule_reads_7_again(
    graph, waits, today, meta_connection, django_capture_on_commit_callbacks, backfills
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account")
    graph.answer(INSIGHTS, "insights_page1")
    graph.answer(INSIGHTS, "insights_page2", after="MQZDZD")

    done = services.connection_backfill(connection_id=connection.pk)

    assert done.state == "connected"
    assert _rows(connection.workspace) == FIRST_READ
    asked = graph.insights_asked()
    assert [(q["level"], q["time_increment"], q.get("after")) for q in asked] == [
        ("campaign", "1", None),
        ("campaign", "1", "MQZDZD"),
    ]
    assert json.loads(asked[0]["time_range"]) == {"since": "2025-12-11", "until": "2026-03-10"}
    assert asked[0]["fields"] == (
        "campaign_id,campaign_name,spend,impressions,clicks,account_currency"
    )
    assert asked[0]["access_token"] == TOKEN
    stored = Connection.objects.get(pk=connection.pk)
    assert (stored.backfill, stored.events_received, stored.events_applied) == ({}, 3, 3)
    assert stored.options["account"] == {
        "id": ACCOUNT,
        "name": "Acme Coaching Ads",
        "currency": "USD",
    }
    assert AuditEvent.objects.filter(action="integration.pulled").count() == 2
    assert waits == []

    # A day after the read ended the beat starts the read of the last 7 days; Meta
    # revised 1 March meanwhile.
    finished = stored.backfill_finished_at
    assert services.connections_pull_due(now=finished + timedelta(hours=23)) == []
    due_at = finished + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.connections_pull_due(now=due_at) == [connection.pk]
    assert backfills == [connection.pk]
    window = {
        "since": (due_at.date() - timedelta(days=6)).isoformat(),
        "until": due_at.date().isoformat(),
    }
    started = AuditEvent.objects.get(action="integration.pull_started")
    assert started.detail == {"provider": "meta", **window}
    graph.answers.clear()
    graph.answer(INSIGHTS, "insights_revised")
    services.connection_backfill(connection_id=connection.pk)

    assert json.loads(graph.insights_asked()[-1]["time_range"]) == window
    revised = _rows(connection.workspace)
    assert revised[0][:4] == ("meta:120210000000001:2026-03-01", date(2026, 3, 1), "meta", 13002)
    assert revised[0][7:] == (10800, 330)
    assert revised[1:] == FIRST_READ[1:]
    assert AdSpend.objects.filter(workspace=connection.workspace).count() == 3


def test_a_rate_limit_is_waited_out_then_the_read_goes_on(graph, waits, meta_connection):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account")
    graph.answer(INSIGHTS, (400, "rate_limited"), (429, "insights_throttled"), "insights_page2")

    done = services.connection_backfill(connection_id=connection.pk)

    assert done.state == "connected"
    assert waits == [1, 2]
    assert [row[3] for row in _rows(connection.workspace)] == [9810]


def test_a_rate_limit_that_lasts_is_a_limited_failure_retried_by_the_beat(
    graph, waits, meta_connection, backfills
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account")
    graph.answer(INSIGHTS, (400, "insights_throttled"))

    done = services.connection_backfill(connection_id=connection.pk)

    assert waits == [1, 2, 4, 8, 16, 32]
    assert (done.state, done.last_error_kind) == ("failing", "limited")
    later = done.last_error_at + services.connections_retry_due.__globals__["RETRY_AFTER"]
    assert services.connections_retry_due(now=later) == [connection.pk]


def test_a_refused_token_fails_the_connection_refused_and_the_page_says_so(
    graph, waits, meta_connection, make_member
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, (400, "token_expired"))

    done = services.connection_backfill(connection_id=connection.pk)

    assert (done.state, done.last_error_kind) == ("failing", "refused")
    assert done.last_error == "Meta Ads refused the credential."
    assert waits == []
    assert AdSpend.objects.count() == 0
    owner = make_member(connection.workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    html = client.get(f"/settings/{connection.workspace.pk}/integrations/").content.decode()
    assert (
        "Meta Ads refused the key: paste a new access token with the ads_read permission."
    ) in html
    assert 'data-kind="refused"' in html
    assert "Session has expired" not in html
    assert "/hooks/meta/" not in html


def test_an_ad_account_in_another_currency_is_refused_at_connect_in_words(
    graph, waits, meta_connection, make_member
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account_eur")

    done = services.connection_backfill(connection_id=connection.pk)

    words = (
        "The Meta ad account act_1234567890 reports its spend in EUR and this workspace "
        "counts in USD: nothing is read from it. Connect an ad account that bills in USD."
    )
    assert (done.state, done.last_error_kind, done.last_error_words) == (
        "failing",
        "refused",
        words,
    )
    assert graph.insights_asked() == []
    owner = make_member(connection.workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    html = client.get(f"/settings/{connection.workspace.pk}/integrations/").content.decode()
    assert words in html


def test_new_credentials_check_the_account_again_and_read_its_first_days(
    graph, waits, today, meta_connection
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account")
    graph.answer(INSIGHTS, "insights_page2")
    services.connection_backfill(connection_id=connection.pk)
    assert Connection.objects.get(pk=connection.pk).backfill_finished_at is not None

    again = services.connection_create(
        workspace=connection.workspace,
        provider="meta",
        credentials={**CREDENTIALS, "access_token": TOKEN + "Z"},
        actor=SYSTEM,
    )
    assert again.pk == connection.pk
    stored = Connection.objects.get(pk=connection.pk)
    assert (stored.backfill, stored.backfill_started_at, stored.backfill_finished_at) == (
        {},
        None,
        None,
    )
    graph.answers.clear()
    graph.answer(ACCOUNT_PATH, "account_eur")
    done = services.connection_backfill(connection_id=connection.pk)
    assert (done.state, done.last_error_kind) == ("failing", "refused")
    assert [path for path, _query in graph.requests].count(ACCOUNT_PATH) == 2


def test_a_read_stopped_by_a_limit_resumes_at_its_after_cursor(
    graph, waits, today, meta_connection
):
    connection = meta_connection()
    graph.answer(ACCOUNT_PATH, "account")
    graph.answer(INSIGHTS, "insights_page1")
    graph.answer(INSIGHTS, (400, "insights_throttled"), after="MQZDZD")

    failing = services.connection_backfill(connection_id=connection.pk)

    assert (failing.state, failing.last_error_kind) == ("failing", "limited")
    assert failing.backfill == {"since": "2025-12-11", "until": "2026-03-10", "after": "MQZDZD"}
    assert [row[3] for row in _rows(connection.workspace)] == [12345, 7]
    graph.answers.clear()
    graph.requests.clear()
    graph.answer(INSIGHTS, "insights_page2", after="MQZDZD")

    done = services.connection_backfill(connection_id=connection.pk)

    assert done.state == "connected"
    assert [query.get("after") for query in graph.insights_asked()] == ["MQZDZD"]
    assert [path for path, _query in graph.requests].count(ACCOUNT_PATH) == 0
    assert [row[3] for row in _rows(connection.workspace)] == [12345, 7, 9810]
    assert Connection.objects.get(pk=connection.pk).backfill == {}
