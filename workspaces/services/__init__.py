"""Writers of sales records: one writer per record type, the only way a record is written.

Every writer is keyed on the record's own (external) id within its workspace, so
writing the same record again updates it; a record made in the app has no external id
(``external_id=None``) and is always created. The writers keep the invariants the
figures rely on (see workspaces.kept):

- ``Call.outcome`` is the result of the call's latest Outcome (by ``at``), and
  ``Call.offer_made`` follows the latest outcome that recorded it;
- ``Call.replaced`` is True iff another call names it in ``rescheduled_from``;
- ``Lead.first_contact_at`` is the earliest Touch that counts as a first contact (by a
  member, at or after the lead's creation: workspaces.contact);
- ``Sale.cash_collected`` is the sum of its succeeded payments; ``Lead.has_sale`` and
  ``Lead.cash_collected`` follow the lead's sales; ``Payment.closer``/``setter`` are its
  sale's; ``Registration.booked_after`` says whether the lead booked a call at or after
  the event's start;
- ``FunnelProgress`` holds, per funnel and lead, when the lead entered the funnel and
  how many of its stages it reached in order.

A writer refreshes them itself unless given a ``touched`` set, which collects what to
refresh instead (a call also takes ``refresh=False``); the import does that once for
everything it touched, at the end of its transaction.

The writers are kept by family, one module each (leads, calls, money, eod, webinars,
funnels, goals, commission, spend, bulk); this package is the one import path of them all.
"""

from .base import RecordInvalid
from .bulk import BULK_ORDER, records_bulk_create
from .calls import (
    call_attendance_record,
    call_rescheduled_from_set,
    call_upsert,
    calls_write_many,
    outcome_upsert,
    outcomes_create,
)
from .commission import commission_rule_remove, commission_rule_set, commission_rule_upsert
from .eod import eod_upsert
from .funnels import funnel_event_upsert, funnel_stage_get_or_create
from .goals import GoalsRefused, goal_upsert, goals_replace, month_parse
from .leads import lead_upsert, leads_create, touch_upsert
from .money import (
    payment_upsert,
    payments_create,
    refund_upsert,
    refunds_create,
    sale_upsert,
    sales_create,
)
from .spend import COUNT_MAX, ad_spend_upsert
from .webinars import (
    registration_upsert,
    registrations_write,
    webinar_event_upsert,
    webinar_pitch_update,
)

__all__ = [
    "BULK_ORDER",
    "COUNT_MAX",
    "GoalsRefused",
    "RecordInvalid",
    "ad_spend_upsert",
    "call_attendance_record",
    "call_rescheduled_from_set",
    "call_upsert",
    "calls_write_many",
    "commission_rule_remove",
    "commission_rule_set",
    "commission_rule_upsert",
    "eod_upsert",
    "funnel_event_upsert",
    "funnel_stage_get_or_create",
    "goal_upsert",
    "goals_replace",
    "lead_upsert",
    "leads_create",
    "month_parse",
    "outcome_upsert",
    "outcomes_create",
    "payment_upsert",
    "payments_create",
    "records_bulk_create",
    "refund_upsert",
    "refunds_create",
    "registration_upsert",
    "registrations_write",
    "sale_upsert",
    "sales_create",
    "touch_upsert",
    "webinar_event_upsert",
    "webinar_pitch_update",
]
