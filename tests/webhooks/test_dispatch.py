"""Whether an event is handed to the webhooks: read from the cache of the workspace's
endpoints, which an answer read before an endpoint's write can never outlive."""

import pytest
from django.core.cache import cache
from django.db import transaction

from audit.services import SYSTEM
from events.models import Event
from webhooks import dispatch, services
from webhooks.models import Delivery
from workspaces.services import lead_upsert

from ..conftest import aware

pytestmark = pytest.mark.django_db(transaction=True)


def _lead(ws, n):
    with transaction.atomic():
        lead_upsert(workspace=ws, external_id=f"L{n}", created_at=aware("2026-11-02 10:00"))
    return Event.objects.get(workspace=ws, data__external_id=f"L{n}")


class _LateStore:
    """The cache, except that the first answer stored about a workspace's endpoints is
    stored only after `meanwhile` ran: a reader slowed down between reading the endpoints
    and keeping what it read."""

    def __init__(self, meanwhile):
        self.meanwhile = meanwhile
        self.done = False

    def set(self, key, value, *args, **kwargs):
        if key.startswith("webhooks:wants:") and not self.done:
            self.done = True
            self.meanwhile()
        return cache.set(key, value, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(cache, name)


def test_an_answer_read_before_an_endpoint_was_created_is_not_used_after_it(
    make_workspace, receiver, monkeypatch
):
    ws = make_workspace()
    cache.clear()

    def endpoint_created():
        services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)

    late = _LateStore(endpoint_created)
    monkeypatch.setattr(dispatch, "cache", late)
    # The read that began before the endpoint existed answers what it read then...
    assert dispatch.DISPATCHER.wanted(ws, "lead.created") is False
    assert late.done
    # ...and the event recorded once the endpoint's write returned is delivered to it.
    event = _lead(ws, 1)
    assert Delivery.objects.filter(event=event).count() == 1
    (request,) = receiver.wait(1)
    assert request.headers["webhook-id"] == event.id


def test_an_endpoint_disabled_is_no_longer_wanted_and_enabled_again_is(make_workspace, receiver):
    ws = make_workspace()
    made = services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    assert dispatch.DISPATCHER.wanted(ws, "lead.created") is True
    services.endpoint_update(endpoint=made.endpoint, changes={"enabled": False}, actor=SYSTEM)
    assert _lead(ws, 1).dispatched is True
    services.endpoint_update(endpoint=made.endpoint, changes={"enabled": True}, actor=SYSTEM)
    event = _lead(ws, 2)
    assert Delivery.objects.filter(event=event).count() == 1


def test_the_answer_is_read_again_when_the_version_is_lost(make_workspace, receiver):
    ws = make_workspace()
    assert dispatch.DISPATCHER.wanted(ws, "lead.created") is False
    version_key, _ = dispatch._cache_keys(ws.pk)
    cache.delete(version_key)  # evicted: the answer kept under the old version is not used
    services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    cache.delete(version_key)
    assert dispatch.DISPATCHER.wanted(ws, "lead.created") is True
