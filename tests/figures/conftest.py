"""Factories for the records the figures read; they keep the models' invariants
(Call.replaced, Call.outcome = latest outcome, Lead.first_contact_at, the lead's bookings
and shows, sales and cash, funnel progress)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.conftest import aware
from workspaces.kept import (
    funnels_progress_touch,
    leads_calls_refresh,
    leads_first_contact_refresh,
    leads_sales_refresh,
    registrations_booked_refresh,
    utm_tags_ids,
    utm_tags_of,
)
from workspaces.models import (
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelStage,
    Goal,
    Lead,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
)


def at(text, tz="UTC"):
    return aware(text, tz)


class Records:
    def __init__(self, workspace):
        self.ws = workspace

    def lead(self, created="2026-03-02 10:00", *, tz="UTC", **extra):
        created_at = at(created, tz) if isinstance(created, str) else created
        tags = utm_tags_of(extra)
        extra.setdefault("utm_tags_id", utm_tags_ids(workspace=self.ws, combinations=[tags])[tags])
        return Lead.objects.create(workspace=self.ws, created_at=created_at, **extra)

    def touch(self, lead, when, *, member=None, channel="call"):
        moment = at(when) if isinstance(when, str) else when
        touch = Touch.objects.create(
            workspace=self.ws, lead=lead, member=member, channel=channel, at=moment
        )
        leads_first_contact_refresh(workspace=self.ws, lead_ids=[lead.pk])
        lead.refresh_from_db(fields=["first_contact_at"])
        return touch

    def call(self, when, *, lead=None, tz="UTC", booked=None, rescheduled_from=None, **extra):
        lead = lead or self.lead()
        scheduled_for = at(when, tz) if isinstance(when, str) else when
        booked_at = at(booked, tz) if isinstance(booked, str) else (booked or lead.created_at)
        call = Call.objects.create(
            workspace=self.ws,
            lead=lead,
            scheduled_for=scheduled_for,
            booked_at=booked_at,
            rescheduled_from=rescheduled_from,
            **extra,
        )
        if rescheduled_from is not None:
            Call.objects.filter(pk=rescheduled_from.pk).update(replaced=True)
            rescheduled_from.replaced = True
        registrations_booked_refresh(workspace=self.ws, lead_ids=[lead.pk])
        replaced_lead = rescheduled_from.lead_id if rescheduled_from is not None else None
        leads_calls_refresh(workspace=self.ws, lead_ids=[lead.pk, replaced_lead])
        return call

    def outcome(self, result, *, call=None, lead=None, member=None, when=None, **extra):
        moment = at(when) if isinstance(when, str) else when
        if moment is None:
            moment = call.scheduled_for + timedelta(hours=1)
        outcome = Outcome.objects.create(
            workspace=self.ws,
            call=call,
            lead=lead if call is None else call.lead,
            member=member,
            result=result,
            at=moment,
            **extra,
        )
        if call is not None:
            latest = Outcome.objects.filter(call=call).order_by("-at").first()
            call.outcome, call.outcome_reason = latest.result, latest.reason
            call.save(update_fields=["outcome", "outcome_reason"])
        return outcome

    def sale(self, value, when="2026-03-05 12:00", *, lead=None, tz="UTC", **extra):
        closed_at = at(when, tz) if isinstance(when, str) else when
        sale = Sale.objects.create(
            workspace=self.ws,
            lead=lead or self.lead(),
            closed_at=closed_at,
            contract_value=value,
            **extra,
        )
        leads_sales_refresh(workspace=self.ws, lead_ids=[sale.lead_id])
        return sale

    def payment(self, sale, amount, when="2026-03-05 12:00", *, tz="UTC", **extra):
        paid_at = at(when, tz) if isinstance(when, str) else when
        payment = Payment.objects.create(
            workspace=self.ws,
            sale=sale,
            amount=amount,
            paid_at=paid_at,
            closer_id=sale.closer_id,
            setter_id=sale.setter_id,
            **extra,
        )
        leads_sales_refresh(workspace=self.ws, lead_ids=[sale.lead_id])
        return payment

    def refund(self, payment, amount, when, **extra):
        moment = at(when) if isinstance(when, str) else when
        return Refund.objects.create(
            workspace=self.ws, payment=payment, sale=payment.sale, amount=amount, at=moment, **extra
        )

    def eod(self, member, day, **extra):
        return EodReport.objects.create(
            workspace=self.ws,
            member=member,
            date=date.fromisoformat(day),
            submitted_at=at(f"{day} 18:00"),
            **extra,
        )

    def webinar(self, when, *, pitch=None, name="Webinar"):
        return WebinarEvent.objects.create(
            workspace=self.ws,
            name=name,
            starts_at=at(when),
            pitch_at=at(pitch) if pitch else None,
        )

    def registration(self, event, *, lead=None, joined=None, left=None):
        registration = Registration.objects.create(
            workspace=self.ws,
            event=event,
            lead=lead or self.lead(),
            registered_at=event.starts_at - timedelta(days=1),
            joined_at=at(joined) if joined else None,
            left_at=at(left) if left else None,
        )
        registrations_booked_refresh(workspace=self.ws, lead_ids=[registration.lead_id])
        return registration

    def funnel(self, key="vsl", stages=("opt-in", "application", "booked", "taken", "closed")):
        funnel = Funnel.objects.create(workspace=self.ws, key=key, name=key.upper())
        for position, stage in enumerate(stages):
            FunnelStage.objects.create(funnel=funnel, key=stage, position=position)
        return funnel

    def funnel_event(self, funnel, lead, stage, when):
        event = FunnelEvent.objects.create(
            workspace=self.ws,
            funnel=funnel,
            lead=lead,
            stage=funnel.stages.get(key=stage),
            at=at(when) if isinstance(when, str) else when,
        )
        funnels_progress_touch(workspace=self.ws, pairs=[(funnel.pk, lead.pk)])
        return event

    def rule(self, member, *, basis="cash_collected", slot="closer", rate="0.1"):
        return CommissionRule.objects.create(
            workspace=self.ws, member=member, basis=basis, slot=slot, rate=Decimal(rate)
        )


@pytest.fixture
def records():
    return Records


@pytest.fixture
def ws(make_workspace):
    return make_workspace(timezone="UTC")


@pytest.fixture
def rec(ws):
    return Records(ws)


@pytest.fixture
def client_for(workspace_token, api):
    """An API client reading the workspace with a read token."""

    def make(workspace):
        return api(workspace_token(workspace))

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def calls_dataset(rec):
    c = {}
    c[1] = rec.call("2026-03-02 10:00", attendance="showed", offer_made=True)
    rec.outcome("closed", call=c[1])
    c[2] = rec.call("2026-03-03 10:00", attendance="showed", offer_made=False)
    rec.outcome("deposit", call=c[2])
    c[3] = rec.call("2026-03-04 10:00", attendance="showed")
    rec.outcome("no_sale", call=c[3], reason="price")
    c[4] = rec.call("2026-03-05 10:00", attendance="no_show")
    c[5] = rec.call("2026-03-06 10:00", status="cancelled")
    # Rescheduled inside the period: only the final call counts.
    c[6] = rec.call("2026-03-07 10:00")
    c[7] = rec.call("2026-03-09 10:00", rescheduled_from=c[6], attendance="showed")
    rec.outcome("follow_up", call=c[7])
    # Rescheduled into the period from February, still without attendance.
    c[8] = rec.call("2026-02-27 10:00")
    c[9] = rec.call("2026-03-10 10:00", rescheduled_from=c[8])
    # Rescheduled out of the period: neither counts.
    c[10] = rec.call("2026-03-30 10:00")
    c[11] = rec.call("2026-04-02 10:00", rescheduled_from=c[10])
    c[12] = rec.call("2026-03-25 10:00")  # after NOW: upcoming
    c[13] = rec.call("2026-03-15 10:00")  # before NOW, unmarked: awaiting
    c[14] = rec.call("2026-02-20 10:00", attendance="showed")  # outside
    # Closed first, then changed to no sale: the latest outcome counts.
    c[15] = rec.call("2026-03-11 10:00", attendance="showed")
    rec.outcome("closed", call=c[15], when="2026-03-11 11:00")
    rec.outcome("no_sale", call=c[15], when="2026-03-12 09:00", reason="timing")
    return c


# --- a month's goals (tests/figures/test_goals.py, test_goal_series.py) -----------------


@pytest.fixture
def clock(monkeypatch):
    """Sets the service's now (django.utils.timezone.now, which every "today" reads)."""

    def set_now(text, tz="UTC"):
        moment = at(text, tz)
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    return set_now


