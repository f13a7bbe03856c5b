"""Held Stripe events: why they are held, the note on /payments and /commission, and
assigning or dismissing them."""

import pytest

from audit.models import AuditEvent
from audit.services import Actor
from core.errors import InvalidField
from integrations import services
from integrations.models import Connection, Event
from integrations.selectors import held_count
from workspaces.models import Lead, Payment, Refund, Sale

from .conftest import charge, event, refund, utc

pytestmark = pytest.mark.django_db

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
OWNER = Actor(kind="member", id="m1", label="owner@example.test")


@pytest.fixture
def held(shop, deliver):
    """A charge in euros, one whose email is no lead's, one of a lead without an unpaid
    sale, and a refund of the second (waiting for it)."""
    paid_up = Lead.objects.create(
        workspace=shop.ws, email="done@example.test", created_at=utc("2026-02-01 09:00")
    )
    Sale.objects.create(
        workspace=shop.ws, lead=paid_up, closed_at=utc("2026-02-02 09:00"), contract_value=0
    )
    for payload in (
        event(
            "evt_eur",
            "charge.succeeded",
            charge("ch_eur", 10000, "2026-03-03 10:00", email="pat@example.test", currency="eur"),
            "2026-03-03 10:00",
        ),
        event(
            "evt_who",
            "charge.succeeded",
            charge("ch_who", 20000, "2026-03-04 10:00", email="nobody@example.test"),
            "2026-03-04 10:00",
        ),
        event(
            "evt_done",
            "charge.succeeded",
            charge("ch_done", 30000, "2026-03-05 10:00", email="done@example.test"),
            "2026-03-05 10:00",
        ),
        event(
            "evt_ref",
            "refund.created",
            refund("re_who", "ch_who", 5000, "2026-03-06 10:00"),
            "2026-03-06 10:00",
        ),
    ):
        assert deliver(shop.connection, payload).status_code == 200
    return {e.event_id: e for e in Event.objects.all()}


def _note(body):
    return [note for note in body["notes"] if note["code"] == "unplaced-events"]


def test_why_each_is_held(held, shop):
    assert {key: (e.state, e.hold_code, e.hold_reason) for key, e in held.items()} == {
        "evt_eur": ("held", "currency", "The charge is in EUR; the workspace counts in USD."),
        "evt_who": ("held", "no_lead", "No lead has the charge's email nobody@example.test."),
        "evt_done": (
            "held",
            "no_sale",
            "The lead with the email done@example.test has no sale with an unpaid balance.",
        ),
        "evt_ref": (
            "held",
            "waiting",
            "The refund's charge ch_who has not arrived or is not placed yet.",
        ),
    }
    assert Payment.objects.count() == 0
    connection = Connection.objects.get()
    assert (connection.events_received, connection.events_applied, connection.events_held) == (
        4,
        0,
        4,
    )


def test_the_figures_carry_a_note_counting_them(held, shop):
    # Three charges; the refund waits for one of them and is counted with it.
    reason = (
        "3 Stripe payments or refunds in this period are held and left out of these figures: "
        "they could not be placed on a sale. Assign or dismiss them on the Integrations page."
    )
    for path in ("/api/v1/payments", "/api/v1/commission"):
        body = shop.reader.get(path, MARCH).json()
        assert _note(body) == [{"subject": "stripe", "code": "unplaced-events", "reason": reason}]
        # Another period has none.
        assert _note(shop.reader.get(path, {"from": "2026-04-01", "to": "2026-04-30"}).json()) == []
    assert (
        held_count(
            workspace=shop.ws,
            provider="stripe",
            start=utc("2026-03-04 00:00"),
            end=utc("2026-03-05 00:00"),
        )
        == 1
    )


def test_assigning_places_the_payment_and_releases_its_refund(held, shop, committed):
    with committed():
        services.event_assign(event=held["evt_who"], sale=shop.sale, actor=OWNER)
    states = dict(Event.objects.values_list("event_id", "state"))
    assert states == {
        "evt_eur": "held",
        "evt_who": "applied",
        "evt_done": "held",
        "evt_ref": "applied",
    }
    assert list(Payment.objects.values_list("external_id", "sale_id", "amount")) == [
        ("ch_who", shop.sale.pk, 20000)
    ]
    assert list(Refund.objects.values_list("external_id", "amount")) == [("re_who", 5000)]
    audit = AuditEvent.objects.get(action="integration.event_assigned")
    assert (audit.actor_kind, audit.actor_label, audit.detail["records"]) == (
        "member",
        "owner@example.test",
        ["ch_who"],
    )
    body = shop.reader.get("/api/v1/payments", MARCH).json()
    assert body["data"]["cash_collected"]["value"] == 200
    assert body["data"]["refunded"]["value"] == 50
    assert _note(body)[0]["reason"].startswith("2 Stripe payments or refunds")
    connection = Connection.objects.get()
    assert (connection.events_applied, connection.events_held) == (2, 2)


def test_a_payment_in_another_currency_cannot_be_assigned(held, shop):
    with pytest.raises(InvalidField) as refused:
        services.event_assign(event=held["evt_eur"], sale=shop.sale, actor=OWNER)
    assert refused.value.extra == {"field": "sale"}
    assert Event.objects.get(event_id="evt_eur").state == "held"
    assert Payment.objects.count() == 0


def test_dismissing_takes_the_events_waiting_for_it(held, shop):
    services.event_dismiss(event=held["evt_who"], actor=OWNER)
    services.event_dismiss(event=held["evt_eur"], actor=OWNER)
    states = dict(Event.objects.values_list("event_id", "state"))
    assert states == {
        "evt_eur": "dismissed",
        "evt_who": "dismissed",
        "evt_done": "held",
        "evt_ref": "dismissed",
    }
    assert AuditEvent.objects.filter(action="integration.event_dismissed").count() == 3
    body = shop.reader.get("/api/v1/commission", MARCH).json()
    assert _note(body)[0]["reason"].startswith("1 Stripe payment or refund in this period is")
    assert Connection.objects.get().events_held == 1
    # A dismissed event is final: applying it again changes nothing.
    services.event_apply(event_id=held["evt_who"].pk)
    assert Event.objects.get(event_id="evt_who").state == "dismissed"
    with pytest.raises(InvalidField):
        services.event_dismiss(event=held["evt_who"], actor=OWNER)


def test_a_charge_held_makes_its_later_events_wait_for_it(held, shop, deliver, committed):
    refunded = event(
        "evt_who2",
        "charge.refunded",
        charge(
            "ch_who",
            20000,
            "2026-03-04 10:00",
            email="nobody@example.test",
            refunds=[refund("re_who", "ch_who", 5000, "2026-03-06 10:00")],
        ),
        "2026-03-06 10:01",
    )
    deliver(shop.connection, refunded)
    waiting = Event.objects.get(event_id="evt_who2")
    assert (waiting.state, waiting.hold_code, waiting.waits_for) == ("held", "waiting", "ch_who")
    with committed():
        services.event_assign(event=held["evt_who"], sale=shop.sale, actor=OWNER)
    assert Event.objects.get(event_id="evt_who2").state == "applied"
    assert list(Payment.objects.values_list("external_id", "amount")) == [("ch_who", 20000)]
    assert list(Refund.objects.values_list("external_id", "amount")) == [("re_who", 5000)]
