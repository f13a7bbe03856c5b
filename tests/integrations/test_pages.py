"""The workspace settings page Integrations: connections, connect, disconnect, held events."""

import re
from datetime import UTC, datetime
from html import unescape

import pytest

from audit.models import AuditEvent
from audit.services import Actor
from integrations import services
from integrations.models import Connection, Event
from tests.conftest import aware
from tests.tokens.conftest import browser_client, hidden_fields
from workspaces.models import Payment
from workspaces.services import lead_upsert, payment_upsert, sale_upsert

pytestmark = pytest.mark.django_db

BASE_URL = "https://figures.example.test"
SECRET_KEY = "sk_test_" + "a1B2c3D4" * 4
WEBHOOK_SECRET = "whsec_" + "Z9y8X7w6" * 4
WEBHOOK_URL = re.compile(
    r'<code id="webhook-url">(https://figures\.example\.test/hooks/stripe/[0-9a-f-]{36})</code>'
)


@pytest.fixture(autouse=True)
def _base_url(settings):
    settings.BASE_URL = BASE_URL


@pytest.fixture
def team(make_workspace, make_member):
    workspace = make_workspace(name="Northwind Sales", currency="USD")
    members = {
        role: make_member(workspace, role) for role in ("owner", "admin", "manager", "closer")
    }
    other = make_workspace(name="Elsewhere")
    members["outsider"] = make_member(other, "owner")
    return {"workspace": workspace, **members}


def client_for(member):
    client = browser_client()
    client.force_login(member.user)
    return client


def page_url(workspace):
    return f"/settings/{workspace.pk}/integrations/"


def connect_url(workspace, provider="stripe"):
    return f"/settings/{workspace.pk}/integrations/connect/{provider}/"


def text_of(response) -> str:
    return unescape(response.content.decode())


def form_fields(client, url, form_id=None) -> dict:
    return hidden_fields(client.get(url).content.decode(), form_id)


OWNER = "owner@example.test"


def make_connection(workspace, **counters) -> Connection:
    connection = services.connection_create(
        workspace=workspace,
        provider="stripe",
        credentials={"secret_key": SECRET_KEY, "webhook_secret": WEBHOOK_SECRET},
        actor=Actor(kind="user", id="1", label=OWNER),
    )
    if counters:
        Connection.objects.filter(pk=connection.pk).update(**counters)
        connection.refresh_from_db()
    return connection


def held_charge(connection, *, n=1, email="buyer@example.test", amount=50000, code="no_lead"):
    """A held charge.succeeded event, as the worker leaves it."""
    charge = {
        "id": f"ch_{n}",
        "object": "charge",
        "amount": amount,
        "currency": "usd",
        "status": "succeeded",
        "created": 1772355600,  # 2026-03-01 09:00 UTC
        "billing_details": {"email": email},
        "refunds": {"data": []},
    }
    return Event.objects.create(
        connection=connection,
        workspace=connection.workspace,
        provider="stripe",
        event_id=f"evt_{n}",
        event_type="charge.succeeded",
        object_id=charge["id"],
        payload={
            "id": f"evt_{n}",
            "type": "charge.succeeded",
            "created": 1772355601,
            "data": {"object": charge},
        },
        occurred_at=datetime(2026, 3, 1, 9, 0, tzinfo=UTC),
        state=Event.State.HELD,
        hold_code=code,
        hold_reason=f"No lead has the charge's email {email}.",
    )


def unpaid_sale(workspace, *, email="ada@example.test", name="Ada Byron", value=200000, paid=0):
    lead, _ = lead_upsert(
        workspace=workspace,
        external_id=f"lead-{email}",
        email=email,
        name=name,
        created_at=aware("2026-02-01 10:00"),
    )
    sale, _ = sale_upsert(
        workspace=workspace,
        external_id=f"sale-{email}",
        lead=lead,
        closed_at=aware("2026-02-20 15:00"),
        contract_value=value,
    )
    if paid:
        payment_upsert(
            workspace=workspace,
            external_id=f"pay-{email}",
            sale=sale,
            paid_at=aware("2026-02-21 10:00"),
            amount=paid,
        )
        sale.refresh_from_db()
    return sale


