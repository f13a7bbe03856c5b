"""What a Stripe delivery may carry without a server error: unreadable signature headers
and future timestamps are refused; a signed payload with text no database stores is kept
escaped and applied; shapes and times Stripe never sends are refused or held, never a 500;
and an event that keeps failing is held instead of being tried for ever."""

import json
import time

import pytest
from django.test import Client

from core import throttling
from integrations import services
from integrations.models import Connection, Event
from integrations.providers import provider_get
from integrations.stripe import mapping
from workspaces.models import Payment

from .conftest import SECRET, charge, event, sign

pytestmark = pytest.mark.django_db


def _post(connection, body: str, header: str):
    return Client().post(
        f"/hooks/stripe/{connection.pk}",
        data=body,
        content_type="application/json",
        headers={"Stripe-Signature": header},
    )


def test_a_signature_header_that_is_not_ascii_is_refused(shop):
    answer = _post(shop.connection, json.dumps({"id": "evt_1"}), "t=1,v1=\xe9")
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_signature"
    assert Event.objects.count() == 0
    assert Connection.objects.get(pk=shop.connection.pk).events_refused == 1


def test_a_signature_dated_in_the_future_is_refused(shop):
    body = json.dumps({"id": "evt_1", "type": "charge.succeeded", "created": 1})
    answer = _post(shop.connection, body, sign(body, SECRET, int(time.time()) + 365 * 86400))
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "stale_signature",
        "message": "The Stripe-Signature timestamp is more than 300 seconds ahead of now; "
        "check the sender's clock.",
    }
    # Within the tolerance either way is accepted.
    near = _post(shop.connection, body, sign(body, SECRET, int(time.time()) + 200))
    assert near.status_code == 200


@pytest.mark.parametrize(
    "written",
    [
        lambda t: f"+{t}",
        lambda t: f"{str(t)[:1]}_{str(t)[1:]}",
        lambda t: f" {t}",
        lambda t: f"{t}.0",
        lambda t: f"{t / 10**9}e9",
        lambda t: f"0{t}000",
        lambda t: "",
    ],
    ids=["sign", "underscore", "space", "fraction", "exponent", "14 digits", "empty"],
)
def test_a_timestamp_that_is_not_plain_digits_is_an_unreadable_signature(shop, written):
    """Python's int() reads "+…", "1_…" and " …", and the library would then check the
    time against the past only: a time ahead of now must not slip through."""
    body = json.dumps({"id": "evt_1", "type": "charge.succeeded", "created": 1})
    ahead = int(time.time()) + 365 * 86400
    header = sign(body, SECRET, ahead).replace(f"t={ahead},", f"t={written(ahead)},")
    answer = _post(shop.connection, body, header)
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "reason": "invalid_signature",
        "message": "The Stripe-Signature timestamp is not a time: 1 to 13 digits are expected.",
    }
    assert Event.objects.count() == 0
    assert Connection.objects.get(pk=shop.connection.pk).events_refused == 1


def test_every_timestamp_of_the_signature_header_is_read(shop):
    body = json.dumps({"id": "evt_1", "type": "charge.succeeded", "created": 1})
    header = sign(body, SECRET) + f",t=+{int(time.time())}"
    answer = _post(shop.connection, body, header)
    assert (answer.status_code, answer.json()["error"]["reason"]) == (400, "invalid_signature")


