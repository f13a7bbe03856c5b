"""An answer is freed by reference counting as soon as it is sent.

DRF's views and responses point at each other; left alone, every answer (with all its
rows) would wait for the garbage collector's full passes, which then walk it.
"""

import gc
import weakref

import pytest
from django.test import RequestFactory

from audit.services import SYSTEM, audit_record
from figures.views import AuditEventsView

pytestmark = pytest.mark.django_db


def test_the_audit_events_answer_is_freed_without_the_garbage_collector(rec, workspace_token):
    for n in range(30):
        audit_record(
            actor=SYSTEM,
            action="draft.created",
            target_type="draft",
            target_id=str(n),
            workspace=rec.ws,
        )
    token = workspace_token(rec.ws)
    # The default period (the last 30 days) holds them.
    request = RequestFactory().get("/api/v1/audit-events", HTTP_AUTHORIZATION=f"Bearer {token}")
    response = AuditEventsView.as_view()(request)
    response.render()
    assert response.status_code == 200
    assert response.content.count(b'"action":"draft.created"') == 30
    events = response.data["data"]["events"]
    answer = weakref.ref(response)
    rows = len(gc.get_referrers(events))
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del response, request
        # Nothing but this test holds the rows any more, and the response is gone.
        assert answer() is None
        assert len(gc.get_referrers(events)) == rows - 1
    finally:
        if was_enabled:
            gc.enable()
