"""The caps on attempts under way at once, per endpoint and per workspace: an attempt over
a cap waits for a slot (not attempted, its retries untouched, no message queued for it)
and is sent by the next attempt of its endpoint or workspace to end, or by the sweep
after WEBHOOK_SLOT_WAIT_SECONDS; another workspace's deliveries are not held back.
Against a real local receiver."""

from datetime import timedelta

import pytest

from audit.services import SYSTEM
from webhooks import services, transport
from webhooks.models import Delivery, DeliveryAttempt
from webhooks.slots import slots_give_back, slots_take

from .receiver import Answer
from .test_delivery import Clock, _endpoint, _lead

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ws(make_workspace):
    return make_workspace()


@pytest.fixture
def caps(settings):
    settings.WEBHOOK_ENDPOINT_CONCURRENCY = 2
    settings.WEBHOOK_WORKSPACE_CONCURRENCY = 3
    settings.WEBHOOK_SLOT_WAIT_SECONDS = 60
    return settings


def _running(endpoint):
    """An attempt under way elsewhere (another worker), as the caps count it."""
    held = slots_take(endpoint_id=endpoint.pk, workspace_id=endpoint.workspace_id, seconds=60)
    assert held is not None
    return held


class Queue:
    """The attempts' messages, kept instead of sent, to run when the test says."""

    def __init__(self, monkeypatch):
        self.messages = []
        monkeypatch.setattr(
            services,
            "task_send",
            lambda name, *, args, countdown=None: self.messages.append((args, countdown)),
        )

    def run(self):
        messages, self.messages = self.messages, []
        return [services.attempt_run(*args) for args, _ in messages]


def _sweep():
    from webhooks.tasks import deliveries_sweep  # noqa: PLC0415

    return deliveries_sweep()["deliveries"]


def test_an_attempt_over_the_endpoints_cap_waits_for_the_sweep_when_no_attempt_ends(
    ws, receiver, monkeypatch, caps
):
    clock = Clock(monkeypatch)
    endpoint = _endpoint(ws, receiver.url).endpoint
    first, second = _running(endpoint), _running(endpoint)
    queue = Queue(monkeypatch)
    _lead(ws)  # the event's first attempts are made as its deliveries are
    assert receiver.received == []
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.waiting_slot) == ("pending", 0, True)
    assert delivery.next_attempt_at == clock.now + timedelta(seconds=60)
    assert delivery.leased_until is None
    # Nothing is queued for it meanwhile: no message comes back every few seconds.
    assert queue.messages == []
    assert not DeliveryAttempt.objects.exists()
    # The slots were given back by attempts that never ended here (a worker lost): the
    # sweep takes it once its wait is over.
    slots_give_back(first)
    assert _sweep() == 0
    clock.move(seconds=60)
    assert _sweep() == 1
    assert queue.run() == ["succeeded"]
    assert len(receiver.received) == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.waiting_slot) == ("succeeded", 1, False)
    # The attempt gave its slot back: two can run again once the other ends.
    slots_give_back(second)
    held = [_running(endpoint), _running(endpoint)]
    assert slots_take(endpoint_id=endpoint.pk, workspace_id=ws.pk, seconds=60) is None
    for slots in held:
        slots_give_back(slots)


def test_an_attempt_that_ends_sends_the_one_waiting_longest_for_its_slot(
    ws, make_workspace, receiver, monkeypatch, caps
):
    """The endpoint's own waiting delivery first, oldest first; then another endpoint's of
    the same workspace; never another workspace's."""
    caps.WEBHOOK_ENDPOINT_CONCURRENCY = 1
    Clock(monkeypatch)
    queue = Queue(monkeypatch)
    endpoint = _endpoint(ws, f"{receiver.url}/a").endpoint
    sibling = _endpoint(ws, f"{receiver.url}/b").endpoint
    other = make_workspace()
    _endpoint(other, f"{receiver.url}/other")
    running = [_running(endpoint), _running(sibling)]
    for n in range(3):
        _lead(ws, n)
    _lead(other, 9)
    # Two attempts per lead in ws (a and b), one in other: ws's six wait, other's is made.
    assert queue.messages == []
    assert [r.path for r in receiver.wait(1)] == ["/hooks/other"]
    waiting = list(
        Delivery.objects.filter(waiting_slot=True).order_by("pk").values_list("pk", "endpoint")
    )
    assert [e for _, e in waiting] == [endpoint.pk, sibling.pk] * 3
    for slots in running:
        slots_give_back(slots)
    # An attempt of the endpoint ends (the first waiting one, sent by the sweep after its
    # wait would do the same; here the test makes it): it sends the endpoint's next.
    first_pk = waiting[0][0]
    assert services.attempt_held(Delivery.objects.get(pk=first_pk)) == "succeeded"
    assert [args[0] for args, _ in queue.messages] == [waiting[2][0]]
    assert Delivery.objects.get(pk=waiting[2][0]).waiting_slot is False
    # Each attempt that ends sends one more, until none waits: the endpoint's own first.
    sent = []
    while queue.messages:
        sent.extend(args[0] for args, _ in queue.messages)
        assert set(queue.run()) == {"succeeded"}
    assert sent == [waiting[2][0], waiting[4][0], waiting[1][0], waiting[3][0], waiting[5][0]]
    assert not Delivery.objects.filter(waiting_slot=True, state="pending").exists()
    assert Delivery.objects.filter(state="succeeded").count() == 7


