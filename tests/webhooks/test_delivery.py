"""Deliveries to a real local receiver: signed by the Standard Webhooks scheme, once per
endpoint after the write commits, never after a rollback, retried on the schedule, the
endpoint disabled after three days of failures, resent on demand, and refused where the
guard refuses."""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone
from standardwebhooks import Webhook

from audit.services import SYSTEM
from events.models import Event
from webhooks import guard, services
from webhooks.models import Delivery, DeliveryAttempt, WebhookEndpoint
from workspaces.services import lead_upsert

from ..conftest import aware
from .receiver import Answer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ws(make_workspace, make_member):
    workspace = make_workspace()
    make_member(workspace, "owner", email="owner@example.test")
    return workspace


def _endpoint(ws, url, events=()):
    return services.endpoint_create(workspace=ws, url=url, events=list(events), actor=SYSTEM)


def _lead(ws, n=0, **extra):
    with transaction.atomic():
        return lead_upsert(
            workspace=ws,
            external_id=f"L{n}",
            created_at=aware("2026-11-02 10:00"),
            name=extra.get("name", f"Lead {n}"),
            email=f"lead{n}@example.test",
        )[0]


class Clock:
    def __init__(self, monkeypatch):
        self.now = timezone.now()
        monkeypatch.setattr(services, "_now", lambda: self.now)

    def move(self, **delta):
        self.now += timedelta(**delta)


def test_a_delivery_is_signed_and_carries_the_event_as_the_feed_lists_it(
    ws, receiver, workspace_token, api
):
    made = _endpoint(ws, receiver.url)
    lead = _lead(ws)
    (request,) = receiver.wait(1)
    payload = Webhook(made.secret).verify(request.body, request.headers)
    event = Event.objects.get(workspace=ws)
    assert request.headers["webhook-id"] == event.id
    assert request.headers["content-type"] == "application/json"
    assert payload == {
        "id": event.id,
        "type": "lead.created",
        "timestamp": event.as_api()["timestamp"],
        "workspace_id": str(ws.pk),
        "data": {
            "id": str(lead.pk),
            "external_id": "L0",
            "name": "Lead 0",
            "email": "lead0@example.test",
            "status": "new",
            "setter_id": None,
            "created_at": "2026-11-02T10:00:00Z",
            "utm": {"source": "", "medium": "", "campaign": "", "content": ""},
        },
    }
    feed = api(workspace_token(ws)).get("/api/v1/events").json()["events"]
    assert feed == [payload]
    # Another secret does not verify it.
    with pytest.raises(Exception, match="signature"):
        Webhook(services.secret_new()).verify(request.body, request.headers)
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("succeeded", 1, 200)
    attempt = DeliveryAttempt.objects.get()
    assert (attempt.succeeded, attempt.status_code, attempt.response_excerpt) == (True, 200, "ok")


def test_nothing_is_sent_or_kept_after_a_rollback(ws, receiver):
    _endpoint(ws, receiver.url)
    with pytest.raises(RuntimeError), transaction.atomic():
        lead_upsert(workspace=ws, external_id="X", created_at=aware("2026-11-02 10:00"))
        raise RuntimeError("the write fails after the lead")
    _lead(ws, 1)
    (request,) = receiver.wait(1)
    assert json.loads(request.body)["data"]["external_id"] == "L1"
    assert list(Event.objects.values_list("data__external_id", flat=True)) == ["L1"]


def test_each_endpoint_gets_the_types_it_wants_once(ws, make_workspace, receiver):
    _endpoint(ws, receiver.url + "/all")
    _endpoint(ws, receiver.url + "/updates", events=["lead.updated"])
    other = make_workspace()
    _endpoint(other, receiver.url + "/other")
    _lead(ws, 0)
    _lead(ws, 0, name="Renamed")
    _lead(ws, 0, name="Renamed")  # no change: no event
    _lead(other, 5)
    received = receiver.wait(4)
    seen = sorted(
        (r.path, json.loads(r.body)["type"], json.loads(r.body)["data"]["external_id"])
        for r in received
    )
    assert seen == [
        ("/hooks/all", "lead.created", "L0"),
        ("/hooks/all", "lead.updated", "L0"),
        ("/hooks/other", "lead.created", "L5"),
        ("/hooks/updates", "lead.updated", "L0"),
    ]
    assert Delivery.objects.count() == 4