@pytest.fixture
def team(ws, rec, make_member):
    ada = make_member(ws, "closer", name="Ada")
    bo = make_member(ws, "setter", name="Bo")
    cy = make_member(ws, "closer", name="Cy")
    # June's leads: three set by Bo (one after the 10th), one with no setter; one in May.
    for created in ("2026-06-02 09:00", "2026-06-05 09:00", "2026-06-12 09:00"):
        rec.lead(created, setter=bo)
    rec.lead("2026-06-03 09:00")
    rec.lead("2026-05-20 09:00", setter=bo)
    c1 = rec.call("2026-06-03 10:00", closer=ada, setter=bo, attendance="showed")
    rec.outcome("closed", call=c1)
    c2 = rec.call("2026-06-04 10:00", closer=ada, setter=bo, attendance="showed")
    rec.outcome("no_sale", call=c2)
    rec.call("2026-06-08 10:00", closer=ada, setter=bo, attendance="no_show")
    rec.call("2026-06-09 10:00", closer=ada, setter=bo, status="cancelled")
    c5 = rec.call("2026-06-09 15:00", closer=cy, setter=bo, attendance="showed")
    rec.outcome("deposit", call=c5)
    rec.call("2026-06-20 10:00", closer=ada, setter=bo)  # to come on the 10th
    s1 = rec.sale(300000, "2026-06-03 11:00", closer=ada, setter=bo)
    rec.payment(s1, 100000, "2026-06-03 11:00")
    rec.payment(s1, 50000, "2026-06-15 11:00")
    s2 = rec.sale(200000, "2026-05-28 11:00", closer=cy)
    rec.payment(s2, 30000, "2026-05-29 11:00")
    rec.payment(s2, 20000, "2026-06-02 11:00")
    cy.is_active = False
    cy.save(update_fields=["is_active"])
    return ada, bo, cy


def goal(ws, metric, target, member=None, month=date(2026, 6, 1)):
    return Goal.objects.create(
        workspace=ws, month=month, metric=metric, member=member, target=target
    )
