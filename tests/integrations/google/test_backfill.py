"""Google Ads against its recorded REST answers: the customer's currency checked at
connect, 90 days read, the last 7 read again with a day's revision replacing its amount,
cost_micros in minor units exactly, RESOURCE_EXHAUSTED waited out, a refused refresh
token and another currency said in words."""

from datetime import date, timedelta

import pytest
from django.test import Client

from integrations import services
from integrations.google.backfill import minor_from_micros
from integrations.models import Connection
from workspaces.models import AdSpend

pytestmark = pytest.mark.django_db


def _rows(workspace):
    return list(
        AdSpend.objects.filter(workspace=workspace)
        .order_by("date", "campaign_id")
        .values_list(
            "external_id", "date", "amount", "utm_source", "utm_campaign", "impressions", "clicks"
        )
    )


FIRST_READ = [
    ("google:20512345678:2026-03-01", date(2026, 3, 1), 4567, "google", "Search - Brand", 1520, 88),
    ("google:20598765432:2026-03-01", date(2026, 3, 1), 123, "google", "PMax - Webinar", 310, 4),
    ("google:20512345678:2026-03-02", date(2026, 3, 2), 0, "google", "Search - Brand", 12, 0),
]


def test_connect_reads_90_days_then_the_schedule_reads_7_again(
    google, waits, today, google_connection, django_capture_on_commit_callbacks
):
    connection = google_connection()
    google.token("token")
    google.stream("customer", "customer")
    google.stream("campaign", "spend")

    done = services.connection_backfill(connection_id=connection.pk)

    assert done.state == "connected"
    assert _rows(connection.workspace) == FIRST_READ
    assert google.queries[1] == (
        "SELECT segments.date, campaign.id, campaign.name, metrics.cost_micros, "
        "metrics.impressions, metrics.clicks FROM campaign WHERE segments.date BETWEEN "
        "'2025-12-11' AND '2026-03-10' ORDER BY segments.date, campaign.id"
    )
    headers = google.headers[1]
    assert (headers["authorization"], headers["developer-token"]) == (
        "Bearer ya29.a0AfB_byC-recorded-access-token",
        "aBcDeFgHiJkLmNoPqRsTuV",
    )
    assert headers["login-customer-id"] == "9876543210"
    stored = Connection.objects.get(pk=connection.pk)
    assert stored.options["account"] == {
        "id": "1234567890",
        "name": "Acme Coaching",
        "currency": "USD",
    }

    due_at = stored.backfill_finished_at + timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.connections_pull_due(now=due_at) == [connection.pk]
    google.streams["campaign"] = [(200, "spend_revised")]
    services.connection_backfill(connection_id=connection.pk)

    since, until = due_at.date() - timedelta(days=6), due_at.date()
    assert f"BETWEEN '{since}' AND '{until}'" in google.queries[-1]
    rows = _rows(connection.workspace)
    assert rows[0][:3] == ("google:20512345678:2026-03-01", date(2026, 3, 1), 4700)
    assert rows[1:] == FIRST_READ[1:]


@pytest.mark.parametrize(
    ("micros", "currency", "minor"),
    [
        (45_670_000, "USD", 4567),
        (1_234_567, "USD", 123),  # a fraction of a cent: half up
        (1_235_000, "USD", 124),
        (1_500_000, "JPY", 2),
        (1_234_567, "KWD", 1235),
        (0, "EUR", 0),
    ],
)
def test_cost_micros_in_minor_units(micros, currency, minor):
    assert minor_from_micros(micros, currency=currency) == minor


def test_resource_exhausted_is_waited_out(google, waits, today, google_connection):
    connection = google_connection()
    google.token("token")
    google.stream("customer", "customer")
    google.stream("campaign", (429, "resource_exhausted"), "spend_revised")

    done = services.connection_backfill(connection_id=connection.pk)

    assert (done.state, waits) == ("connected", [1])
    assert [row[2] for row in _rows(connection.workspace)] == [4700]


def test_a_refused_refresh_token_is_a_refused_failure(
    google, waits, google_connection, make_member
):
    connection = google_connection()
    google.token((400, "token_refused"))

    done = services.connection_backfill(connection_id=connection.pk)

    assert (done.state, done.last_error_kind) == ("failing", "refused")
    assert done.last_error == "Google Ads refused the credential."
    owner = make_member(connection.workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    html = client.get(f"/settings/{connection.workspace.pk}/integrations/").content.decode()
    assert "Google Ads refused the key: paste a new refresh token" in html
    assert "invalid_grant" not in html


def test_a_developer_token_without_access_is_refused(google, waits, google_connection):
    connection = google_connection()
    google.token("token")
    google.stream("customer", (403, "permission_denied"))

    done = services.connection_backfill(connection_id=connection.pk)

    assert (done.state, done.last_error_kind) == ("failing", "refused")
    assert done.last_error == (
        "Google Ads approved this developer token for test accounts only: apply for Basic "
        "access in the Google Ads API Center, then press Retry."
    )


def test_an_account_in_another_currency_is_refused_at_connect(google, waits, google_connection):
    connection = google_connection()
    google.token("token")
    google.stream("customer", "customer_gbp")

    done = services.connection_backfill(connection_id=connection.pk)

    assert (done.state, done.last_error_kind, done.last_error_words) == (
        "failing",
        "refused",
        "The Google Ads account 1234567890 reports its costs in GBP and this workspace "
        "counts in USD: nothing is read from it. Connect an account that bills in USD.",
    )
    assert len(google.queries) == 1
    assert AdSpend.objects.count() == 0


def test_the_campaign_id_mapping_remaps_google_rows_only(
    google, waits, today, google_connection, make_member
):
    connection = google_connection()
    google.token("token")
    google.stream("customer", "customer")
    google.stream("campaign", "spend")
    services.connection_backfill(connection_id=connection.pk)
    AdSpend.objects.create(
        workspace=connection.workspace,
        external_id="manual-1",
        date=date(2026, 3, 1),
        platform="google",
        utm_source="google",
        utm_campaign="Typed by hand",
        amount=100,
    )
    owner = make_member(connection.workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    page = f"/settings/{connection.workspace_id}/integrations/{connection.pk}/google/"
    answer = client.post(page, {"source": "google", "campaign": "id"})
    assert answer.status_code == 302
    assert list(
        AdSpend.objects.filter(workspace=connection.workspace)
        .order_by("external_id")
        .values_list("external_id", "utm_source", "utm_campaign")
    ) == [
        ("google:20512345678:2026-03-01", "google", "20512345678"),
        ("google:20512345678:2026-03-02", "google", "20512345678"),
        ("google:20598765432:2026-03-01", "google", "20598765432"),
        ("manual-1", "google", "Typed by hand"),
    ]