def test_failures_follow_the_schedule_then_the_delivery_fails(ws, receiver, monkeypatch):
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=500, body=b"x" * 3000)
    _endpoint(ws, receiver.url)
    _lead(ws)
    receiver.wait(1)
    delivery = Delivery.objects.get()
    waits = []
    for expected in services.SCHEDULE:
        delivery.refresh_from_db()
        assert delivery.state == "pending"
        waits.append(delivery.next_attempt_at - clock.now)
        # Not due yet: the sweep sends nothing.
        clock.move(seconds=expected.total_seconds() - 1)
        assert services.attempt_run(delivery.pk) == "skipped"
        clock.move(seconds=1)
        assert services.attempt_run(delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert waits == list(services.SCHEDULE)
    assert (delivery.state, delivery.attempts, delivery.next_attempt_at) == ("failed", 8, None)
    assert len(receiver.received) == 8
    attempt = DeliveryAttempt.objects.order_by("-started_at").first()
    assert attempt.status_code == 500
    assert len(attempt.response_excerpt) == 1024
    assert attempt.error == "The endpoint answered 500."


def test_three_days_of_failures_disable_the_endpoint_and_email_its_owners(
    ws, receiver, monkeypatch
):
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=503)
    made = _endpoint(ws, receiver.url)
    _lead(ws, 0)
    receiver.wait(1)
    assert WebhookEndpoint.objects.get().failing_since == clock.now
    mail.outbox.clear()
    clock.move(days=2, hours=23)
    _lead(ws, 1)  # its first attempt fails too, still within the three days
    receiver.wait(2)
    assert WebhookEndpoint.objects.get().enabled is True
    clock.move(hours=1)
    delivery = Delivery.objects.get(event__data__external_id="L1")
    clock.move(seconds=5)
    assert services.attempt_run(delivery.pk) == "failed"
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.enabled is False
    assert endpoint.disabled_reason == "Every delivery failed for three days."
    (message,) = mail.outbox
    assert message.to == ["owner@example.test"]
    assert made.endpoint.url in message.body
    # A disabled endpoint is sent nothing more, and wants no new events.
    clock.move(minutes=10)
    assert services.attempt_run(delivery.pk) == "skipped"
    _lead(ws, 2)
    assert Event.objects.get(data__external_id="L2").dispatched is True
    assert Delivery.objects.filter(event__data__external_id="L2").count() == 0
    # Enabled again, it is sent at once what waited, and its failure clock starts again.
    receiver.default = Answer(status=204, body=b"")
    services.endpoint_update(endpoint=endpoint, changes={"enabled": True}, actor=SYSTEM)
    receiver.wait(5)
    assert sorted(Delivery.objects.values_list("event__data__external_id", "state")) == [
        ("L0", "succeeded"),
        ("L1", "succeeded"),
    ]
    assert WebhookEndpoint.objects.get().failing_since is None


def test_a_success_clears_the_failure_clock(ws, receiver, monkeypatch):
    clock = Clock(monkeypatch)
    receiver.answers = [Answer(status=500)]
    _endpoint(ws, receiver.url)
    _lead(ws)
    receiver.wait(1)
    assert WebhookEndpoint.objects.get().failing_since is not None
    clock.move(seconds=5)
    assert services.attempt_run(Delivery.objects.get().pk) == "succeeded"
    assert WebhookEndpoint.objects.get().failing_since is None


def test_resend_one_and_every_failed_since(ws, receiver, monkeypatch):
    Clock(monkeypatch)
    made = _endpoint(ws, receiver.url)
    _lead(ws, 0)
    _lead(ws, 1)
    receiver.wait(2)
    Delivery.objects.update(state="failed", next_attempt_at=None)
    services.delivery_resend(
        delivery=Delivery.objects.get(event__data__external_id="L0"), actor=SYSTEM
    )
    received = receiver.wait(3)
    assert json.loads(received[2].body)["data"]["external_id"] == "L0"
    # The same event id: the receiver deduplicates on it.
    assert received[2].headers["webhook-id"] == received[0].headers["webhook-id"]
    resent = services.deliveries_resend_failed(
        endpoint=made.endpoint, since=timezone.now() - timedelta(hours=1), actor=SYSTEM
    )
    assert resent == 1
    received = receiver.wait(4)
    assert json.loads(received[3].body)["data"]["external_id"] == "L1"
    assert set(Delivery.objects.values_list("state", flat=True)) == {"succeeded"}


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        (Answer(status=302, headers={"location": "http://127.0.0.1:9/elsewhere"}), "redirect"),
        (Answer(action="reset"), "closed the connection"),
        (Answer(status=404), "answered 404"),
    ],
)
def test_redirects_resets_and_errors_fail_and_are_logged(ws, receiver, answer, error):
    receiver.answers = [answer]
    _endpoint(ws, receiver.url)
    _lead(ws)
    receiver.wait(1)
    attempt = DeliveryAttempt.objects.get()
    assert attempt.succeeded is False
    assert error in attempt.error
    assert Delivery.objects.get().state == "pending"
    assert len(receiver.received) == 1  # a redirect is not followed


def test_a_slow_receiver_times_out(ws, receiver, settings):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1
    receiver.answers = [Answer(delay=3)]
    _endpoint(ws, receiver.url)
    _lead(ws)
    attempt = DeliveryAttempt.objects.get()
    assert (attempt.succeeded, attempt.status_code) == (False, None)
    assert attempt.error == "No answer within 1 s."


