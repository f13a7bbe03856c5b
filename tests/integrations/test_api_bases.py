"""Each provider's API address comes from the settings, so the service can run against a
provider's mock server or sandbox (stripe-mock in staging, a recorded server in a test)."""

import httpx
import pytest
import respx

from integrations import services
from integrations.calendly.client import CalendlyClient
from integrations.hubspot import client as hubspot_client
from integrations.models import Connection
from integrations.zoom.backfill import ZoomClient

from .conftest import STRIPE_KEY, charge

pytestmark = pytest.mark.django_db

MOCK = "http://stripe-mock.test:12111"


@respx.mock
def test_the_stripe_backfill_reads_a_stripe_mock_server(shop, settings):
    settings.STRIPE_API_BASE = MOCK
    # stripe-mock answers lists in Stripe's own shape.
    charges = respx.get(f"{MOCK}/v1/charges").mock(
        return_value=httpx.Response(
            200,
            json={
                "object": "list",
                "url": "/v1/charges",
                "has_more": False,
                "data": [charge("ch_mock", 5000, "2026-03-03 10:00", email="pat@example.test")],
            },
        )
    )
    refunds = respx.get(f"{MOCK}/v1/refunds").mock(
        return_value=httpx.Response(
            200, json={"object": "list", "url": "/v1/refunds", "has_more": False, "data": []}
        )
    )
    connection = Connection.objects.get()
    pages = list(
        services.provider_get("stripe").backfill(
            connection=connection, credentials={"secret_key": STRIPE_KEY}, cursor=None
        )
    )
    assert (charges.call_count, refunds.call_count) == (1, 1)
    assert [item.described.event_type for page in pages for item in page.items] == [
        "charge.succeeded"
    ]


def test_calendly_zoom_and_hubspot_clients_use_their_settings(settings):
    settings.CALENDLY_API_BASE = "http://calendly-mock.test"
    settings.HUBSPOT_API_BASE = "http://hubspot-mock.test"
    settings.ZOOM_OAUTH_BASE = "http://zoom-mock.test/oauth"
    settings.ZOOM_API_BASE = "http://zoom-mock.test/v2"
    with CalendlyClient("token") as calendly:
        assert str(calendly._http.base_url) == "http://calendly-mock.test"
    hubspot = hubspot_client.client_for({"access_token": "pat-na1-x"})
    assert hubspot.crm.contacts.basic_api.api_client.configuration.host == (
        "http://hubspot-mock.test"
    )
    with respx.mock:
        token = respx.post("http://zoom-mock.test/oauth/token").mock(
            return_value=httpx.Response(200, json={"access_token": "z-token"})
        )
        page = respx.get("http://zoom-mock.test/v2/users/me/webinars").mock(
            return_value=httpx.Response(200, json={"webinars": []})
        )
        zoom = ZoomClient({"account_id": "a", "client_id": "c", "client_secret": "s"})
        assert zoom.get("/users/me/webinars", {}) == {"webinars": []}
        assert (token.call_count, page.call_count) == (1, 1)
