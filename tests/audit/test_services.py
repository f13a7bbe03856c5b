"""An audit event is recorded only inside the transaction of the write it records."""

import pytest
from django.db import transaction

from audit.models import AuditEvent
from audit.services import SYSTEM, audit_record, audit_record_many

pytestmark = pytest.mark.django_db(transaction=True)


def test_audit_record_refuses_to_run_outside_a_transaction():
    with pytest.raises(RuntimeError, match="inside the transaction of the write it records"):
        audit_record(actor=SYSTEM, action="x.done", target_type="x", target_id="1")
    assert AuditEvent.objects.count() == 0


def test_audit_record_many_refuses_to_run_outside_a_transaction():
    with pytest.raises(RuntimeError, match="inside the transaction of its writes"):
        audit_record_many(
            actor=SYSTEM, entries=[{"action": "x.done", "target_type": "x", "target_id": "1"}]
        )
    assert AuditEvent.objects.count() == 0


def test_a_rolled_back_write_leaves_no_audit_event():
    with pytest.raises(ValueError), transaction.atomic():
        audit_record(actor=SYSTEM, action="x.done", target_type="x", target_id="1")
        raise ValueError("the write failed")
    assert AuditEvent.objects.count() == 0
    with transaction.atomic():
        audit_record(actor=SYSTEM, action="x.done", target_type="x", target_id="2")
    assert list(AuditEvent.objects.values_list("target_id", flat=True)) == ["2"]
