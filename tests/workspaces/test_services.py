"""The record writers keep the invariants the figures rely on."""

from datetime import date

import pytest

from tests.conftest import aware
from workspaces.kept import calls_outcome_refresh, funnel_progress_refresh, leads_sales_refresh
from workspaces.models import Call, EodReport, FunnelProgress, Lead, Registration, Sale
from workspaces.services import (
    RecordInvalid,
    call_attendance_record,
    call_upsert,
    calls_write_many,
    eod_upsert,
    funnel_event_upsert,
    lead_upsert,
    outcome_upsert,
    payment_upsert,
    registration_upsert,
    registrations_write,
    sale_upsert,
    touch_upsert,
    webinar_event_upsert,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def lead(make_workspace):
    ws = make_workspace()
    return lead_upsert(workspace=ws, external_id="l", created_at=aware("2026-03-01 09:00"))[0]


def test_first_contact_is_the_earliest_touch_by_a_member(lead, make_member):
    ws = lead.workspace
    setter = make_member(ws, "setter")
    touch_upsert(workspace=ws, external_id="auto", lead=lead, at=aware("2026-03-01 09:01"))
    lead.refresh_from_db()
    assert lead.first_contact_at is None
    touch_upsert(
        workspace=ws, external_id="t1", lead=lead, member=setter, at=aware("2026-03-01 11:00")
    )
    touch_upsert(
        workspace=ws, external_id="t2", lead=lead, member=setter, at=aware("2026-03-01 10:00")
    )
    lead.refresh_from_db()
    assert lead.first_contact_at == aware("2026-03-01 10:00")
    # Moving the earliest touch to another lead moves the first contact with it.
    other = lead_upsert(workspace=ws, external_id="l2", created_at=aware("2026-03-01 08:00"))[0]
    touch_upsert(
        workspace=ws, external_id="t2", lead=other, member=setter, at=aware("2026-03-01 10:00")
    )
    lead.refresh_from_db()
    other.refresh_from_db()
    assert (lead.first_contact_at, other.first_contact_at) == (
        aware("2026-03-01 11:00"),
        aware("2026-03-01 10:00"),
    )


def test_a_touch_before_the_lead_was_created_is_not_its_first_contact(lead, make_member):
    """workspaces.contact: the first contact is never before the lead's creation (09:00)."""
    ws = lead.workspace
    setter = make_member(ws, "setter")
    touch_upsert(
        workspace=ws, external_id="early", lead=lead, member=setter, at=aware("2026-03-01 08:59")
    )
    lead.refresh_from_db()
    assert lead.first_contact_at is None
    touch_upsert(
        workspace=ws, external_id="on-time", lead=lead, member=setter, at=aware("2026-03-01 09:00")
    )
    lead.refresh_from_db()
    assert lead.first_contact_at == aware("2026-03-01 09:00")
    # The lead moved earlier: the early touch now counts.
    lead_upsert(workspace=ws, external_id="l", created_at=aware("2026-03-01 08:30"))
    lead.refresh_from_db()
    assert lead.first_contact_at == aware("2026-03-01 08:59")


def test_replaced_follows_rescheduled_from(lead):
    ws = lead.workspace
    times = {
        "lead": lead,
        "booked_at": aware("2026-03-01 10:00"),
        "scheduled_for": aware("2026-03-03 10:00"),
    }
    first, _ = call_upsert(workspace=ws, external_id="c1", **times)
    second, _ = call_upsert(workspace=ws, external_id="c2", rescheduled_from=first, **times)
    assert Call.objects.get(pk=first.pk).replaced is True
    assert Call.objects.get(pk=second.pk).replaced is False
    call_upsert(workspace=ws, external_id="c2", **times)  # no longer a reschedule
    assert Call.objects.get(pk=first.pk).replaced is False
    with pytest.raises(RecordInvalid) as refused:
        call_upsert(workspace=ws, external_id="c1", rescheduled_from=first, **times)
    assert refused.value.field == "rescheduled_from"


def _showed_call(lead):
    """A call of the lead on 3 March, marked showed."""
    return call_upsert(
        workspace=lead.workspace,
        external_id="c",
        lead=lead,
        booked_at=aware("2026-03-01 10:00"),
        scheduled_for=aware("2026-03-03 10:00"),
        attendance="showed",
    )[0]


def test_call_outcome_is_its_latest_outcome_by_time(lead):
    ws = lead.workspace
    call = _showed_call(lead)
    outcome_upsert(
        workspace=ws,
        external_id="o2",
        call=call,
        result="closed",
        offer_made=True,
        at=aware("2026-03-05 10:00"),
    )
    outcome_upsert(
        workspace=ws, external_id="o1", call=call, result="follow_up", at=aware("2026-03-03 11:00")
    )
    call.refresh_from_db()
    assert (call.outcome, call.offer_made) == ("closed", True)
    outcome_upsert(
        workspace=ws, external_id="o1", call=call, result="follow_up", at=aware("2026-03-06 11:00")
    )
    call.refresh_from_db()
    assert (call.outcome, call.offer_made) == ("follow_up", True)
    assert calls_outcome_refresh(workspace=ws, call_ids=[]) == 0


def test_call_outcome_reason_is_its_latest_outcomes_reason(lead):
    ws = lead.workspace
    call = _showed_call(lead)

    def kept():
        return Call.objects.values_list("outcome", "outcome_reason").get(pk=call.pk)

    assert kept() == ("", "")
    outcome_upsert(
        workspace=ws,
        external_id="o1",
        call=call,
        result="no_sale",
        reason="Price",
        at=aware("2026-03-03 11:00"),
    )
    assert kept() == ("no_sale", "Price")
    # An earlier form changes neither; a later one without a reason empties it.
    outcome_upsert(
        workspace=ws,
        external_id="o0",
        call=call,
        result="no_sale",
        reason="Timing",
        at=aware("2026-03-03 10:30"),
    )
    assert kept() == ("no_sale", "Price")
    outcome_upsert(
        workspace=ws, external_id="o2", call=call, result="follow_up", at=aware("2026-03-04 11:00")
    )
    assert kept() == ("follow_up", "")
    # The same form moved later again names the reason it now carries.
    outcome_upsert(
        workspace=ws,
        external_id="o0",
        call=call,
        result="no_sale",
        reason="Spouse",
        at=aware("2026-03-05 10:30"),
    )
    assert kept() == ("no_sale", "Spouse")
    with pytest.raises(RecordInvalid) as refused:
        outcome_upsert(
            workspace=ws, external_id="o3", result="maybe", call=call, at=aware("2026-03-06 11:00")
        )
    assert refused.value.field == "result"


def _sales_of(*leads):
    rows = Lead.objects.filter(pk__in=[lead.pk for lead in leads]).values_list(
        "pk", "has_sale", "cash_collected"
    )
    found = {pk: (has_sale, cash) for pk, has_sale, cash in rows}
    return [found[lead.pk] for lead in leads]


def test_sale_and_lead_cash_follow_the_succeeded_payments(lead):
    ws = lead.workspace
    other = lead_upsert(workspace=ws, external_id="l2", created_at=aware("2026-03-01 08:00"))[0]
    when = aware("2026-03-04 10:00")
    sale, _ = sale_upsert(
        workspace=ws, external_id="s", lead=lead, closed_at=when, contract_value=300000
    )
    assert _sales_of(lead, other) == [(True, 0), (False, 0)]
    payment_upsert(workspace=ws, external_id="p1", sale=sale, paid_at=when, amount=100000)
    payment_upsert(workspace=ws, external_id="p2", sale=sale, paid_at=when, amount=25050)
    payment_upsert(
        workspace=ws, external_id="p3", sale=sale, paid_at=when, amount=70000, status="failed"
    )
    assert _sales_of(lead, other) == [(True, 125050), (False, 0)]
    sale.refresh_from_db()
    assert sale.cash_collected == 125050
    # A payment that fails after all stops counting.
    payment_upsert(
        workspace=ws, external_id="p2", sale=sale, paid_at=when, amount=25050, status="failed"
    )
    assert _sales_of(lead, other) == [(True, 100000), (False, 0)]
    sale.refresh_from_db()
    assert sale.cash_collected == 100000
    # The sale moves to the other lead, and its cash with it.
    sale_upsert(workspace=ws, external_id="s", lead=other, closed_at=when, contract_value=300000)
    assert _sales_of(lead, other) == [(False, 0), (True, 100000)]
    # The columns can be rebuilt from the records alone.
    Lead.objects.filter(pk__in=[lead.pk, other.pk]).update(has_sale=True, cash_collected=7)
    Sale.objects.filter(pk=sale.pk).update(cash_collected=7)
    assert leads_sales_refresh(workspace=ws) == 2
    assert _sales_of(lead, other) == [(False, 0), (True, 100000)]
    assert Sale.objects.get(pk=sale.pk).cash_collected == 100000


def test_a_payment_carries_its_sales_closer_and_setter(lead, make_member):
    ws = lead.workspace
    closer, other = make_member(ws, "closer"), make_member(ws, "closer")
    setter = make_member(ws, "setter")
    when = aware("2026-03-04 10:00")
    sale, _ = sale_upsert(
        workspace=ws,
        external_id="s",
        lead=lead,
        closed_at=when,
        contract_value=1000,
        closer=closer,
        setter=setter,
    )
    payment, _ = payment_upsert(workspace=ws, external_id="p", sale=sale, paid_at=when, amount=1)
    assert (payment.closer_id, payment.setter_id) == (closer.pk, setter.pk)
    sale_upsert(
        workspace=ws, external_id="s", lead=lead, closed_at=when, contract_value=1000, closer=other
    )
    payment.refresh_from_db()
    assert (payment.closer_id, payment.setter_id) == (other.pk, None)


def test_a_registration_knows_whether_its_lead_booked_after_the_event(lead):
    ws = lead.workspace
    other = lead_upsert(workspace=ws, external_id="l2", created_at=aware("2026-03-01 08:00"))[0]
    event, _ = webinar_event_upsert(
        workspace=ws, external_id="w", name="Live", starts_at=aware("2026-03-05 18:00")
    )
    registration, _ = registration_upsert(
        workspace=ws,
        external_id="r",
        event=event,
        lead=lead,
        registered_at=aware("2026-03-02 10:00"),
        joined_at=aware("2026-03-05 18:01"),
    )

    def booked_after():
        registration.refresh_from_db()
        return registration.booked_after

    assert booked_after() is False
    times = {"scheduled_for": aware("2026-03-09 10:00")}
    call_upsert(
        workspace=ws, external_id="c1", lead=lead, booked_at=aware("2026-03-04 10:00"), **times
    )
    assert booked_after() is False  # booked before the event
    call_upsert(
        workspace=ws, external_id="c2", lead=lead, booked_at=aware("2026-03-05 19:00"), **times
    )
    assert booked_after() is True
    # The event moves after that booking.
    webinar_event_upsert(
        workspace=ws, external_id="w", name="Live", starts_at=aware("2026-03-06 18:00")
    )
    assert booked_after() is False
    call_upsert(
        workspace=ws, external_id="c2", lead=lead, booked_at=aware("2026-03-06 19:00"), **times
    )
    assert booked_after() is True
    # The booking was the other lead's after all.
    call_upsert(
        workspace=ws, external_id="c2", lead=other, booked_at=aware("2026-03-06 19:00"), **times
    )
    assert booked_after() is False


def test_many_registrations_are_made_and_updated_at_once(lead, make_workspace):
    ws = lead.workspace
    other = lead_upsert(workspace=ws, external_id="l2", created_at=aware("2026-03-01 08:00"))[0]
    event, _ = webinar_event_upsert(
        workspace=ws, external_id="w", name="Live", starts_at=aware("2026-03-05 18:00")
    )
    registration_upsert(
        workspace=ws,
        external_id="r1",
        event=event,
        lead=lead,
        registered_at=aware("2026-03-02 10:00"),
    )
    registration_upsert(
        workspace=ws,
        external_id="r2",
        event=event,
        lead=other,
        registered_at=aware("2026-03-02 11:00"),
    )
    # The other lead books after the start: its new registration and its old one say so.
    call_upsert(
        workspace=ws,
        external_id="c",
        lead=other,
        booked_at=aware("2026-03-05 19:00"),
        scheduled_for=aware("2026-03-09 10:00"),
    )
    Registration.objects.filter(external_id="r2").update(booked_after=False)
    joined, left = aware("2026-03-05 18:01"), aware("2026-03-05 19:30")
    made = registrations_write(
        workspace=ws,
        registrations=[
            {
                "external_id": "r1",
                "event": event,
                "lead": lead,
                "registered_at": aware("2026-03-02 10:00"),
                "joined_at": joined,
                "left_at": left,
            },
            {
                "external_id": "r2",
                "event": event,
                "lead": other,
                "registered_at": aware("2026-03-02 11:00"),
                "joined_at": None,
                "left_at": None,
            },
            {
                "external_id": "r3",
                "event": event,
                "lead": other,
                "registered_at": aware("2026-03-05 18:05"),
                "joined_at": aware("2026-03-05 18:05"),
                "left_at": None,
            },
        ],
    )
    # r1 changed, r2 did not, r3 is new.
    assert made == (1, 1)
    assert sorted(
        Registration.objects.filter(workspace=ws).values_list(
            "external_id",
            "lead__external_id",
            "registered_at",
            "joined_at",
            "left_at",
            "booked_after",
        )
    ) == [
        ("r1", "l", aware("2026-03-02 10:00"), joined, left, False),
        ("r2", "l2", aware("2026-03-02 11:00"), None, None, True),
        ("r3", "l2", aware("2026-03-05 18:05"), aware("2026-03-05 18:05"), None, True),
    ]

    touched = set()
    assert registrations_write(
        workspace=ws,
        registrations=[
            {
                "external_id": "r1",
                "event": event,
                "lead": other,
                "registered_at": aware("2026-03-02 10:00"),
            }
        ],
        touched=touched,
    ) == (0, 1)
    assert touched == {other.pk}
    assert Registration.objects.get(external_id="r1").lead_id == other.pk

    def refused(**values):
        base = {
            "external_id": "r9",
            "event": event,
            "lead": lead,
            "registered_at": aware("2026-03-02 10:00"),
        }
        with pytest.raises(RecordInvalid) as raised:
            registrations_write(workspace=ws, registrations=[{**base, **values}])
        return raised.value.field

    assert refused(left_at=left) == "joined_at"
    assert refused(joined_at=left, left_at=joined) == "left_at"
    stranger = lead_upsert(
        workspace=make_workspace(), external_id="x", created_at=aware("2026-03-01 08:00")
    )[0]
    assert refused(lead=stranger) == "lead"
    with pytest.raises(RecordInvalid) as twice:
        registrations_write(
            workspace=ws,
            registrations=[
                {
                    "external_id": "r9",
                    "event": event,
                    "lead": lead,
                    "registered_at": aware("2026-03-02 10:00"),
                },
            ]
            * 2,
        )
    assert twice.value.field == "external_id"
    assert Registration.objects.filter(workspace=ws).count() == 3


def _progress(ws):
    return sorted(
        (lead.external_id, entered.isoformat(), depth)
        for lead, entered, depth in (
            (row.lead, row.entered_at, row.depth)
            for row in FunnelProgress.objects.filter(workspace=ws).select_related("lead")
        )
    )


def test_funnel_progress_counts_the_stages_reached_in_order(lead):
    ws = lead.workspace
    other = lead_upsert(workspace=ws, external_id="l2", created_at=aware("2026-03-01 08:00"))[0]

    def event(external_id, who, stage, when):
        funnel_event_upsert(
            workspace=ws,
            external_id=external_id,
            lead=who,
            funnel_key="vsl",
            stage_key=stage,
            at=aware(when),
        )

    # Stages are made in this order: opt-in, application, booked.
    event("e1", lead, "opt-in", "2026-03-02 10:00")
    event("e2", lead, "application", "2026-03-02 11:00")
    event("e3", other, "booked", "2026-03-02 09:00")
    assert _progress(ws) == [("l", "2026-03-02T10:00:00+00:00", 2)]
    # The other lead's booking came before it opted in: it stops at the first stage.
    event("e4", other, "opt-in", "2026-03-02 12:00")
    event("e5", other, "application", "2026-03-02 12:00")
    assert _progress(ws) == [
        ("l", "2026-03-02T10:00:00+00:00", 2),
        ("l2", "2026-03-02T12:00:00+00:00", 2),
    ]
    event("e6", lead, "booked", "2026-03-03 09:00")
    # An earlier opt-in moves the lead's entry; its later stages still follow it.
    event("e7", lead, "opt-in", "2026-03-01 10:00")
    assert _progress(ws) == [
        ("l", "2026-03-01T10:00:00+00:00", 3),
        ("l2", "2026-03-02T12:00:00+00:00", 2),
    ]
    # The application moves to the other lead: the first lead stops at opt-in.
    event("e2", other, "application", "2026-03-02 11:00")
    assert _progress(ws) == [
        ("l", "2026-03-01T10:00:00+00:00", 1),
        ("l2", "2026-03-02T12:00:00+00:00", 2),
    ]
    FunnelProgress.objects.filter(workspace=ws).delete()
    funnel_progress_refresh(workspace=ws)
    assert _progress(ws) == [
        ("l", "2026-03-01T10:00:00+00:00", 1),
        ("l2", "2026-03-02T12:00:00+00:00", 2),
    ]


def test_a_record_of_another_workspace_is_refused(lead, make_workspace):
    other = make_workspace()
    with pytest.raises(RecordInvalid) as refused:
        touch_upsert(workspace=other, external_id="t", lead=lead, at=aware("2026-03-01 10:00"))
    assert refused.value.field == "lead"
    assert Lead.objects.count() == 1


def test_an_app_report_is_the_members_one_report_of_the_day(lead, make_member):
    ws = lead.workspace
    setter = make_member(ws, "setter")
    first, created = eod_upsert(
        workspace=ws,
        external_id=None,
        member=setter,
        date=date(2026, 3, 2),
        submitted_at=aware("2026-03-02 18:00"),
        fields={"dials": 3},
    )
    assert created is True
    again, created = eod_upsert(
        workspace=ws,
        external_id=None,
        member=setter,
        date=date(2026, 3, 2),
        submitted_at=aware("2026-03-02 19:00"),
        fields={"dials": 5},
    )
    assert (created, again.pk) == (False, first.pk)
    assert list(EodReport.objects.values_list("external_id", "fields", "submitted_at")) == [
        (None, {"dials": 5}, aware("2026-03-02 19:00"))
    ]


def test_an_outcome_on_a_call_takes_its_lead_and_closer(lead, make_member):
    ws = lead.workspace
    closer = make_member(ws, "closer")
    call, _ = call_upsert(
        workspace=ws,
        external_id="c",
        lead=lead,
        booked_at=aware("2026-03-01 10:00"),
        scheduled_for=aware("2026-03-02 10:00"),
        closer=closer,
    )
    outcome, created = outcome_upsert(
        workspace=ws, external_id=None, result="no_sale", at=aware("2026-03-02 11:00"), call=call
    )
    assert created is True
    assert (outcome.lead_id, outcome.member_id, outcome.external_id) == (lead.pk, closer.pk, None)
    call.refresh_from_db()
    assert call.outcome == "no_sale"


def test_call_attendance_record_keeps_the_offer_unless_given(lead):
    ws = lead.workspace
    call, _ = call_upsert(
        workspace=ws,
        external_id="c",
        lead=lead,
        booked_at=aware("2026-03-01 10:00"),
        scheduled_for=aware("2026-03-02 10:00"),
        offer_made=True,
    )
    call_attendance_record(workspace=ws, call=call, attendance="showed")
    call.refresh_from_db()
    assert (call.attendance, call.offer_made) == ("showed", True)
    call_attendance_record(workspace=ws, call=call, attendance="no_show", offer_made=False)
    call.refresh_from_db()
    assert (call.attendance, call.offer_made) == ("no_show", False)
    with pytest.raises(RecordInvalid) as refused:
        call_attendance_record(workspace=ws, call=call, attendance="late")
    assert refused.value.field == "attendance"


def _bookings(*leads):
    return [
        tuple(Lead.objects.filter(pk=lead.pk).values_list("has_booking", "has_show").get())
        for lead in leads
    ]


def test_a_lead_is_booked_by_a_call_that_counts_and_showed_by_one_marked_so(lead):
    ws = lead.workspace
    at = aware("2026-03-02 10:00")

    def call(external_id, **values):
        return call_upsert(
            workspace=ws,
            external_id=external_id,
            lead=lead,
            booked_at=at,
            scheduled_for=aware("2026-03-03 10:00"),
            **values,
        )[0]

    assert _bookings(lead) == [(False, False)]
    first = call("c1")
    assert _bookings(lead) == [(True, False)]
    call("c1", attendance="showed")
    assert _bookings(lead) == [(True, True)]
    # Rescheduled: the first call no longer counts, its show with it.
    second = call("c2", rescheduled_from=first)
    assert _bookings(lead) == [(True, False)]
    call("c2", rescheduled_from=first, status="cancelled")
    assert _bookings(lead) == [(False, False)]
    # The second call taken back (it replaces nothing now): the first counts again.
    call("c2", status="cancelled")
    assert _bookings(lead) == [(True, True)]
    call("c1", status="cancelled", attendance="showed")
    assert _bookings(lead) == [(False, False)]
    call_attendance_record(workspace=ws, call=second, attendance="showed")
    assert _bookings(lead) == [(False, False)]  # cancelled: showed or not, it does not count
    other = lead_upsert(workspace=ws, external_id="l2", created_at=at)[0]
    calls_write_many(
        workspace=ws,
        calls=[
            {"external_id": "c3", "lead": other, "booked_at": at, "scheduled_for": at},
            {
                "external_id": "c4",
                "lead": lead,
                "booked_at": at,
                "scheduled_for": at,
                "attendance": "showed",
            },
        ],
    )
    assert _bookings(lead, other) == [(True, True), (True, False)]
    calls_write_many(
        workspace=ws,
        calls=[
            {
                "external_id": "c3",
                "lead": other,
                "booked_at": at,
                "scheduled_for": at,
                "status": "cancelled",
            },
        ],
    )
    assert _bookings(other) == [(False, False)]