# --- Access ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "page", "connect"),
    [
        ("owner", 200, 200),
        ("admin", 200, 200),
        ("manager", 200, 403),
        ("closer", 403, 403),
        ("outsider", 404, 404),
    ],
)
def test_who_sees_the_page_and_who_connects(team, who, page, connect):
    client = client_for(team[who])
    assert client.get(page_url(team["workspace"])).status_code == page
    assert client.get(connect_url(team["workspace"])).status_code == connect


def test_anonymous_is_sent_to_sign_in(team):
    url = page_url(team["workspace"])
    response = browser_client().get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_an_unknown_workspace_or_provider_is_404(team):
    client = client_for(team["owner"])
    assert client.get(connect_url(team["workspace"], "paypal")).status_code == 404
    assert (
        client.get("/settings/00000000-0000-0000-0000-000000000000/integrations/").status_code
        == 404
    )


def test_the_closer_is_told_whom_to_ask(team):
    response = client_for(team["closer"]).get(page_url(team["workspace"]))
    assert response.status_code == 403
    assert (
        "Only an owner, admin or manager of Northwind Sales sees its integrations; your role is "
        "closer. Ask an owner or admin."
    ) in text_of(response)
    connect = client_for(team["manager"]).get(connect_url(team["workspace"]))
    assert (
        "Only an owner or admin of Northwind Sales connects its integrations; your role is "
        "manager. Ask an owner or admin."
    ) in text_of(connect)


def test_the_manager_sees_held_events_but_no_connect_or_disconnect(team):
    connection = make_connection(team["workspace"])
    event = held_charge(connection)
    html = text_of(client_for(team["manager"]).get(page_url(team["workspace"])))
    assert f'id="event-{event.pk}"' in html
    assert f'id="assign-{event.pk}"' in html
    assert f'id="dismiss-{event.pk}"' in html
    assert 'id="connect-stripe"' not in html
    assert "Disconnect…" not in html
    response = client_for(team["manager"]).get(
        f"/settings/{team['workspace'].pk}/integrations/{connection.pk}/disconnect/"
    )
    assert response.status_code == 403
    assert Connection.objects.get().state == "connected"


# --- Connect ----------------------------------------------------------------------------


def test_the_connect_page_shows_the_webhook_url_before_the_webhook_secret(team):
    client = client_for(team["owner"])
    html = text_of(client.get(connect_url(team["workspace"])))
    url = WEBHOOK_URL.search(html).group(1)
    assert html.index('name="secret_key"') < html.index(url) < html.index('name="webhook_secret"')
    assert 'type="password" name="secret_key"' in html
    assert 'type="password" name="webhook_secret"' in html
    assert "Stripe dashboard → Developers → Webhooks → Add endpoint" in html
    # Nothing is stored until the form is sent.
    assert Connection.objects.count() == 0


