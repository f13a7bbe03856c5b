"""The recipe "a new integration" of docs/integrations.md, followed in a test: two made-up
providers, registered the way the recipe says (an entry in PROVIDERS), are served by the
engine unchanged: the connect page, a signed webhook stored and applied, a scheduled pull
written through the AdSpend writer, and their failures said from the error's type."""

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from datetime import date

import pytest
from django.db import transaction
from django.test import Client

from integrations import services
from integrations.ads import SpendRow, spend_write
from integrations.base import (
    Applied,
    BackfillPage,
    CredentialField,
    Described,
    Provider,
    ProviderLimited,
    ProviderRefused,
    PulledProvider,
    SignatureRefused,
)
from integrations.models import Connection, Event
from integrations.providers import PROVIDERS
from workspaces.models import AdSpend

pytestmark = pytest.mark.django_db

SECRET = "hooksecret-0123456789abcdef"


class Hooked(Provider):
    """Sends signed webhooks: `X-Hooked-Signature` is hex HMAC-SHA256(secret, body)."""

    key = "hooked"
    name = "Hooked"
    feeds = "nothing much"
    refused_step = "paste a new hooked key"
    credential_fields = (
        CredentialField(
            "api_key", "Hooked API key", "it looks like hk_ and 8 letters.", r"hk_[a-z]{8}"
        ),
        CredentialField(
            "secret",
            "Hooked webhook secret",
            "the secret shown beside the URL.",
            r"[a-z0-9-]{16,64}",
            after_webhook_url=True,
            signs_webhooks=True,
        ),
    )

    def verify(self, *, body: bytes, headers: Mapping[str, str], secret: str, **request):
        expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(headers.get("X-Hooked-Signature", ""), expected):
            raise SignatureRefused("The X-Hooked-Signature header does not match.")

    def describe(self, payload: dict) -> Described:
        return Described(
            event_id=str(payload.get("id") or ""),
            event_type="thing.happened",
            occurred_at=None,
            object_id=str(payload.get("id") or ""),
        )

    def apply(self, *, event, connection, credentials):
        return Applied(records=(event.object_id,))

    def backfill(self, *, connection, credentials, cursor):
        raise ProviderRefused("Hooked answered 401.")


class Pulled(PulledProvider):
    """Read on a schedule; its spend rows are written through the AdSpend writer."""

    key = "pulled"
    name = "Pulled Ads"
    feeds = "ad spend"
    credential_fields = (
        CredentialField(
            "token", "Pulled token", "it looks like pt_ and 8 letters.", r"pt_[a-z]{8}"
        ),
    )
    answers: list = []

    def backfill(self, *, connection, credentials, cursor):
        self.answers.append(cursor)
        if cursor["since"] == "limited":
            raise ProviderLimited("Pulled answered 429.")
        row = SpendRow("c1", "Campaign one", date.fromisoformat(cursor["until"]), 1250, 10, 2)
        yield BackfillPage(records=[row.as_record()], cursor=None)

    def write(self, *, connection, records):
        return spend_write(
            connection=connection, records=records, platform="pulled", default_source="pulled"
        )


@pytest.fixture
def registered(monkeypatch):
    """The recipe's one entry in PROVIDERS, for each."""
    monkeypatch.setitem(PROVIDERS, "hooked", Hooked())
    monkeypatch.setitem(PROVIDERS, "pulled", Pulled())
    Pulled.answers = []


@pytest.fixture
def owner_client(make_workspace, make_member):
    workspace = make_workspace()
    owner = make_member(workspace, "owner")
    client = Client()
    client.force_login(owner.user)
    return workspace, client


def _connect(client, workspace, key, fields):
    url = f"/settings/{workspace.pk}/integrations/connect/{key}/"
    shown = client.get(url)
    assert shown.status_code == 200
    html = shown.content.decode()
    signed = re.search(r'name="connection" value="([^"]+)"', html).group(1)
    answer = client.post(url, {"connection": signed, **fields})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return html, Connection.objects.get(workspace=workspace, provider=key)


