"""The client against a served demo: every operation once, each error class, a retried write
applied once, paging to the end of the events feed, and a webhook delivery verified."""

import datetime
import http.server
import json
import threading
import uuid

import httpx
import pytest
import salesfigures
from salesfigures import _generated
from salesfigures.client import Client

from .conftest import ANONYMOUS_RATE

# The operations each test below makes, by method name; together, every operation of both
# descriptions (test_every_operation_is_made_by_a_test), wherever a description holds it.
GROUPS = {
    "figures": {
        "whoami",
        "list_attribution",
        "list_audit_events",
        "list_call_figures",
        "list_commission",
        "list_eod_figures",
        "get_funnel",
        "list_leads",
        "get_lead_journey",
        "list_outcomes",
        "list_payment_figures",
        "get_series",
        "list_speed_to_lead",
        "get_webinar",
    },
    "webhooks": {
        "create_webhook_endpoint",
        "list_webhook_endpoints",
        "get_webhook_endpoint",
        "update_webhook_endpoint",
        "delete_webhook_endpoint",
        "create_workspace_change",
    },
    "events": {"list_events"},
    "ad_spend": {"create_ad_spend", "list_ad_spend", "list_acquisition"},
    "goals": {"replace_goals", "list_goals", "get_leaderboard"},
    "workspace": {
        "get_display",
        "create_change",
        "list_changes",
        "compare_around_change",
        "list_workspaces",
        "list_drafts",
        "create_draft",
    },
    "members": {
        "get_my_board",
        "file_post_call_form",
        "file_past_call_form",
        "file_dm_close_form",
        "file_eod_form",
    },
    "agency": {
        "list_agency_workspaces",
        "list_templates",
        "get_template",
        "put_template",
        "create_plan",
        "get_plan",
        "request_plan_approval",
        "apply_plan",
        "create_connect_link",
        "get_connect_link",
        "revoke_connect_link",
        "list_workspace_changes",
        "get_workspace_display",
    },
}


class Recording:
    """Records the operations a client makes (by their generated module's name)."""

    def __init__(self):
        self.made = []

    def __call__(self, cls, token, base_url, **kwargs):
        made = self.made

        class Recorded(cls):
            def _call(self, operation, arguments):
                made.append(operation.__name__.rsplit(".", 1)[-1])
                return super()._call(operation, arguments)

        return Recorded(token, base_url=base_url, **kwargs)


@pytest.fixture
def record():
    return Recording()


def _workspace(demo):
    return demo["workspaces"][0]


def _member(demo, role):
    return next(m for m in _workspace(demo)["members"] if m["role"] == role)


def test_every_operation_is_made_by_a_test():
    operations = {
        name
        for name in dir(_generated.Operations)
        if not name.startswith("_") and callable(getattr(_generated.Operations, name))
    }
    assert set().union(*GROUPS.values()) == operations
    assert len(operations) == 52