def test_text_no_database_stores_is_kept_escaped_and_applied(shop, deliver):
    payload = event(
        "evt_nul",
        "charge.succeeded",
        charge("ch_nul", 100000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )
    payload["data"]["object"]["description"] = "a\u0000b \ud800 c"
    body = json.dumps(payload)
    answer = _post(shop.connection, body, sign(body, SECRET))
    assert answer.status_code == 200
    stored = Event.objects.get(event_id="evt_nul")
    assert stored.payload["data"]["object"]["description"] == "a\\u0000b \\ud800 c"
    services.events_apply(connection_id=shop.connection.pk)
    stored.refresh_from_db()
    assert stored.state == "applied"
    assert Payment.objects.get(external_id="ch_nul").amount == 100000


@pytest.mark.parametrize("data", [["a", "list"], "a string", 7])
def test_a_data_member_that_is_no_object_is_stored_and_ignored(shop, data):
    body = json.dumps({"id": "evt_odd", "type": "charge.succeeded", "created": 1, "data": data})
    answer = _post(shop.connection, body, sign(body, SECRET))
    assert answer.status_code == 200
    services.events_apply(connection_id=shop.connection.pk)
    assert Event.objects.get(event_id="evt_odd").state in {"ignored", "held"}
    assert Payment.objects.count() == 0


@pytest.mark.parametrize("created", [10**30, 1e30, -(10**15), -1e15])
def test_a_time_outside_the_calendar_holds_the_charge(shop, created):
    payload = event(
        "evt_far",
        "charge.succeeded",
        charge("ch_far", 100000, "2026-03-03 10:00", email="pat@example.test"),
        "2026-03-03 10:00",
    )
    payload["created"] = created
    payload["data"]["object"]["created"] = created
    body = json.dumps(payload)
    answer = _post(shop.connection, body, sign(body, SECRET))
    assert answer.status_code == 200
    services.events_apply(connection_id=shop.connection.pk)
    stored = Event.objects.get(event_id="evt_far")
    assert (stored.state, stored.occurred_at) == ("held", None)
    assert "is not a moment this service can hold" in stored.hold_reason
    assert Payment.objects.count() == 0


def test_json_nested_deeper_than_the_decoder_goes_is_refused(shop):
    body = "[" * 100_000 + "]" * 100_000
    answer = _post(shop.connection, body, sign(body, SECRET))
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    assert Event.objects.count() == 0


def test_an_event_that_keeps_failing_is_held_and_the_others_applied(shop, monkeypatch):
    def broken(*, event, connection):
        if event.event_id == "evt_bad":
            raise RuntimeError("a defect")
        return original(event=event, connection=connection)

    original = mapping.event_map
    monkeypatch.setattr(mapping, "event_map", broken)
    # Applied one by one: no fast path.
    monkeypatch.setattr(type(provider_get("stripe")), "apply_many", None)
    for name in ("evt_bad", "evt_good"):
        described_payload = event(
            name,
            "charge.succeeded",
            charge(f"ch_{name}", 1000, "2026-03-03 10:00", metadata={"sale_id": "sale-pat"}),
            "2026-03-03 10:00",
        )
        body = json.dumps(described_payload)
        assert _post(shop.connection, body, sign(body, SECRET)).status_code == 200
    for _ in range(services.UNEXPECTED_ATTEMPTS_MAX):
        services.events_apply(connection_id=shop.connection.pk)
    bad = Event.objects.get(event_id="evt_bad")
    assert (bad.state, bad.hold_code, bad.attempts) == ("held", "invalid", 5)
    assert bad.hold_reason.startswith("Applying it failed 5 times (an error of the service)")
    assert "a defect" not in bad.hold_reason
    assert Event.objects.get(event_id="evt_good").state == "applied"


def test_refused_deliveries_are_limited_per_connection_and_accepted_ones_never(
    shop, settings, monkeypatch, own_minute
):
    settings.RATE_LIMIT_REFUSED_DELIVERIES = "3/min"
    real = throttling.rate_count
    monkeypatch.setattr(
        "core.throttling.rate_count",
        lambda policy, ident, now=None: real(policy, ident, own_minute),
    )
    body = json.dumps({"id": "evt_x"})
    statuses = [_post(shop.connection, body, "t=1,v1=00").status_code for _ in range(4)]
    assert statuses == [400, 400, 400, 429]
    refused = _post(shop.connection, body, "t=1,v1=00")
    assert refused.json()["error"]["reason"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1
    # Only the refusals answered 400 are counted: once limited, nothing is written.
    assert Connection.objects.get(pk=shop.connection.pk).events_refused == 3
    # A delivery with the right signature is still taken.
    good = json.dumps(
        event(
            "evt_ok",
            "charge.succeeded",
            charge("ch_ok", 1000, "2026-03-03 10:00", email="pat@example.test"),
            "2026-03-03 10:00",
        )
    )
    assert _post(shop.connection, good, sign(good, SECRET)).status_code == 200


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_signed_body_with_a_number_json_does_not_have_is_refused(shop, constant):
    body = f'{{"id": "evt_inf", "type": "charge.succeeded", "created": {constant}}}'
    answer = _post(shop.connection, body, sign(body, SECRET))
    assert answer.status_code == 400
    assert answer.json()["error"]["reason"] == "invalid_body"
    assert Event.objects.count() == 0