def test_a_webhook_provider_is_connected_receives_applies_and_fails_in_words(
    registered, owner_client, django_capture_on_commit_callbacks
):
    workspace, client = owner_client
    html, connection = _connect(
        client, workspace, "hooked", {"api_key": "hk_abcdefgh", "secret": SECRET}
    )
    assert f"/hooks/hooked/{connection.pk}" in html
    assert "Hooked API key" in html

    body = json.dumps({"id": "thing-1"}).encode()
    signature = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    path = f"/hooks/hooked/{connection.pk}"
    answer = Client().post(
        path, data=body, content_type="application/json", headers={"X-Hooked-Signature": signature}
    )
    assert answer.json() == {"received": True}
    wrong = Client().post(
        path, data=body, content_type="application/json", headers={"X-Hooked-Signature": "0" * 64}
    )
    assert (wrong.status_code, wrong.json()["error"]["reason"]) == (400, "invalid_signature")
    services.events_apply(connection_id=connection.pk)
    assert Event.objects.get(connection=connection).state == "applied"
    counters = Connection.objects.filter(pk=connection.pk).values_list(
        "events_received", "events_applied", "events_refused"
    )
    assert list(counters) == [(1, 1, 1)]

    failing = services.connection_backfill(connection_id=connection.pk)
    assert (failing.state, failing.last_error_kind) == ("failing", "refused")
    page = client.get(f"/settings/{workspace.pk}/integrations/").content.decode()
    assert "Hooked refused the key: paste a new hooked key." in page


def test_a_pulled_provider_is_connected_read_and_fails_in_words(
    registered, owner_client, monkeypatch
):
    workspace, client = owner_client
    html, connection = _connect(client, workspace, "pulled", {"token": "pt_abcdefgh"})
    assert "Webhook URL" not in html
    assert "/hooks/pulled/" not in html

    services.connection_backfill(connection_id=connection.pk)
    today = services.pull_window(PROVIDERS["pulled"], days=1)["until"]
    assert Pulled.answers == [services.pull_window(PROVIDERS["pulled"], days=90)]
    assert list(
        AdSpend.objects.filter(workspace=workspace).values_list(
            "external_id", "amount", "utm_source", "utm_campaign"
        )
    ) == [(f"pulled:c1:{today}", 1250, "pulled", "Campaign one")]
    answer = Client().post(
        f"/hooks/pulled/{connection.pk}", data=b"{}", content_type="application/json"
    )
    assert answer.status_code == 404

    with transaction.atomic():
        services.connection_change(connection=connection, cursor={"since": "limited"})
    failing = services.connection_backfill(connection_id=connection.pk)
    assert (failing.state, failing.last_error_kind) == ("failing", "limited")
    page = client.get(f"/settings/{workspace.pk}/integrations/").content.decode()
    assert "Pulled Ads asked us to slow down; we will retry at" in page
    assert "Pulled answered 429" not in page
    section = re.search(r'data-provider="pulled".*?</section>', page, re.S).group(0)
    counters = re.findall(r"<dt>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", section)
    assert counters[1:] == [("Rows read", "1"), ("Rows written", "1")]
    assert "Read on a schedule: its last 7 days again every day" in section


def test_the_page_offers_meta_and_google_ads_with_where_to_find_their_credentials(
    owner_client,
):
    workspace, client = owner_client
    html = client.get(f"/settings/{workspace.pk}/integrations/").content.decode()
    assert 'id="connect-meta"' in html and 'id="connect-google"' in html
    assert "ad spend, read every day" in html
    meta = re.search(r'id="hint-meta">(.*?)</details>', html, re.S).group(1)
    assert "Business Settings → Users → System users" in meta
    assert "its digits, with or without act_ before them" in meta
    google = re.search(r'id="hint-google">(.*?)</details>', html, re.S).group(1)
    assert "Tools → API Center" in google
    connect = client.get(f"/settings/{workspace.pk}/integrations/connect/google/")
    page = connect.content.decode()
    assert "Google Ads customer ID" in page and "ten digits, such as 123-456-7890." in page
    assert "Webhook URL" not in page
