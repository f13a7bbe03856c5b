"""What an event costs its write: one insert, and no other query once the workspace's
endpoints are in the cache."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from audit.services import SYSTEM
from webhooks import services
from workspaces.services import lead_upsert

from ..conftest import aware

pytestmark = pytest.mark.django_db(transaction=True)


def _write(ws, n):
    # Inside the transaction: the deliveries made after its commit are not the write's.
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        lead_upsert(workspace=ws, external_id=f"L{n}", created_at=aware("2026-11-02 10:00"))
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("with_endpoint", [False, True])
def test_an_event_adds_one_insert_to_its_write(make_workspace, receiver, with_endpoint):
    ws = make_workspace()
    if with_endpoint:
        services.endpoint_create(workspace=ws, url=receiver.url, actor=SYSTEM)
    _write(ws, 0)  # the first write reads the workspace's endpoints into the cache
    sql = _write(ws, 1)
    event_statements = [s for s in sql if '"events_event"' in s]
    assert len(event_statements) == 1
    assert event_statements[0].startswith("INSERT")
    assert not [s for s in sql if "webhooks_" in s]
    # The lead's own statements: its look-up, its insert, and the transaction's bounds.
    writes = [s for s in sql if s.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert len(writes) == 2


def test_a_writer_called_outside_a_transaction_commits_its_record_with_its_event(
    make_workspace, monkeypatch
):
    """A caller with no transaction of its own (a script, a test) still gets the record
    and its event together: the writer opens the transaction."""
    import workspaces.services.leads as writers  # noqa: PLC0415
    from events.models import Event  # noqa: PLC0415
    from workspaces.models import Lead  # noqa: PLC0415

    ws = make_workspace()
    lead_upsert(workspace=ws, external_id="L1", created_at=aware("2026-11-02 10:00"))
    assert Event.objects.filter(workspace=ws, type="lead.created").count() == 1

    def refuse(**_kwargs):
        raise RuntimeError("the event could not be written")

    monkeypatch.setattr(writers, "event_record", refuse)
    with pytest.raises(RuntimeError):
        lead_upsert(workspace=ws, external_id="L2", created_at=aware("2026-11-02 10:00"))
    assert not Lead.objects.filter(workspace=ws, external_id="L2").exists()
