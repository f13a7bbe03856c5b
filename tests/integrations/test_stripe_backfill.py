"""The Stripe backfill: Stripe's API answers replayed with respx, page by page, through
the same mapping as the webhooks."""

import httpx
import pytest
import respx

from audit.services import SYSTEM
from integrations import services
from integrations.base import ProviderError
from integrations.models import Connection, Event
from integrations.stripe import backfill
from workspaces.models import Payment, Refund

from .conftest import STRIPE_KEY, charge, event, refund, utc

pytestmark = pytest.mark.django_db

CHARGES = "https://api.stripe.com/v1/charges"
REFUNDS = "https://api.stripe.com/v1/refunds"


def listed(objects, has_more=False):
    return httpx.Response(
        200, json={"object": "list", "url": "/v1/x", "has_more": has_more, "data": objects}
    )


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(backfill, "_sleep", slept.append)
    return slept


@respx.mock
def test_pages_of_charges_then_refunds_make_the_records_once(shop, deliver, waits):
    # A webhook already brought the first charge: the backfill makes it no second time.
    deliver(
        shop.connection,
        event(
            "evt_1",
            "charge.succeeded",
            charge("ch_b1", 100000, "2026-03-03 10:00", email="pat@example.test"),
            "2026-03-03 10:00",
        ),
    )
    charges = respx.get(CHARGES).mock(
        side_effect=[
            listed(
                [charge("ch_b1", 100000, "2026-03-03 10:00", email="pat@example.test")],
                has_more=True,
            ),
            httpx.Response(
                429, json={"error": {"type": "rate_limit_error", "message": "Too many requests"}}
            ),
            listed(
                [
                    charge(
                        "ch_b2",
                        40000,
                        "2026-03-04 10:00",
                        email="pat@example.test",
                        status="failed",
                    ),
                    charge(
                        "ch_b3",
                        9000,
                        "2026-03-04 11:00",
                        email="pat@example.test",
                        status="pending",
                    ),
                ]
            ),
        ]
    )
    refunds = respx.get(REFUNDS).mock(
        return_value=listed([refund("re_b1", "ch_b1", 30000, "2026-03-06 10:00")])
    )
    connection = Connection.objects.get()
    cursors = []
    for page in services.provider_get("stripe").backfill(
        connection=connection, credentials={"secret_key": STRIPE_KEY}, cursor=None
    ):
        services.backfill_page_record(connection=connection, page=page)
        connection.refresh_from_db()
        cursors.append(connection.backfill)

    since = cursors[0]["since"]
    assert cursors == [
        {"since": since, "resource": "charges", "starting_after": "ch_b1"},
        {"since": since, "resource": "refunds"},
        {},
    ]
    assert connection.backfill_finished_at is not None
    # 90 days back, page by page from the last object read; one wait after the 429.
    first, _limited, second = (call.request.url.params for call in charges.calls)
    assert dict(first) == {"limit": "100", "created[gte]": str(since)}
    assert dict(second) == {"limit": "100", "created[gte]": str(since), "starting_after": "ch_b1"}
    assert refunds.call_count == 1
    assert waits == [1]
    assert charges.calls[0].request.headers["Authorization"] == f"Bearer {STRIPE_KEY}"

    assert sorted(Payment.objects.values_list("external_id", "amount", "status", "paid_at")) == [
        ("ch_b1", 100000, "succeeded", utc("2026-03-03 10:00")),
        ("ch_b2", 40000, "failed", utc("2026-03-04 10:00")),
    ]
    assert list(Refund.objects.values_list("external_id", "amount")) == [("re_b1", 30000)]
    assert sorted(Event.objects.filter(source="backfill").values_list("object_id", "state")) == [
        ("ch_b1", "applied"),
        ("ch_b2", "applied"),
        ("re_b1", "applied"),
    ]


@respx.mock
def test_a_restarted_backfill_resumes_at_its_cursor(shop):
    respx.get(CHARGES).mock(return_value=listed([]))
    refunds = respx.get(REFUNDS).mock(return_value=listed([]))
    cursor = {"since": 1767225600, "resource": "refunds", "starting_after": "re_0"}
    pages = list(
        services.provider_get("stripe").backfill(
            connection=shop.connection, credentials={"secret_key": STRIPE_KEY}, cursor=cursor
        )
    )
    assert [page.cursor for page in pages] == [None]
    assert not respx.calls.last.request.url.path.endswith("/charges")
    assert dict(refunds.calls[0].request.url.params) == {
        "limit": "100",
        "created[gte]": "1767225600",
        "starting_after": "re_0",
    }


@respx.mock
def test_a_refused_key_or_endless_429_is_a_provider_error(shop, waits):
    respx.get(CHARGES).mock(
        return_value=httpx.Response(
            401, json={"error": {"type": "invalid_request_error", "message": "Invalid API Key"}}
        )
    )
    with pytest.raises(ProviderError, match="refused the secret key"):
        list(
            backfill.pages(
                connection=shop.connection, credentials={"secret_key": STRIPE_KEY}, cursor=None
            )
        )
    respx.get(CHARGES).mock(
        return_value=httpx.Response(429, json={"error": {"type": "rate_limit_error"}})
    )
    with pytest.raises(ProviderError, match="429"):
        list(
            backfill.pages(
                connection=shop.connection, credentials={"secret_key": STRIPE_KEY}, cursor=None
            )
        )
    assert waits == [1, 2, 4, 8, 16, 32]


@respx.mock
def test_the_backfill_task_reads_the_provider_once_and_a_finished_backfill_reads_nothing(shop):
    charges = respx.get(CHARGES).mock(
        return_value=listed([charge("ch_t1", 25000, "2026-03-05 09:00", email="pat@example.test")])
    )
    respx.get(REFUNDS).mock(return_value=listed([]))

    assert services.connection_backfill(connection_id=shop.connection.pk).state == "connected"
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_t1", 25000)]
    connection = Connection.objects.get(pk=shop.connection.pk)
    assert (connection.state, connection.backfill, connection.last_error) == ("connected", {}, "")
    assert connection.backfill_finished_at is not None

    # Run again (a redelivered task): nothing is read, nothing is made twice.
    services.connection_backfill(connection_id=shop.connection.pk)
    assert charges.call_count == 1
    assert Payment.objects.count() == 1


@respx.mock
def test_a_refused_key_makes_the_connection_failing_and_a_later_run_recovers_it(shop):
    respx.get(CHARGES).mock(
        side_effect=[
            httpx.Response(
                401,
                json={"error": {"type": "invalid_request_error", "message": "Invalid API Key"}},
            ),
            listed([]),
        ]
    )
    respx.get(REFUNDS).mock(return_value=listed([]))

    services.connection_backfill(connection_id=shop.connection.pk)
    connection = Connection.objects.get(pk=shop.connection.pk)
    assert (connection.state, connection.last_error) == (
        "failing",
        "Stripe refused the credential.",
    )
    assert connection.backfill_finished_at is None

    services.connection_backfill(connection_id=shop.connection.pk)
    connection.refresh_from_db()
    assert connection.state == "connected"
    assert connection.backfill_finished_at is not None


def test_a_disconnected_connection_is_not_backfilled(shop):
    services.connection_disconnect(connection=shop.connection, actor=SYSTEM)
    with respx.mock(assert_all_called=False) as mock:
        connection = services.connection_backfill(connection_id=shop.connection.pk)
        assert connection.state == "disconnected"
        assert mock.calls.call_count == 0