def test_connect_with_a_bad_credential_names_the_field_and_stores_nothing(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    page = client.get(url)
    shown = WEBHOOK_URL.search(text_of(page)).group(1)
    fields = hidden_fields(page.content.decode(), "connect-form")
    response = client.post(
        url, {**fields, "secret_key": "pk_test_not-a-secret", "webhook_secret": WEBHOOK_SECRET}
    )
    assert response.status_code == 400
    html = text_of(response)
    assert (
        "This does not look like a Stripe secret or restricted key: it starts with sk_live_, "
        "sk_test_, rk_live_ or rk_test_ followed by at least 24 letters and digits."
    ) in html
    # The same webhook URL: the one already pasted at Stripe stays good.
    assert WEBHOOK_URL.search(html).group(1) == shown
    # What was typed in a secret field is not sent back.
    assert "pk_test_not-a-secret" not in html
    assert WEBHOOK_SECRET not in html
    assert Connection.objects.count() == 0
    assert not AuditEvent.objects.filter(action="integration.connected").exists()


def test_a_refused_form_keeps_what_is_not_secret_and_drops_what_is(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"], "zoom")
    fields = form_fields(client, url, "connect-form")
    response = client.post(
        url,
        {
            **fields,
            "account_id": "acct-Northwind01",
            "client_id": "client-Northwind01",
            "client_secret": "short",
            "webhook_secret_token": "Tok3nTok3nTok3nTok3n",
        },
    )
    assert response.status_code == 400
    html = text_of(response)
    assert "This does not look like a Zoom client secret: 16 to 128 letters and digits." in html
    assert 'value="acct-Northwind01"' in html and 'value="client-Northwind01"' in html
    assert 'type="password" name="client_secret"' in html
    assert "Tok3nTok3nTok3nTok3n" not in html
    assert Connection.objects.count() == 0


def test_connect_with_a_missing_field_names_it(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    fields = form_fields(client, url, "connect-form")
    response = client.post(url, {**fields, "secret_key": SECRET_KEY, "webhook_secret": ""})
    assert response.status_code == 400
    assert "Enter the Stripe webhook signing secret." in text_of(response)
    assert Connection.objects.count() == 0


def test_connect_stores_the_connection_under_the_url_shown(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    page = client.get(url)
    shown = WEBHOOK_URL.search(text_of(page)).group(1)
    fields = hidden_fields(page.content.decode(), "connect-form")
    response = client.post(
        url, {**fields, "secret_key": f"  {SECRET_KEY} ", "webhook_secret": WEBHOOK_SECRET}
    )
    connection = Connection.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(team['workspace'])}#connection-{connection.pk}"
    assert shown == f"{BASE_URL}/hooks/stripe/{connection.pk}"
    assert (connection.workspace, connection.provider, connection.state) == (
        team["workspace"],
        "stripe",
        "connected",
    )
    assert services.connection_credentials(connection) == {"secret_key": SECRET_KEY}
    assert services.connection_signing_secret(connection) == WEBHOOK_SECRET
    audit = AuditEvent.objects.get(action="integration.connected")
    assert audit.target_id == str(connection.pk)

    html = text_of(client.get(page_url(team["workspace"])))
    # Saved, not "connected": the page's state of the connection says how its calls went.
    assert (
        f"Stripe's credentials are saved; its last 90 days are being read. Its webhook URL "
        f"is {shown}"
    ) in html
    assert 'class="ok"' not in html
    assert f'<code class="webhook-url">{shown}</code>' in html
    assert SECRET_KEY not in html and WEBHOOK_SECRET not in html
    # Sent twice (a double click): one connection.
    again = client.post(url, {**fields, "secret_key": SECRET_KEY, "webhook_secret": WEBHOOK_SECRET})
    assert again.status_code == 302
    assert Connection.objects.count() == 1


def test_a_changed_connection_id_is_refused_with_a_new_url(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    fields = form_fields(client, url, "connect-form")
    signed = fields["connection"]
    forged = {**fields, "connection": signed[:-1] + ("y" if signed[-1] == "x" else "x")}
    response = client.post(
        url, {**forged, "secret_key": SECRET_KEY, "webhook_secret": WEBHOOK_SECRET}
    )
    assert response.status_code == 400
    assert "This form is more than a day old or was changed." in text_of(response)
    assert Connection.objects.count() == 0


def test_connecting_a_connected_provider_again_replaces_its_credentials_on_its_url(team):
    first = make_connection(
        team["workspace"],
        state="failing",
        last_error="Stripe refused the key: Invalid API Key provided.",
        last_error_kind="refused",
        last_error_at=datetime(2026, 3, 2, 8, 20, tzinfo=UTC),
    )
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    page = client.get(url)
    html = text_of(page)
    assert WEBHOOK_URL.search(html).group(1) == f"{BASE_URL}/hooks/stripe/{first.pk}"
    state = re.search(r'<div class="current-state"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert " ".join(re.sub(r"<[^>]+>", " ", state).split()) == (
        "Failing Stripe refused the key: paste a new restricted key. This workspace has one "
        "Stripe connection: what you enter here replaces its credentials. Its webhook URL "
        "stays the one below, already pasted at Stripe."
    )
    assert 'id="connect-submit">Replace the credentials</button>' in html
    new_key = "rk_test_" + "N" * 24
    fields = hidden_fields(page.content.decode(), "connect-form")
    response = client.post(url, {**fields, "secret_key": new_key, "webhook_secret": WEBHOOK_SECRET})
    assert response.status_code == 302
    (connection,) = Connection.objects.all()
    assert (connection.pk, connection.state) == (first.pk, "connected")
    assert services.connection_credentials(connection) == {"secret_key": new_key}
    assert AuditEvent.objects.filter(action="integration.credentials_replaced").count() == 1
    listed = text_of(client.get(page_url(team["workspace"])))
    assert "Stripe's new credentials are saved; its last 90 days are being read." in listed
    assert (
        '<span class="state state-connected" title="Stripe is connected.">Connected</span>'
    ) in listed


def test_a_form_for_a_url_another_connect_replaced_says_which_url_to_paste(team):
    client = client_for(team["owner"])
    url = connect_url(team["workspace"])
    fields = form_fields(client, url, "connect-form")
    # Meanwhile, someone else connects Stripe.
    other = make_connection(team["workspace"])
    response = client.post(
        url, {**fields, "secret_key": SECRET_KEY, "webhook_secret": WEBHOOK_SECRET}
    )
    assert response.status_code == 400
    html = text_of(response).replace("&#x27;", "'")
    assert (
        f"Stripe was connected to this workspace meanwhile: its webhook URL is "
        f"{BASE_URL}/hooks/stripe/{other.pk}. Paste that URL at Stripe"
    ) in html
    assert WEBHOOK_URL.search(html).group(1) == f"{BASE_URL}/hooks/stripe/{other.pk}"
    assert Connection.objects.count() == 1


# --- The list and disconnect -------------------------------------------------------------


def test_the_page_shows_each_connection_with_exact_counters(team, django_assert_max_num_queries):
    # Another account, disconnected since: its held event is still listed.
    old = make_connection(team["workspace"], events_received=1, events_held=1)
    services.connection_disconnect(connection=old, actor=Actor(kind="user", id="1", label=OWNER))
    failing = make_connection(
        team["workspace"],
        events_received=7,
        events_applied=4,
        events_held=2,
        events_refused=1,
        last_event_at=datetime(2026, 3, 2, 8, 15, tzinfo=UTC),
        state="failing",
        last_error="Stripe refused the key: Invalid API Key provided.",
        last_error_kind="refused",
        last_error_at=datetime(2026, 3, 2, 8, 20, tzinfo=UTC),
    )
    held_charge(failing, n=1)
    held_charge(failing, n=2, email="", amount=129900)
    held_charge(old, n=3, amount=990)
    unpaid_sale(team["workspace"])
    unpaid_sale(team["workspace"], email="bo@example.test", name="Bo")
    client = client_for(team["owner"])
    # As many queries whatever the number of connections, events and sales (and two for the
    # navigation: the person's workspaces and agencies).
    with django_assert_max_num_queries(10):
        response = client.get(page_url(team["workspace"]))
    html = text_of(response)
    assert html.index(f'id="connection-{failing.pk}"') < html.index(f'id="connection-{old.pk}"')
    assert '<span class="tag" id="held-count">3</span>' in html
    assert '<span class="held-amount">$9.90</span>' in html
    section = html[html.index(f'id="connection-{failing.pk}"') :]
    assert (
        '<span class="state state-failing" title="Stripe refused the key: paste a new '
        'restricted key.">Failing</span>'
    ) in section
    # The trouble in a sentence with the next step, never the provider's raw message.
    assert (
        '<p class="failing failure-sentence" data-kind="refused">Stripe refused the key: paste '
        "a new restricted key.</p>"
    ) in section
    assert "Invalid API Key" not in html
    assert "Failing since 2 Mar 2026, 08:20; its webhooks are still accepted." in section
    assert f'id="retry-{failing.pk}">Retry</button>' in section
    assert '<dd class="last-event">2 Mar 2026, 08:15</dd>' in section
    assert '<dd class="events-received">7</dd>' in section
    assert '<dd class="events-applied">4</dd>' in section
    assert '<dd class="events-held">2</dd>' in section
    assert '<dd class="events-refused">1</dd>' in section
    assert f'<code class="webhook-url">{BASE_URL}/hooks/stripe/{failing.pk}</code>' in section
    assert '<span class="held-amount">$500.00</span>' in html
    assert '<span class="held-email">buyer@example.test</span>' in html
    assert '<span class="held-amount">$1,299.00</span>' in html
    assert "No lead has the charge&#x27;s email buyer@example.test." in response.content.decode()


def test_a_new_connection_shows_zero_counters_and_no_event_yet(team):
    make_connection(team["workspace"])
    html = text_of(client_for(team["admin"]).get(page_url(team["workspace"])))
    assert '<dd class="last-event">none yet</dd>' in html
    for counter in ("received", "applied", "held", "refused"):
        assert f'<dd class="events-{counter}">0</dd>' in html
    assert 'id="no-held"' in html


def test_disconnect_asks_first_then_disconnects(team):
    connection = make_connection(team["workspace"])
    client = client_for(team["admin"])
    url = f"/settings/{team['workspace'].pk}/integrations/{connection.pk}/disconnect/"
    confirm = client.get(url)
    assert confirm.status_code == 200
    assert "Disconnect Stripe?" in text_of(confirm)
    assert Connection.objects.get().state == "connected"

    fields = hidden_fields(confirm.content.decode())
    response = client.post(url, fields)
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(team['workspace'])}#connection-{connection.pk}"
    connection.refresh_from_db()
    assert connection.state == "disconnected"
    assert (
        AuditEvent.objects.filter(
            action="integration.disconnected", target_id=str(connection.pk)
        ).count()
        == 1
    )
    html = text_of(client.get(page_url(team["workspace"])))
    assert "Stripe is disconnected: its webhooks are refused from now on." in html
    assert (
        '<span class="state state-disconnected" title="Stripe is disconnected: its webhooks '
        'are refused.">Disconnected</span>'
    ) in html
    assert "/hooks/stripe/" not in html
    assert "Disconnect…" not in html


def test_disconnect_of_another_workspaces_connection_is_404(team):
    connection = make_connection(team["outsider"].workspace)
    client = client_for(team["owner"])
    url = f"/settings/{team['workspace'].pk}/integrations/{connection.pk}/disconnect/"
    fields = form_fields(client, page_url(team["workspace"]))
    assert client.post(url, fields).status_code == 404
    assert Connection.objects.get().state == "connected"


# --- Held events -----------------------------------------------------------------------


def assign_url(workspace, event):
    return f"/settings/{workspace.pk}/integrations/events/{event.pk}/assign"


def dismiss_url(workspace, event):
    return f"/settings/{workspace.pk}/integrations/events/{event.pk}/dismiss"


def test_the_assign_select_offers_the_sales_with_an_unpaid_balance(team):
    connection = make_connection(team["workspace"])
    event = held_charge(connection)
    open_sale = unpaid_sale(team["workspace"], value=200000, paid=50000)
    unpaid_sale(team["workspace"], email="paid@example.test", name="Paid Up", value=1000, paid=1000)
    html = client_for(team["manager"]).get(page_url(team["workspace"])).content.decode()
    options = re.findall(rf'<select name="event-{event.pk}-sale"[^>]*>(.*?)</select>', html, re.S)[
        0
    ]
    found = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', options)
    assert [(value, unescape(label)) for value, label in found] == [
        ("", "Choose a sale…"),
        (
            str(open_sale.pk),
            "Ada Byron <ada@example.test> · closed 20 Feb 2026 · $1,500.00 unpaid",
        ),
    ]


@pytest.mark.parametrize("how", ["select", "sale id"])
def test_a_manager_assigns_a_held_charge_to_a_sale(team, how):
    connection = make_connection(team["workspace"], events_received=1, events_held=1)
    event = held_charge(connection)
    sale = unpaid_sale(team["workspace"])
    client = client_for(team["manager"])
    fields = form_fields(client, page_url(team["workspace"]), None)
    chosen = (
        {f"event-{event.pk}-sale": str(sale.pk)}
        if how == "select"
        else {f"event-{event.pk}-sale_id": str(sale.pk)}
    )
    response = client.post(
        assign_url(team["workspace"], event),
        {"csrfmiddlewaretoken": fields["csrfmiddlewaretoken"], **chosen},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(team['workspace'])}#held"
    event.refresh_from_db()
    assert (event.state, event.assigned_sale_id) == ("applied", sale.pk)
    payment = Payment.objects.get(external_id="ch_1")
    assert (payment.sale_id, payment.amount, payment.status) == (sale.pk, 50000, "succeeded")
    connection.refresh_from_db()
    assert (connection.events_held, connection.events_applied) == (0, 1)
    audit = AuditEvent.objects.get(action="integration.event_assigned")
    assert audit.actor_label == team["manager"].user.email
    html = text_of(client.get(page_url(team["workspace"])))
    assert (
        "The charge.succeeded event ($500.00 of buyer@example.test) is assigned to the sale."
    ) in html
    assert f'id="event-{event.pk}"' not in html
    assert '<span class="tag" id="held-count">0</span>' in html


def test_assigning_to_an_unknown_sale_names_the_field_and_changes_nothing(team):
    connection = make_connection(team["workspace"], events_held=1)
    event = held_charge(connection)
    elsewhere = unpaid_sale(team["outsider"].workspace)
    client = client_for(team["owner"])
    fields = form_fields(client, page_url(team["workspace"]))
    response = client.post(
        assign_url(team["workspace"], event),
        {
            "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
            f"event-{event.pk}-sale_id": str(elsewhere.pk),
        },
    )
    assert response.status_code == 400
    html = text_of(response)
    errors = html[html.index(f'id="event-{event.pk}"') :]
    assert "No sale of this workspace has that id." in errors
    assert Event.objects.get().state == "held"
    assert Payment.objects.count() == 0
    assert not AuditEvent.objects.filter(action="integration.event_assigned").exists()


def test_assigning_without_a_sale_asks_for_one(team):
    connection = make_connection(team["workspace"])
    event = held_charge(connection)
    client = client_for(team["owner"])
    fields = form_fields(client, page_url(team["workspace"]))
    response = client.post(
        assign_url(team["workspace"], event),
        {"csrfmiddlewaretoken": fields["csrfmiddlewaretoken"]},
    )
    assert response.status_code == 400
    assert "Choose a sale or enter a sale id." in text_of(response)
    assert Event.objects.get().state == "held"


def test_a_charge_in_another_currency_cannot_be_assigned(team):
    connection = make_connection(team["workspace"])
    event = held_charge(connection, code="currency")
    Event.objects.filter(pk=event.pk).update(
        payload={
            **event.payload,
            "data": {"object": {**event.payload["data"]["object"], "currency": "eur"}},
        },
    )
    sale = unpaid_sale(team["workspace"])
    client = client_for(team["owner"])
    fields = form_fields(client, page_url(team["workspace"]))
    response = client.post(
        assign_url(team["workspace"], event),
        {
            "csrfmiddlewaretoken": fields["csrfmiddlewaretoken"],
            f"event-{event.pk}-sale": str(sale.pk),
        },
    )
    assert response.status_code == 400
    assert (
        "A payment in another currency cannot be placed on a sale of this workspace; dismiss "
        "it instead."
    ) in text_of(response)
    assert Event.objects.get().state == "held"
    assert Payment.objects.count() == 0


def test_a_manager_dismisses_a_held_event(team):
    connection = make_connection(team["workspace"], events_received=1, events_held=1)
    event = held_charge(connection)
    client = client_for(team["manager"])
    fields = form_fields(client, page_url(team["workspace"]))
    response = client.post(dismiss_url(team["workspace"], event), fields)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.state == "dismissed"
    connection.refresh_from_db()
    assert (connection.events_held, connection.events_applied) == (0, 0)
    assert (
        AuditEvent.objects.filter(
            action="integration.event_dismissed", target_id=str(event.pk)
        ).count()
        == 1
    )
    html = text_of(client.get(page_url(team["workspace"])))
    assert "The charge.succeeded event is dismissed." in html
    assert 'id="no-held"' in html
    # Dismissed already: a second click changes nothing and says so.
    again = client.post(dismiss_url(team["workspace"], event), fields)
    assert again.status_code == 302
    assert "That event is no longer held: it is dismissed." in text_of(
        client.get(page_url(team["workspace"]))
    )
    assert AuditEvent.objects.filter(action="integration.event_dismissed").count() == 1


@pytest.mark.parametrize(("who", "status"), [("closer", 403), ("outsider", 404)])
def test_who_may_not_assign_or_dismiss(team, who, status):
    connection = make_connection(team["workspace"])
    event = held_charge(connection)
    sale = unpaid_sale(team["workspace"])
    client = client_for(team[who])
    # The sign-out form's token, on a page of the person's own.
    fields = form_fields(client, page_url(team[who].workspace))
    assert (
        client.post(
            assign_url(team["workspace"], event),
            {**fields, f"event-{event.pk}-sale": str(sale.pk)},
        ).status_code
        == status
    )
    assert client.post(dismiss_url(team["workspace"], event), fields).status_code == status
    assert Event.objects.get().state == "held"
    assert Payment.objects.count() == 0


def test_assign_and_dismiss_answer_only_post(team):
    connection = make_connection(team["workspace"])
    event = held_charge(connection)
    client = client_for(team["owner"])
    assert client.get(assign_url(team["workspace"], event)).status_code == 405
    assert client.get(dismiss_url(team["workspace"], event)).status_code == 405
    fields = form_fields(client, page_url(team["workspace"]))
    assert client.post(page_url(team["workspace"]), fields).status_code == 405


def test_the_page_shows_the_connect_card_once_after_the_held_events(team):
    html = text_of(client_for(team["owner"]).get(page_url(team["workspace"])))
    assert "<title>Integrations · Northwind Sales · Sales Figures</title>" in html
    assert html.count('id="connect"') == 1
    assert html.count('id="connect-stripe"') == 1
    assert html.index('id="held"') < html.index('id="connect"') < html.index("</main>")


@pytest.mark.parametrize(
    ("who", "links"),
    [
        ("owner", ["UTM properties…", "Webinars and their pitch times…"]),
        ("manager", ["Webinars and their pitch times…"]),
    ],
)
def test_hubspot_and_zoom_connections_link_to_their_own_settings(team, who, links):
    ws = team["workspace"]
    hubspot = Connection.objects.create(
        workspace=ws, provider="hubspot", credentials_encrypted=b"x", created_by=OWNER
    )
    Connection.objects.create(
        workspace=ws, provider="zoom", credentials_encrypted=b"x", created_by=OWNER
    )
    html = client_for(team[who]).get(page_url(ws)).content.decode()
    assert re.findall(r'<a class="options" href="[^"]+">([^<]+)</a>', html) == links
    if who == "owner":
        assert f"/settings/{ws.pk}/integrations/{hubspot.pk}/hubspot/" in html


UNREACHABLE = (
    "HTTPSConnectionPool(host='api.stripe.com', port=443): Max retries exceeded with url: "
    "/v1/charges (Caused by NameResolutionError(\"Failed to resolve 'api.stripe.com'\"))"
)


def retry_url(connection):
    return f"/settings/{connection.workspace_id}/integrations/{connection.pk}/retry/"


def test_an_unreachable_provider_is_said_in_words_and_retried_on_request(
    team, backfills, django_capture_on_commit_callbacks
):
    connection = make_connection(
        team["workspace"],
        state="failing",
        last_error=UNREACHABLE,
        last_error_kind="unreachable",
        last_error_at=datetime(2026, 3, 2, 8, 20, tzinfo=UTC),
    )
    client = client_for(team["admin"])
    html = text_of(client.get(page_url(team["workspace"])))
    assert "Stripe could not be reached; we will retry at 2 Mar 2026, 08:35." in html
    assert "HTTPSConnectionPool" not in html
    assert "NameResolutionError" not in html
    assert "Connect Stripe again" not in html  # the key was not refused

    fields = hidden_fields(html, f"retry-form-{connection.pk}")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(retry_url(connection), fields)
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(team['workspace'])}#connection-{connection.pk}"
    assert backfills == [connection.pk]
    retried = AuditEvent.objects.get(action="integration.retried")
    assert retried.target_id == str(connection.pk)
    assert "Trying Stripe again now" in text_of(client.get(page_url(team["workspace"])))


def test_a_manager_sees_the_trouble_but_cannot_retry(team, backfills):
    connection = make_connection(
        team["workspace"],
        state="failing",
        last_error="Stripe refused the secret key (401).",
        last_error_kind="refused",
        last_error_at=datetime(2026, 3, 2, 8, 20, tzinfo=UTC),
    )
    client = client_for(team["manager"])
    html = text_of(client.get(page_url(team["workspace"])))
    assert "Stripe refused the key: paste a new restricted key." in html
    assert f'id="retry-{connection.pk}"' not in html
    response = client.post(retry_url(connection), hidden_fields(html))
    assert response.status_code == 403
    assert backfills == []
    assert not AuditEvent.objects.filter(action="integration.retried").exists()


def test_the_beat_retries_only_what_may_have_mended_itself(team, backfills, make_workspace):
    failed_at = datetime(2026, 3, 2, 8, 20, tzinfo=UTC)
    unreachable = make_connection(
        team["workspace"],
        state="failing",
        last_error=UNREACHABLE,
        last_error_kind="unreachable",
        last_error_at=failed_at,
    )
    make_connection(
        make_workspace(),
        state="failing",
        last_error="Stripe refused the secret key (401).",
        last_error_kind="refused",
        last_error_at=failed_at,
    )
    assert services.connections_retry_due(now=datetime(2026, 3, 2, 8, 34, tzinfo=UTC)) == []
    retried = services.connections_retry_due(now=datetime(2026, 3, 2, 8, 35, tzinfo=UTC))
    assert retried == [unreachable.pk]
    assert backfills == [unreachable.pk]