def test_the_workspaces_cap_holds_back_its_own_deliveries_only(
    ws, make_workspace, receiver, monkeypatch, caps
):
    Clock(monkeypatch)
    busy = [_endpoint(ws, f"{receiver.url}/busy{n}").endpoint for n in range(3)]
    _endpoint(ws, f"{receiver.url}/idle")
    other = make_workspace()
    _endpoint(other, f"{receiver.url}/other")
    running = [_running(endpoint) for endpoint in busy]  # the workspace's 3 slots
    _lead(ws, 1)
    _lead(other, 2)
    (request,) = receiver.wait(1)
    assert request.path == "/hooks/other"
    assert Delivery.objects.filter(endpoint__workspace=ws, attempts=0).count() == 4
    for slots in running:
        slots_give_back(slots)


def test_an_attempt_under_way_holds_its_endpoints_slot(ws, receiver, monkeypatch, caps):
    """Two attempts to an endpoint capped at one: the second, started while the first
    waits for its answer, is put off; the first's slot is free once it ends, even when it
    fails."""
    caps.WEBHOOK_ENDPOINT_CONCURRENCY = 1
    Clock(monkeypatch)
    queued = []
    monkeypatch.setattr(services, "_send_later", lambda *args: queued.append(args))
    endpoint = _endpoint(ws, receiver.url).endpoint
    services.endpoint_ping(endpoint=endpoint, actor=SYSTEM)
    services.endpoint_ping(endpoint=endpoint, actor=SYSTEM)
    (first, first_lease), (second, second_lease) = queued
    queued.clear()
    post, during = transport.post, []

    def post_while_another_starts(*args):
        if not during:
            during.append(services.attempt_run(second, second_lease.isoformat()))
        raise RuntimeError("the worker fails mid-attempt")

    monkeypatch.setattr(transport, "post", post_while_another_starts)
    with pytest.raises(RuntimeError):
        services.attempt_run(first, first_lease.isoformat())
    assert during == ["deferred"]
    # The failed attempt gave its slot back and sent the one that waited for it.
    assert [args[0] for args in queued] == [second]
    assert Delivery.objects.get(pk=second).waiting_slot is False
    monkeypatch.setattr(transport, "post", post)
    assert services.attempt_run(second, queued[0][1].isoformat()) == "succeeded"
    assert len(receiver.received) == 1


def test_a_workspaces_fan_out_spends_its_own_budget_of_attempts(
    ws, make_workspace, receiver, monkeypatch, settings
):
    """Past RATE_LIMIT_OUTBOUND_ATTEMPTS a workspace's attempts wait for the next window
    (none lost, no retry used); another workspace's attempts go ahead."""
    from core import throttling  # noqa: PLC0415

    settings.RATE_LIMIT_OUTBOUND_ATTEMPTS = "3/min"
    clock = Clock(monkeypatch)
    # A window of its own, from its start (the counters live in the shared cache).
    window = {"start": 60.0 * (70_000_000 + ws.pk.int % 1_000_000)}
    real = throttling.rate_count
    monkeypatch.setattr(
        services, "rate_count", lambda policy, ident: real(policy, ident, window["start"])
    )
    for n in range(2):
        _endpoint(ws, f"{receiver.url}/ws{n}")
    other = make_workspace()
    _endpoint(other, f"{receiver.url}/other")
    _lead(ws, 1)
    _lead(ws, 2)
    _lead(other, 3)
    received = receiver.wait(4)
    assert sorted(r.path for r in received).count("/hooks/other") == 1
    waiting = Delivery.objects.get(endpoint__workspace=ws, attempts=0)
    assert (waiting.state, waiting.next_attempt_at) == (
        "pending",
        clock.now + timedelta(seconds=60),
    )
    assert Delivery.objects.filter(endpoint__workspace=other, state="succeeded").count() == 1
    assert len(receiver.received) == 4
    # The next window: the sweep sends what waited.
    window["start"] += 60
    clock.move(seconds=60)
    assert _sweep() == 1
    assert set(Delivery.objects.values_list("state", flat=True)) == {"succeeded"}
    assert len(receiver.received) == 5


