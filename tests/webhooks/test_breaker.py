"""The circuit breaker of each endpoint: a run of timeouts or 5xx answers pauses it for a
cool-off that grows with each pause, its deliveries wait (none attempted, none lost) and
the sweep takes them once the cool-off ends; one success closes it. Against a real local
receiver."""

from datetime import UTC, timedelta

import pytest

from audit.models import AuditEvent
from audit.services import SYSTEM
from webhooks import services
from webhooks.models import Delivery, DeliveryAttempt, WebhookEndpoint
from workspaces.models import Member

from ..accounts.test_team_pages import browser
from .receiver import Answer
from .test_delivery import Clock, _endpoint, _lead

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ws(make_workspace, make_member):
    workspace = make_workspace()
    make_member(workspace, "owner", email="owner@example.test")
    return workspace


@pytest.fixture
def breaker(settings):
    settings.WEBHOOK_BREAKER_FAILURES = 3
    settings.WEBHOOK_BREAKER_COOLOFF_SECONDS = 60
    settings.WEBHOOK_BREAKER_COOLOFF_MAX_SECONDS = 150
    return settings


def _sweep():
    from webhooks.tasks import deliveries_sweep  # noqa: PLC0415

    return deliveries_sweep()["deliveries"]


def test_a_run_of_5xx_pauses_the_endpoint_and_its_deliveries_wait(
    ws, receiver, monkeypatch, breaker
):
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=503)
    made = _endpoint(ws, receiver.url)
    for n in range(2):
        _lead(ws, n)
    receiver.wait(2)
    endpoint = WebhookEndpoint.objects.get()
    assert (endpoint.breaker_failures, endpoint.paused_until) == (2, None)
    _lead(ws, 2)
    receiver.wait(3)
    endpoint.refresh_from_db()
    assert endpoint.paused_until == clock.now + timedelta(seconds=60)
    assert (endpoint.pauses, endpoint.paused_reason) == (1, "3 server errors (5xx) in a row")
    paused = AuditEvent.objects.get(action="webhook_endpoint.paused")
    assert paused.target_id == str(made.endpoint.pk)
    assert paused.detail["failures"] == 3 and paused.detail["cooloff_seconds"] == 60

    # Paused: a new event's delivery waits, and neither the sweep nor a retry's message
    # attempts anything, even once the retries fall due.
    _lead(ws, 3)
    waiting = Delivery.objects.order_by("-pk").first()
    assert (waiting.state, waiting.attempts, waiting.leased_until) == ("pending", 0, None)
    clock.move(seconds=30)
    assert _sweep() == 0
    assert [services.attempt_run(d.pk) for d in Delivery.objects.all()] == ["skipped"] * 4
    assert len(receiver.received) == 3

    # The cool-off over, the sweep takes every waiting delivery; one success closes it.
    clock.move(seconds=31)
    receiver.default = Answer(status=200)
    sent = []
    monkeypatch.setattr(
        services, "task_send", lambda name, *, args, countdown=None: sent.append(args)
    )
    assert _sweep() == 4
    assert [services.attempt_run(*args) for args in sent] == ["succeeded"] * 4
    endpoint.refresh_from_db()
    assert (endpoint.breaker_failures, endpoint.pauses, endpoint.paused_until) == (0, 0, None)
    assert endpoint.paused_reason == ""
    assert set(Delivery.objects.values_list("state", flat=True)) == {"succeeded"}
    assert AuditEvent.objects.filter(action="webhook_endpoint.resumed").count() == 1


def test_a_run_of_timeouts_is_said_on_the_endpoints_page(ws, receiver, monkeypatch, breaker):
    breaker.WEBHOOK_BREAKER_FAILURES = 2
    breaker.WEBHOOK_TIMEOUT_SECONDS = 1
    clock = Clock(monkeypatch)
    clock.now = clock.now.replace(hour=13, minute=4, second=0, microsecond=0)
    receiver.default = Answer(delay=2)
    made = _endpoint(ws, receiver.url)
    _lead(ws, 0)
    _lead(ws, 1)
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.paused_reason == "2 timeouts in a row"
    assert services.endpoint_pause_text(endpoint) == (
        "Paused until 13:05 UTC after 2 timeouts in a row; deliveries wait and resume then."
    )
    owner = Member.objects.get(workspace=ws, role="owner")
    page = browser(owner).get(f"/settings/{ws.pk}/webhooks/{made.endpoint.pk}/")
    assert (
        "Paused until 13:05 UTC after 2 timeouts in a row; deliveries wait and resume then."
        in page.content.decode()
    )
    listing = browser(owner).get(f"/settings/{ws.pk}/webhooks/").content.decode()
    assert "paused until" in listing
    # After the cool-off the page says nothing of it.
    clock.move(minutes=2)
    assert services.endpoint_pause_text(endpoint) == ""
    assert (
        "Paused until"
        not in browser(owner)
        .get(f"/settings/{ws.pk}/webhooks/{made.endpoint.pk}/")
        .content.decode()
    )