def test_figures_reads(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    client = record(Client, ws["tokens"]["read"], base_url)
    assert client.whoami().to_dict()["workspace"]["id"] == ws["id"]
    payments = client.list_payment_figures()
    cash = payments.data.cash_collected
    assert cash.unit == "money" and cash.currency == "USD"
    assert cash.as_decimal() == salesfigures.as_decimal(cash)
    assert cash.as_decimal().as_tuple().exponent == -2
    assert str(cash.as_decimal()) == f"{cash.value:.2f}"
    rows = payments.to_rows()
    assert rows[0]["key"] == "cash_collected" and rows[0]["value"] == cash.value
    client.list_attribution()
    client.list_audit_events()
    calls = client.list_call_figures(from_=payments.period.from_, to=payments.period.to)
    assert calls.period.to == payments.period.to
    client.list_commission()
    client.list_eod_figures()
    client.get_funnel()
    leads = client.list_leads(limit=2)
    assert len(leads.data.leads) == 2 and len(leads.to_rows()) == 2
    assert "setter.name" in leads.to_rows()[0]
    journey = client.get_lead_journey(leads.data.leads[0]["id"])
    assert journey.data.lead["id"] == leads.data.leads[0]["id"]
    client.list_outcomes()
    series = client.get_series(
        metric=salesfigures.models.GetSeriesMetric("payments.cash_collected")
    )
    assert series.data is not None
    # The plain strings of the same choices.
    monthly = client.get_series(metric="payments.cash_collected", interval="month")
    assert (monthly.data.metric, monthly.data.interval) == ("payments.cash_collected", "month")
    client.list_speed_to_lead()
    client.get_webinar()
    assert set(record.made) == GROUPS["figures"]
    # Every lead of the period, through the iterator: one request (under 500 leads).
    made = len(record.made)
    every = list(client.iter_leads())
    assert len(every) == payments_leads(client) and len(record.made) == made + 2


def payments_leads(client):
    return client.list_leads(limit=1).data.created.value


def _receiver():
    """An HTTP server on 127.0.0.1 that keeps the deliveries it receives."""
    received = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((dict(self.headers), body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, received


def test_webhook_endpoints_and_a_delivery_verified(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    client = record(Client, ws["tokens"]["write"], base_url)
    server, received = _receiver()
    try:
        created = client.create_webhook_endpoint(
            body={
                "url": f"http://127.0.0.1:{server.server_address[1]}/hooks",
                "events": ["change.created"],
                "description": "Client test",
            }
        )
        assert created.secret.startswith("whsec_")
        assert created.id in {e.id for e in client.list_webhook_endpoints().endpoints}
        assert client.get_webhook_endpoint(created.id).url == created.url
        assert (
            client.update_webhook_endpoint(created.id, body={"description": "Renamed"}).description
            == "Renamed"
        )
        change = client.create_workspace_change(
            ws["id"],
            body={
                "effective_at": "2026-03-01T00:00:00-05:00",
                "kind": "price",
                "title": "Price up",
                "what": "From 5,000 to 6,000.",
                "why": "Waitlist.",
            },
        )
        client.delete_webhook_endpoint(created.id)
    finally:
        server.shutdown()
    assert set(record.made) == GROUPS["webhooks"]
    assert len(received) == 1
    headers, body = received[0]
    event = salesfigures.verify_webhook(created.secret, headers, body)
    assert event.type_ == "change.created"
    assert event.id == headers["webhook-id"]
    assert event.data["id"] == str(change.id)
    tampered = body.replace(b"Price up", b"Price 0!")
    with pytest.raises(salesfigures.WebhookVerificationError):
        salesfigures.verify_webhook(created.secret, headers, tampered)
    with pytest.raises(salesfigures.WebhookVerificationError):
        salesfigures.verify_webhook("whsec_" + "A" * 32, headers, body)


CHANGE = {
    "effective_at": (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=1)).isoformat(
        timespec="seconds"
    ),
    "kind": "price",
    "title": "Mastermind price up to $6,000",
    "what": "Mastermind moved from $5,000 to $6,000.",
    "why": "Waitlist over 40 people for two months.",
}


def test_events_feed_paged_to_its_end(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    client = record(Client, ws["tokens"]["read"], base_url)
    first = client.list_events(limit=500)
    assert not first.has_more
    assert len(first.events) >= 3
    made = len(record.made)
    paged = list(client.iter_events(page_size=2))
    assert [e.id for e in paged] == [e.id for e in first.events]
    # Pages of two, the last of them saying that no more follow (the feed looks one event
    # ahead, so a full last page needs no empty one after it).
    assert len(record.made) - made == (len(paged) + 1) // 2
    assert [e.id for e in client.iter_events(after=paged[0].id)] == [e.id for e in paged[1:]]
    assert set(record.made) == GROUPS["events"]


def test_ad_spend_written_then_read(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    writer = record(Client, ws["tokens"]["write"], base_url)
    day = datetime.date.today() - datetime.timedelta(days=1)
    body = {
        "id": f"client-{uuid.uuid4().hex}",
        "date": day.isoformat(),
        "platform": "tiktok",
        "utm_source": "tiktok",
        "utm_campaign": "client-test",
        "amount": "12.34",
    }
    made = writer.create_ad_spend(body=body)
    assert (made.id, made.amount, made.currency) == (body["id"], 12.34, "USD")
    replaced = writer.create_ad_spend(body={**body, "amount": "20"})
    assert replaced.amount == 20
    listed = [r for r in writer.iter_ad_spend(from_=day, to=day) if r.id == body["id"]]
    assert [r.amount for r in listed] == [20]
    acquisition = writer.list_acquisition(from_=day, to=day, by="campaign")
    row = next(r for r in acquisition.data.rows if r.utm_campaign == "client-test")
    assert (row.spend.value, row.leads.value, row.roas.value) == (20, 0, 0.0)
    assert set(record.made) == GROUPS["ad_spend"]


def test_goals_set_then_read(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    writer = record(Client, ws["tokens"]["write"], base_url)
    closer = _member(demo, "closer")
    month = datetime.date.today().strftime("%Y-%m")
    body = {
        "goals": [
            {"metric": "payments.cash_collected", "target": "15000.50"},
            {"metric": "calls.taken", "member": closer["id"], "target": 20},
        ]
    }
    made = writer.replace_goals(month, body=body)
    assert made.month == month
    assert [(g.metric, g.target) for g in made.goals] == [
        ("payments.cash_collected", 15000.5),
        ("calls.taken", 20),
    ]
    goals = writer.list_goals(month=month)
    assert [(g.metric, g.target.value) for g in goals.data.goals] == [
        ("payments.cash_collected", 15000.5),
        ("calls.taken", 20),
    ]
    assert goals.data.goals[1].member.id == closer["id"]
    # A parameter of choices takes its member or its plain string.
    board = writer.get_leaderboard(role="closer")
    ranks = [row.rank for row in board.data.members]
    assert ranks == sorted(ranks) and ranks[0] == 1
    setters = writer.get_leaderboard(role=_generated.figures.models.GetLeaderboardRole.SETTER)
    assert all(row.booked.metric == "calls.booked" for row in setters.data.members)
    assert set(record.made) == GROUPS["goals"]


def test_workspace_operations(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    writer = record(Client, ws["tokens"]["write"], base_url)
    assert writer.get_display() is not None
    change = writer.create_change(body=CHANGE)
    assert change.title == CHANGE["title"]
    assert change.id in {c.id for c in writer.list_changes().changes}
    assert writer.compare_around_change(change.id, days=7) is not None
    assert ws["id"] in {str(w.id) for w in writer.list_workspaces().workspaces}
    closer = _member(demo, "closer")
    draft = writer.create_draft(
        body={
            "form": "eod",
            "member_id": closer["id"],
            "fields": {"date": datetime.date.today().isoformat(), "fields": {"notes": "A day."}},
        }
    )
    assert draft.id in {d.id for d in writer.list_drafts().drafts}
    assert set(record.made) == GROUPS["workspace"]


def _past_call_of(client, member_id):
    """A call of the member's that has started, found through the leads' journeys."""
    now = datetime.datetime.now(datetime.UTC)
    for lead in client.iter_leads():
        for event in client.get_lead_journey(lead["id"]).data.events:
            call = event.to_dict().get("call")
            if (
                call
                and (call.get("closer") or {}).get("id") == member_id
                and datetime.datetime.fromisoformat(call["scheduled_for"].replace("Z", "+00:00"))
                < now - datetime.timedelta(hours=2)
            ):
                return call["id"], lead["id"]
    raise AssertionError("the demo has no past call of the closer")


def test_members_file_forms(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    closer = _member(demo, "closer")
    call_id, lead_id = _past_call_of(Client(ws["tokens"]["read"], base_url=base_url), closer["id"])
    client = record(Client, closer["session_token"], base_url)
    board = client.get_my_board()
    assert str(board.data.member.id) == closer["id"]
    client.file_post_call_form(
        body={
            "submission_id": str(uuid.uuid4()),
            "call_id": call_id,
            "attendance": "showed",
            "outcome": "follow_up",
            "offer_made": True,
            "notes": "Asked for a case study.",
        }
    )
    client.file_past_call_form(
        body={
            "submission_id": str(uuid.uuid4()),
            "lead": {"name": "Dana Reyes", "email": "dana.client@example.com"},
            "occurred_at": CHANGE["effective_at"],
            "outcome": "follow_up",
            "offer_made": True,
            "reason": "Wants to talk to her partner",
        }
    )
    client.file_dm_close_form(
        body={
            "submission_id": str(uuid.uuid4()),
            "lead": lead_id,
            "platform": "instagram",
            "closed_at": CHANGE["effective_at"],
            "contract_value": 1500,
            "cash_collected": "1500.00",
            "payment_plan": "paid_in_full",
        }
    )
    setter = record(Client, _member(demo, "setter")["session_token"], base_url)
    yesterday = datetime.date.today() - datetime.timedelta(days=1)
    setter.file_eod_form(
        body={"date": yesterday.isoformat(), "fields": {"dials": 84, "conversations": 19}}
    )
    assert set(record.made) == GROUPS["members"] | {"get_my_board"}


def test_agency_operations(served, record):
    base_url, demo = served
    ws = _workspace(demo)
    tokens = demo["agency"]["tokens"]
    agency = record(salesfigures.AgencyClient, tokens["full"], base_url)
    listed = agency.list_agency_workspaces().to_dict()
    assert ws["id"] in json.dumps(listed)
    key = f"client-{uuid.uuid4().hex[:8]}"
    agency.put_template(key, body={"name": "Client test", "integrations": ["stripe"]})
    assert agency.get_template(key).to_dict()["key"] == key
    assert key in json.dumps(agency.list_templates().to_dict())
    body = {
        "workspace": {
            "name": "Acme Coaching",
            "slug": f"acme-{uuid.uuid4().hex[:8]}",
            "currency": "USD",
            "timezone": "America/New_York",
        },
        "programmes": [{"name": "Mastermind", "price": "4997.00"}],
    }
    plan = agency.create_plan(body=body)
    assert agency.get_plan(plan.id).id == plan.id
    waiting = agency.create_plan(
        body={**body, "workspace": {**body["workspace"], "slug": f"acme-{uuid.uuid4().hex[:8]}"}}
    )
    requester = record(salesfigures.AgencyClient, tokens["no_apply"], base_url)
    with pytest.raises(salesfigures.InsufficientScope) as refused:
        requester.apply_plan(waiting.id)
    assert refused.value.required_scope == "config:apply"
    assert refused.value.approval == "request"
    requester.request_plan_approval(waiting.id)
    applied = agency.apply_plan(plan.id)
    assert applied.id == plan.id
    # Applying it again is another write (a new key): its state refuses it.
    with pytest.raises(salesfigures.Conflict) as conflict:
        agency.apply_plan(plan.id)
    assert conflict.value.reason == "refused.plan_state"
    link = agency.create_connect_link(ws["id"], body={"integrations": ["stripe"]}).to_dict()
    assert agency.get_connect_link(ws["id"], link["id"]).to_dict()["id"] == link["id"]
    agency.revoke_connect_link(ws["id"], link["id"])
    agency.list_workspace_changes(ws["id"])
    agency.get_workspace_display(ws["id"])
    assert set(record.made) == GROUPS["agency"]


def test_errors_by_reason(served):
    base_url, demo = served
    ws = _workspace(demo)
    reader = Client(ws["tokens"]["read"], base_url=base_url)
    writer = Client(ws["tokens"]["write"], base_url=base_url)
    with pytest.raises(salesfigures.InvalidParameter) as invalid:
        reader.list_call_figures(from_=datetime.date(2026, 5, 1), to=datetime.date(2026, 1, 1))
    assert invalid.value.field == "from" and invalid.value.status == 400
    with pytest.raises(salesfigures.InvalidField) as invalid_field:
        writer.create_change(body={**CHANGE, "colour": "red"})
    assert invalid_field.value.field == "colour"
    with pytest.raises(salesfigures.IdempotencyKeyRequired):
        writer.create_change(body=CHANGE, idempotency_key="short")
    key = str(uuid.uuid4())
    writer.create_change(body=CHANGE, idempotency_key=key)
    with pytest.raises(salesfigures.IdempotencyKeyReused):
        writer.create_change(body={**CHANGE, "title": "Another"}, idempotency_key=key)
    with pytest.raises(salesfigures.InsufficientScope) as scope:
        reader.create_change(body=CHANGE)
    assert scope.value.required_scope == "data:write"
    with pytest.raises(salesfigures.NotFound):
        reader.get_lead_journey(str(uuid.uuid4()))
    with pytest.raises(salesfigures.Forbidden) as forbidden:
        reader.list_agency_workspaces()
    assert forbidden.value.reason == "token.not_agency"
    starter = salesfigures.AgencyClient(demo["starter_agency"]["tokens"]["full"], base_url=base_url)
    with pytest.raises(salesfigures.UpgradeRequired):
        starter.put_template("starter", body={"name": "Starter"})
    # Unknown tokens count against the address: the first is refused, later ones limited.
    stranger = Client("svc_" + "0" * 64, base_url=base_url, max_retries=0)
    with pytest.raises(salesfigures.Unauthenticated):
        stranger.whoami()
    with pytest.raises(salesfigures.RateLimited) as limited:
        for _ in range(2 * ANONYMOUS_RATE + 2):  # two web processes count apart
            with pytest.raises(salesfigures.Unauthenticated):
                stranger.whoami()
    assert 0 < limited.value.retry_after <= 60


class DropsFirstAnswer(httpx.HTTPTransport):
    """Sends each request; the first write's answer is lost after the server made it, as
    when the connection breaks between the write and its answer."""

    def __init__(self):
        super().__init__()
        self.sent = []

    def handle_request(self, request):
        response = super().handle_request(request)
        response.read()
        self.sent.append((request.method, request.headers.get("idempotency-key"), response))
        if request.method == "POST" and len(self.sent) == 1:
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


def test_a_write_whose_answer_is_lost_is_retried_and_applied_once(served):
    base_url, demo = served
    ws = _workspace(demo)
    transport = DropsFirstAnswer()
    writer = Client(ws["tokens"]["write"], base_url=base_url, transport=transport, backoff=0)
    title = f"Price change {uuid.uuid4().hex[:8]}"
    change = writer.create_change(body={**CHANGE, "title": title})
    (_, first_key, first), (_, second_key, second) = transport.sent
    assert first.status_code == 201 and second.status_code == 201
    assert first_key == second_key and len(first_key) == 36
    assert second.headers["idempotent-replayed"] == "true"
    assert change.id == uuid.UUID(first.json()["id"])
    reader = Client(ws["tokens"]["read"], base_url=base_url)
    assert [c.id for c in reader.list_changes().changes if c.title == title] == [change.id]
