"""How a Meta connection's ads set their UTM values: the connection's options page, and
the stored spend written again with the new values, audited, in one transaction."""

from datetime import UTC, date, datetime

import pytest
from django.db import transaction
from django.test import Client

from audit.models import AuditEvent
from integrations import services
from integrations.meta import PROVIDER
from integrations.models import Connection
from workspaces.models import AdSpend
from workspaces.services import lead_upsert

from .conftest import CREDENTIALS

pytestmark = pytest.mark.django_db


def _spend(connection):
    """Two days of a campaign, as Meta's read writes them."""
    connection.refresh_from_db()
    PROVIDER.write(
        connection=connection,
        records=[
            {
                "campaign_id": "1202",
                "campaign_name": "Spring webinar",
                "date": "2026-03-01",
                "amount": 12345,
                "impressions": 10,
                "clicks": 1,
            },
            {
                "campaign_id": "1202",
                "campaign_name": "Spring webinar",
                "date": "2026-03-02",
                "amount": 500,
                "impressions": None,
                "clicks": None,
            },
        ],
    )


def _utm(workspace):
    return list(
        AdSpend.objects.filter(workspace=workspace)
        .order_by("date")
        .values_list("date", "utm_source", "utm_campaign", "amount")
    )


def _page(connection):
    return f"/settings/{connection.workspace_id}/integrations/{connection.pk}/meta/"


def test_changing_the_mapping_remaps_the_stored_rows(meta_connection, make_member):
    connection = meta_connection()
    with transaction.atomic():
        _spend(connection)
    assert _utm(connection.workspace) == [
        (date(2026, 3, 1), "facebook", "Spring webinar", 12345),
        (date(2026, 3, 2), "facebook", "Spring webinar", 500),
    ]
    owner = make_member(connection.workspace, "owner", email="olga@example.test")
    client = Client()
    client.force_login(owner.user)
    integrations = client.get(f"/settings/{connection.workspace_id}/integrations/")
    assert _page(connection) in integrations.content.decode()
    shown = client.get(_page(connection))
    assert shown.status_code == 200
    html = shown.content.decode()
    assert "The campaign&#x27;s name, as the ad platform shows it" in html
    assert shown.context["form"].initial == {"source": "facebook", "campaign": "name"}

    answer = client.post(_page(connection), {"source": "fb_ads", "campaign": "id"})

    assert (answer.status_code, answer["Location"]) == (302, _page(connection))
    assert _utm(connection.workspace) == [
        (date(2026, 3, 1), "fb_ads", "1202", 12345),
        (date(2026, 3, 2), "fb_ads", "1202", 500),
    ]
    stored = Connection.objects.get(pk=connection.pk)
    assert stored.options["utm"] == {"source": "fb_ads", "campaign": "id"}
    event = AuditEvent.objects.get(action="integration.options_changed")
    assert (event.actor_label, event.target_id) == ("olga@example.test", str(connection.pk))
    assert event.detail == {
        "provider": "meta",
        "utm": {"source": "fb_ads", "campaign": "id"},
        "before": {"utm": {"source": "facebook", "campaign": "name"}},
        "rows_remapped": 2,
    }
    # Rows read from then on carry the new values too.
    with transaction.atomic():
        _spend(stored)
    assert _utm(connection.workspace)[0] == (date(2026, 3, 1), "fb_ads", "1202", 12345)


def test_an_empty_source_is_refused_beside_the_field_and_nothing_changes(
    meta_connection, make_member
):
    connection = meta_connection()
    owner = make_member(connection.workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    answer = client.post(_page(connection), {"source": " ", "campaign": "name"})
    assert answer.status_code == 400
    assert "Enter the utm_source your ads&#x27; links carry." in answer.content.decode()
    assert Connection.objects.get(pk=connection.pk).options.get("utm") is None
    assert not AuditEvent.objects.filter(action="integration.options_changed").exists()


def test_only_owners_and_admins_change_it(meta_connection, make_member):
    connection = meta_connection()
    closer = make_member(connection.workspace, "closer")
    client = Client()
    client.force_login(closer.user)
    assert client.get(_page(connection)).status_code == 403
    assert client.post(_page(connection), {"source": "x", "campaign": "id"}).status_code == 403
    assert Connection.objects.get(pk=connection.pk).options.get("utm") is None


def test_the_mapping_puts_meta_spend_beside_the_leads_its_ads_brought(
    graph, waits, today, meta_connection, make_member, workspace_token, api
):
    """Ads whose links carry the campaign's id: read with the default mapping (the
    campaign's name), /acquisition counts the spend apart from the leads; once the
    connection says the id, the same spend sits on the leads' row."""
    connection = meta_connection()
    workspace = connection.workspace
    graph.answer(f"/v26.0/{CREDENTIALS['ad_account_id']}", "account")
    graph.answer(f"/v26.0/{CREDENTIALS['ad_account_id']}/insights", "insights_page2")
    services.connection_backfill(connection_id=connection.pk)
    with transaction.atomic():
        for n in (1, 2):
            lead_upsert(
                workspace=workspace,
                external_id=f"lead-{n}",
                created_at=datetime(2026, 3, 2, 9 + n, tzinfo=UTC),
                name=f"Lead {n}",
                email=f"lead{n}@example.test",
                utm_source="facebook",
                utm_campaign="120210000000001",
            )
    reader = api(workspace_token(workspace))
    period = {"from": "2026-03-01", "to": "2026-03-31"}

    def rows():
        body = reader.get("/api/v1/acquisition", period).json()
        return [
            (row["utm_source"], row["utm_campaign"], row["spend"]["value"], row["leads"]["value"])
            for row in body["data"]["rows"]
        ]

    assert rows() == [
        ("facebook", "Spring webinar US", 98.1, 0),
        ("facebook", "120210000000001", 0, 2),
    ]
    owner = make_member(workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    client.post(_page(connection), {"source": "facebook", "campaign": "id"})
    assert rows() == [("facebook", "120210000000001", 98.1, 2)]
