"""An owner connects Stripe, a payment Stripe sends cannot be placed and is held, the owner
assigns it to a sale and it leaves the held list."""

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

import integrations.tasks  # noqa: F401 - registers the apply task the webhook sends
from integrations import connections
from integrations.models import Connection, Event
from tests.conftest import aware
from workspaces.models import Payment
from workspaces.services import lead_upsert, sale_upsert

from .conftest import PHONE, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECRET_KEY = "sk_test_" + "Nw7dPq2Lr9Xk" * 3
WEBHOOK_SECRET = "whsec_" + "b64Sig9Secret" * 3


@pytest.fixture
def team(make_workspace, make_member, make_user, settings, live_server, monkeypatch):
    # The webhook URL the page shows is the live server's, so the test can post to it.
    settings.BASE_URL = live_server.url
    # Nothing here reaches Stripe: the backfill that a new connection starts is not sent.
    monkeypatch.setattr(connections, "backfill_enqueue", lambda connection_id: None)
    workspace = make_workspace(name="Northwind Sales", currency="USD")
    owner = make_member(workspace, "owner", name="Olive Owner", user=False)
    owner.user = make_user("olive@northwind.test")
    owner.email = "olive@northwind.test"
    owner.save()
    lead, _ = lead_upsert(
        workspace=workspace,
        external_id="lead-ada",
        name="Ada Byron",
        email="ada@northwind-client.test",
        created_at=aware("2026-02-01 10:00"),
    )
    sale, _ = sale_upsert(
        workspace=workspace,
        external_id="sale-ada",
        lead=lead,
        closed_at=aware("2026-02-20 15:00"),
        contract_value=300000,
    )
    return workspace, owner, sale


def stripe_delivery(url: str, secret: str, event: dict) -> tuple[int, dict]:
    """POST an event signed as Stripe signs it: HMAC-SHA256 of "timestamp.body"."""
    body = json.dumps(event).encode()
    timestamp = str(int(time.time()))
    signature = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Stripe-Signature": f"t={timestamp},v1={signature.hexdigest()}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_connect_stripe_then_assign_a_held_payment(page, live_server, team):
    workspace, owner, sale = team
    integrations_url = f"/settings/{workspace.pk}/integrations/"
    page.goto(integrations_url)
    sign_in(page, owner.email)
    assert urlsplit(page.url).path == integrations_url
    assert page.is_visible("#no-connections")

    page.click("#connect-stripe")
    webhook_url = page.text_content("#webhook-url").strip()
    assert webhook_url.startswith(f"{live_server.url}/hooks/stripe/")
    page.fill("input[name=secret_key]", SECRET_KEY)
    page.fill("input[name=webhook_secret]", WEBHOOK_SECRET)
    page.click("#connect-submit")
    assert urlsplit(page.url).path == integrations_url
    connection = Connection.objects.get()
    assert webhook_url == f"{live_server.url}/hooks/stripe/{connection.pk}"
    section = f"#connection-{connection.pk}"
    assert page.text_content(f"{section} .webhook-url").strip() == webhook_url
    assert page.text_content(f"{section} .state").strip() == "Connected"
    assert SECRET_KEY not in page.content() and WEBHOOK_SECRET not in page.content()
    shot(page, "integrations.png")

    # Stripe sends a payment whose email matches no lead: it is held.
    charge = {
        "id": "ch_3PaidByCard",
        "object": "charge",
        "amount": 125000,
        "currency": "usd",
        "status": "succeeded",
        "created": int(aware("2026-03-02 14:30").timestamp()),
        "billing_details": {"email": "ada.byron@personal.test"},
        "refunds": {"object": "list", "data": []},
    }
    status, answer = stripe_delivery(
        webhook_url,
        WEBHOOK_SECRET,
        {
            "id": "evt_1HeldPayment",
            "object": "event",
            "type": "charge.succeeded",
            "created": charge["created"] + 2,
            "data": {"object": charge},
        },
    )
    assert (status, answer) == (200, {"received": True})
    event = Event.objects.get()
    assert (event.state, event.hold_code) == ("held", "no_lead")

    page.reload()
    held = f"#event-{event.pk}"
    assert page.text_content("#held-count").strip() == "1"
    assert page.text_content(f"{held} .held-amount").strip() == "$1,250.00"
    assert page.text_content(f"{held} .held-email").strip() == "ada.byron@personal.test"
    assert "No lead has the charge's email ada.byron@personal.test." in page.text_content(
        f"{held} .held-reason"
    )
    assert page.text_content(f"{section} .events-received").strip() == "1"
    assert page.text_content(f"{section} .events-held").strip() == "1"
    page.locator(held).scroll_into_view_if_needed()
    shot(page, "integrations-held.png")

    page.select_option(f"select[name=event-{event.pk}-sale]", str(sale.pk))
    page.click(f"#assign-{event.pk}")
    assert urlsplit(page.url).path == integrations_url
    assert page.query_selector(held) is None
    assert page.is_visible("#no-held")
    assert page.text_content("#held-count").strip() == "0"
    assert page.text_content(f"{section} .events-applied").strip() == "1"
    assert page.text_content(f"{section} .events-held").strip() == "0"
    payment = Payment.objects.get(external_id="ch_3PaidByCard")
    assert (payment.sale_id, payment.amount) == (sale.pk, 125000)

    # Usable on a phone: nothing wider than the screen, the connect page included.
    page.set_viewport_size(PHONE)
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_navigation():
        page.click("#connect-stripe")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
