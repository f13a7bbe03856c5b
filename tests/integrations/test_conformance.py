"""Every provider in PROVIDERS through the same checks: the declared contract, the
credential's format, a refused and a stale signature (nothing stored), a duplicate
delivery stored once, and a type the service does not map stored and ignored. (Each
provider's backfill is tested against its recorded answers in its own folder.)"""

import json
import time
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client

from audit.services import SYSTEM
from integrations import services
from integrations.base import Provider
from integrations.models import Connection, Event
from integrations.providers import PROVIDERS, credentials_check
from scripts.fuzz_endpoints import CREDENTIALS, SIGNING_SECRET, signed_headers

pytestmark = pytest.mark.django_db

KEYS = list(PROVIDERS)


def _unmapped(key: str) -> object:
    """A well-signed delivery of a type the service does not map."""
    now = int(time.time())
    iso = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return {
        "stripe": {"id": "evt_conf", "type": "customer.created", "created": now,
                   "data": {"object": {"id": "cus_1", "object": "customer"}}},
        "calendly": {"event": "routing_form_submission.created", "created_at": iso,
                     "payload": {"uri": "https://api.calendly.com/routing/1"}},
        "zoom": {"event": "webinar.deleted", "event_ts": now * 1000,
                 "payload": {"object": {"id": "123456789"}}},
        "hubspot": [{"eventId": 7001, "subscriptionType": "contact.deletion", "objectId": 5,
                     "occurredAt": now * 1000}],
    }[key]  # fmt: skip


@pytest.fixture
def connection(make_workspace):
    def make(key: str) -> Connection:
        return services.connection_create(
            workspace=make_workspace(), provider=key, credentials=CREDENTIALS[key], actor=SYSTEM
        )

    return make


def _deliver(connection: Connection, payload, *, skew: int = 0, secret: str | None = None):
    key = connection.provider
    body = json.dumps(payload).encode()
    path = f"/hooks/{key}/{connection.pk}"
    headers = signed_headers(
        key,
        secret or CREDENTIALS[key][SIGNING_SECRET[key]],
        body,
        f"{settings.BASE_URL}{path}",
        skew,
    )
    return Client().post(path, data=body, content_type="application/json", headers=headers)


@pytest.mark.parametrize("key", KEYS)
def test_the_declared_contract(key):
    provider = PROVIDERS[key]
    assert isinstance(provider, Provider)
    assert provider.key == key
    assert provider.name and provider.feeds and provider.credential_fields
    assert [f for f in provider.credential_fields if f.signs_webhooks]
    for hook in ("split", "challenge", "on_connect", "apply_many"):
        value = getattr(provider, hook)
        assert value is None or callable(value), hook


@pytest.mark.parametrize("key", KEYS)
def test_the_credentials_format_is_checked(key):
    provider = PROVIDERS[key]
    clean, errors = credentials_check(provider, CREDENTIALS[key])
    assert errors == {}
    assert set(clean) <= {field.name for field in provider.credential_fields}
    _clean, garbled = credentials_check(
        provider, {f.name: "x y" for f in provider.credential_fields}
    )
    assert set(garbled) == {f.name for f in provider.credential_fields}


@pytest.mark.parametrize("key", KEYS)
def test_a_wrong_or_stale_signature_is_refused_and_nothing_stored(connection, key):
    made = connection(key)
    wrong = _deliver(made, _unmapped(key), secret="not-the-secret-0123456789abcdef")
    assert (wrong.status_code, wrong.json()["error"]["reason"]) == (400, "invalid_signature")
    stale = _deliver(made, _unmapped(key), skew=-3600)
    assert (stale.status_code, stale.json()["error"]["reason"]) == (400, "stale_signature")
    ahead = _deliver(made, _unmapped(key), skew=3600)
    assert (ahead.status_code, ahead.json()["error"]["reason"]) == (400, "stale_signature")
    assert Event.objects.count() == 0
    assert Connection.objects.get(pk=made.pk).events_refused == 3


@pytest.mark.parametrize("key", KEYS)
def test_a_duplicate_is_stored_once_and_an_unmapped_type_ignored(connection, key):
    made = connection(key)
    payload = _unmapped(key)
    first = _deliver(made, payload)
    assert first.status_code == 200, first.content
    # The same delivery again (a provider's retry).
    again = _deliver(made, payload)
    assert again.json() == {"received": True, "duplicate": True}
    [event] = Event.objects.filter(connection=made)
    services.events_apply(connection_id=made.pk)
    event.refresh_from_db()
    assert event.state == "ignored"