def test_the_sweep_takes_the_workspaces_in_turns(
    ws, make_workspace, receiver, monkeypatch, settings
):
    """A workspace with many deliveries waiting neither fills a round of the sweep nor
    queues ahead of another's: each round takes a few of each, in turns."""
    settings.WEBHOOK_SWEEP_PER_WORKSPACE = 2
    clock = Clock(monkeypatch)
    receiver.default = Answer(status=404)  # failures that do not pause the endpoint
    busy = _endpoint(ws, f"{receiver.url}/busy").endpoint
    for n in range(5):
        _lead(ws, n)
    clock.move(seconds=1)
    other = make_workspace()
    quiet = _endpoint(other, f"{receiver.url}/quiet").endpoint
    for n in range(2):
        _lead(other, n)
    receiver.wait(7)
    clock.move(seconds=10)  # every retry due, the busy workspace's first
    queue = Queue(monkeypatch)
    order = list(Delivery.objects.order_by("next_attempt_at", "pk").values_list("pk", "endpoint"))
    busy_ids = [pk for pk, endpoint in order if endpoint == busy.pk]
    quiet_ids = [pk for pk, endpoint in order if endpoint == quiet.pk]
    assert _sweep() == 4
    assert [args[0] for args, _ in queue.messages] == [
        busy_ids[0],
        quiet_ids[0],
        busy_ids[1],
        quiet_ids[1],
    ]
    queue.messages.clear()
    assert _sweep() == 2
    assert [args[0] for args, _ in queue.messages] == busy_ids[2:4]
    queue.messages.clear()
    assert _sweep() == 1
    assert _sweep() == 0


def test_the_sweep_queues_no_more_of_a_backlog_waiting_for_slots_than_the_workspaces_cap(
    ws, receiver, monkeypatch, caps
):
    """Behind endpoints whose attempts never end, a round of the sweep queues at most the
    workspace's cap (3 here) of its deliveries waiting for a slot, the longest waiting
    first, not its whole backlog."""
    clock = Clock(monkeypatch)
    endpoint = _endpoint(ws, f"{receiver.url}/slow").endpoint
    held = [_running(endpoint), _running(endpoint)]
    queue = Queue(monkeypatch)
    for n in range(7):
        _lead(ws, n)
    waiting = list(
        Delivery.objects.filter(waiting_slot=True)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)
    )
    assert len(waiting) == 7
    clock.move(seconds=61)
    assert _sweep() == 3
    assert [args[0] for args, _ in queue.messages] == waiting[:3]
    queue.messages.clear()
    # The next round takes the next three (the three queued are held for their messages).
    assert _sweep() == 3
    assert [args[0] for args, _ in queue.messages] == waiting[3:6]
    for slots in held:
        slots_give_back(slots)


def test_a_fan_out_with_every_slot_taken_sends_no_message(ws, receiver, monkeypatch, caps):
    """An event for a workspace whose slots are all taken: none of its deliveries is
    attempted (to be put off) or queued (to be put off in turn): all wait for a slot at
    once, with no message; the sweep takes its cap of them."""
    clock = Clock(monkeypatch)
    queue = Queue(monkeypatch)
    endpoints = [_endpoint(ws, f"{receiver.url}/e{n}").endpoint for n in range(7)]
    running = [_running(endpoints[n]) for n in range(3)]  # the workspace's three slots
    tried = []
    take = services.slots_take
    monkeypatch.setattr(services, "slots_take", lambda **kw: tried.append(kw) or take(**kw))
    _lead(ws)
    assert tried == []  # no attempt was begun only to find the slots taken
    assert queue.messages == []
    assert not DeliveryAttempt.objects.exists()
    deliveries = list(Delivery.objects.order_by("pk"))
    assert [(d.waiting_slot, d.leased_until, d.attempts) for d in deliveries] == [
        (True, None, 0)
    ] * 7
    assert {d.next_attempt_at for d in deliveries} == {clock.now + timedelta(seconds=60)}
    for slots in running:
        slots_give_back(slots)
    # The sweep after their wait takes at most the workspace's cap of them.
    clock.move(seconds=61)
    assert _sweep() == 3