def test_a_name_that_comes_to_resolve_privately_is_refused_at_delivery(
    ws, receiver, monkeypatch, settings
):
    """Saved while it resolved publicly; at delivery it resolves to 10.0.0.7: no request
    leaves, the attempt fails and says why."""
    answers = {"hooks.example.test": ["93.184.215.14"]}
    real = guard._resolve
    monkeypatch.setattr(guard, "_resolve", lambda host, port: answers.get(host) or real(host, port))
    made = _endpoint(ws, "https://hooks.example.test/in")
    answers["hooks.example.test"] = ["10.0.0.7"]
    _lead(ws)
    attempt = DeliveryAttempt.objects.get(endpoint=made.endpoint)
    assert attempt.succeeded is False
    assert attempt.error == (
        "The host hooks.example.test resolves to a private address; webhooks go to public "
        "addresses only."
    )
    assert receiver.received == []


def test_the_attempt_connects_to_the_address_it_checked(ws, receiver, monkeypatch):
    """The name is resolved once per attempt and the request goes to that address, with
    the name in its Host header."""
    port = int(receiver.url.split(":")[2].split("/")[0])
    calls = []

    def resolve(host, _port):
        calls.append(host)
        return ["127.0.0.1"] if host == "receiver.test" else []

    monkeypatch.setattr(guard, "_resolve", resolve)
    _endpoint(ws, f"http://receiver.test:{port}/named")
    calls.clear()
    _lead(ws)
    (request,) = receiver.wait(1)
    assert request.path == "/named"
    assert request.headers["host"] == f"receiver.test:{port}"
    assert calls == ["receiver.test"]


def test_ping_reaches_one_endpoint_and_stays_out_of_the_feed(ws, receiver, workspace_token, api):
    made = _endpoint(ws, receiver.url + "/a")
    _endpoint(ws, receiver.url + "/b")
    services.endpoint_ping(endpoint=made.endpoint, actor=SYSTEM)
    (request,) = receiver.wait(1)
    assert request.path == "/hooks/a"
    body = Webhook(made.secret).verify(request.body, request.headers)
    assert body["type"] == "ping"
    assert api(workspace_token(ws)).get("/api/v1/events").json()["events"] == []


def test_prune_forgets_what_is_older_than_thirty_days(ws, receiver):
    _endpoint(ws, receiver.url)
    _lead(ws, 0)
    _lead(ws, 1)
    receiver.wait(2)
    old = timezone.now() - timedelta(days=31)
    Event.objects.filter(data__external_id="L0").update(created_at=old)
    DeliveryAttempt.objects.filter(delivery__event__data__external_id="L0").update(started_at=old)
    assert services.prune() == {"attempts": 1, "events": 1}
    assert list(Event.objects.values_list("data__external_id", flat=True)) == ["L1"]


def test_the_sweep_queues_each_waiting_delivery_once(ws, receiver, monkeypatch, settings):
    """A delivery is held for its message from the moment it is queued: a second round of
    the beat's sweep queues none of them again, and a message whose hold ran out (lost with
    its broker) is replaced by one new message, the old one finding the delivery taken."""
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=500)
    _endpoint(ws, receiver.url)
    for n in range(3):
        _lead(ws, n)
    receiver.wait(3)
    # Each failed once; the retries are due in 5 s and wait for the beat.
    clock.move(seconds=6)
    sent = []
    monkeypatch.setattr(
        services, "task_send", lambda name, *, args, countdown=None: sent.append((name, args))
    )
    from webhooks.tasks import deliveries_sweep  # noqa: PLC0415

    assert deliveries_sweep() == {"events": 0, "deliveries": 3}
    assert deliveries_sweep() == {"events": 0, "deliveries": 0}
    ids = sorted(Delivery.objects.values_list("pk", flat=True))
    assert sorted(args[0] for _, args in sent) == ids
    assert {name for name, _ in sent} == {"webhooks.delivery_attempt"}
    first = {args[0]: args[1] for _, args in sent}

    # The messages were lost: once their hold runs out the sweep queues each once more.
    clock.move(seconds=settings.WEBHOOK_QUEUED_SECONDS + 1)
    sent.clear()
    assert deliveries_sweep() == {"events": 0, "deliveries": 3}
    assert deliveries_sweep() == {"events": 0, "deliveries": 0}
    assert sorted(args[0] for _, args in sent) == ids
    again = {args[0]: args[1] for _, args in sent}
    # A lost message that turns up after all attempts nothing; the new one attempts once.
    receiver.default = Answer(status=204, body=b"")
    assert [services.attempt_run(pk, first[pk]) for pk in ids] == ["skipped"] * 3
    assert [services.attempt_run(pk, again[pk]) for pk in ids] == ["succeeded"] * 3
    assert [services.attempt_run(pk, again[pk]) for pk in ids] == ["skipped"] * 3
    assert len(receiver.received) == 6
    assert DeliveryAttempt.objects.count() == 6