def test_the_cooloff_grows_with_each_failed_trial_up_to_its_cap(ws, receiver, monkeypatch, breaker):
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=500)
    _endpoint(ws, receiver.url)
    for n in range(3):
        _lead(ws, n)
    endpoint = WebhookEndpoint.objects.get()
    cooloffs = []
    for _ in range(4):
        endpoint.refresh_from_db()
        cooloffs.append((endpoint.paused_until - clock.now).total_seconds())
        # The first attempt after the cool-off fails the same way: paused again at once.
        clock.now = endpoint.paused_until + timedelta(seconds=1)
        delivery = Delivery.objects.filter(next_attempt_at__lte=clock.now).first()
        assert services.attempt_run(delivery.pk) == "failed"
    endpoint.refresh_from_db()
    cooloffs.append((endpoint.paused_until - clock.now).total_seconds())
    assert cooloffs == [60, 120, 150, 150, 150]
    assert endpoint.pauses == 5
    assert endpoint.paused_reason == "7 server errors (5xx) in a row"
    assert AuditEvent.objects.filter(action="webhook_endpoint.paused").count() == 5


def test_another_failure_ends_the_run(ws, receiver, monkeypatch, breaker):
    Clock(monkeypatch)
    receiver.answers = [Answer(status=500), Answer(status=500), Answer(status=404)]
    receiver.default = Answer(status=500)
    _endpoint(ws, receiver.url)
    for n in range(5):
        _lead(ws, n)
    endpoint = WebhookEndpoint.objects.get()
    assert DeliveryAttempt.objects.count() == 5
    assert (endpoint.breaker_failures, endpoint.paused_until) == (2, None)
    assert not AuditEvent.objects.filter(action="webhook_endpoint.paused").exists()


def test_the_page_states_the_pause_in_utc_with_the_day_when_not_today(ws):
    endpoint = services.endpoint_create(workspace=ws, url="https://example.com/h", actor=SYSTEM)
    now = services._now().astimezone(UTC).replace(hour=23, minute=50)
    endpoint = endpoint.endpoint
    endpoint.paused_until = now + timedelta(minutes=30)
    endpoint.paused_reason = "5 timeouts in a row"
    day = endpoint.paused_until.strftime("%-d %b %Y")
    assert services.endpoint_pause_text(endpoint, now) == (
        f"Paused until {day}, 00:20 UTC after 5 timeouts in a row; deliveries wait and resume then."
    )


def test_a_success_resumes_an_endpoint_paused_while_it_was_under_way(
    ws, receiver, monkeypatch, breaker
):
    """The attempt read its endpoint before others paused it: its success still closes the
    breaker."""
    Clock(monkeypatch)
    made = _endpoint(ws, receiver.url)
    with monkeypatch.context() as held:
        held.setattr(services, "_send_later", lambda *args: None)
        ping = services.endpoint_ping(endpoint=made.endpoint, actor=SYSTEM)
    delivery = Delivery.objects.select_related("event", "endpoint").get(pk=ping.pk)
    assert (delivery.endpoint.breaker_failures, delivery.endpoint.pauses) == (0, 0)
    receiver.default = Answer(status=500)
    for n in range(3):
        _lead(ws, n)
    assert WebhookEndpoint.objects.get().pauses == 1
    receiver.default = Answer(status=200)
    assert services.attempt_held(delivery) == "succeeded"
    endpoint = WebhookEndpoint.objects.get()
    assert (endpoint.breaker_failures, endpoint.pauses, endpoint.paused_until) == (0, 0, None)
    assert AuditEvent.objects.filter(action="webhook_endpoint.resumed").count() == 1


def test_another_failure_ends_a_run_counted_while_it_was_under_way(
    ws, receiver, monkeypatch, breaker
):
    Clock(monkeypatch)
    made = _endpoint(ws, receiver.url)
    with monkeypatch.context() as held:
        held.setattr(services, "_send_later", lambda *args: None)
        ping = services.endpoint_ping(endpoint=made.endpoint, actor=SYSTEM)
    delivery = Delivery.objects.select_related("event", "endpoint").get(pk=ping.pk)
    receiver.default = Answer(status=500)
    for n in range(2):
        _lead(ws, n)
    assert WebhookEndpoint.objects.get().breaker_failures == 2
    receiver.default = Answer(status=404)
    assert services.attempt_held(delivery) == "failed"
    assert WebhookEndpoint.objects.get().breaker_failures == 0
