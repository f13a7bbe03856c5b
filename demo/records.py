"""The records of a demo workspace, drawn from its own ``random.Random``: the plan of a
workspace (its currency, prices, people and scale), the names, sources and campaigns the
records draw from, and the builder that makes about four months of leads, touches,
webinars and registrations, calls, outcomes, sales and their instalments, payments,
refunds, EOD reports, funnel events, commission rules and ad spend in memory and writes
them with bulk_create.

Whether a record lies in the past or the future is drawn too (as a day offset from
today), never read from the clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from workspaces.models import (
    AdSpend,
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelStage,
    Instalment,
    Lead,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)
from workspaces.services import BULK_ORDER, records_bulk_create

DAYS = 120
FUNNEL_STAGES = ("opt-in", "application", "booked", "taken", "closed")


@dataclass(frozen=True)
class WorkspacePlan:
    key: str
    name: str
    currency: str
    timezone: str
    prices: tuple[int, ...]  # major units
    people: dict
    scale: float = 1.0
    # How the app's pages write its numbers and money.
    locale: str = "en"


UTM_SOURCES = (  # (weight, source, medium, campaign, content)
    (22, "facebook", "paid", "spring-launch", "video-a"),
    (14, "facebook", "paid", "spring-launch", "video-b"),
    (12, "google", "cpc", "brand", "search"),
    (10, "youtube", "organic", "channel", ""),
    (9, "instagram", "social", "dm-campaign", "story"),
    (8, "newsletter", "email", "weekly", ""),
    (6, "partner", "referral", "affiliates", ""),
    (19, "", "", "", ""),
)
FIRST_NAMES = (
    "Alex",
    "Jamie",
    "Taylor",
    "Jordan",
    "Casey",
    "Riley",
    "Morgan",
    "Avery",
    "Quinn",
    "Drew",
    "Sam",
    "Robin",
    "Charlie",
    "Emerson",
    "Finley",
    "Harper",
    "Kai",
    "Logan",
    "Parker",
    "Reese",
    "Rowan",
    "Sage",
    "Skyler",
    "Tatum",
    "Blake",
    "Cameron",
    "Dana",
)
LAST_NAMES = (
    "Smith",
    "Johnson",
    "Lee",
    "Brown",
    "Garcia",
    "Miller",
    "Davis",
    "Lopez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Moore",
    "Martin",
    "Jackson",
    "Thompson",
    "White",
    "Harris",
    "Clark",
    "Lewis",
    "Young",
    "Walker",
    "Hall",
    "Allen",
    "King",
    "Wright",
    "Scott",
)
# The paid campaigns of UTM_SOURCES and what their ads cost a day, in major units of the
# workspace currency (before the workspace's scale and a day's variation): the platform, the
# UTM values its ads carry, the campaign's id there and the daily budget.
AD_CAMPAIGNS = (
    ("meta", "facebook", "paid", "spring-launch", "120210000000001", 180),
    ("google", "google", "cpc", "brand", "2190000001", 70),
    ("meta", "instagram", "social", "dm-campaign", "120210000000002", 45),
)
AD_SPEND_DAYS = 91  # three months up to today
NO_SALE_REASONS = ("price", "timing", "partner decision", "not a fit", "chose a competitor")


def _pick_weighted(rng: random.Random, options):
    total = sum(option[0] for option in options)
    point = rng.random() * total
    for option in options:
        point -= option[0]
        if point < 0:
            return option[1:]
    return options[-1][1:]


class _Clock:
    """Times for day offsets from today (positive: days ago) in the workspace zone.

    Today's times are placed relative to ``anchor`` (now, floored to half an hour): a
    past one before it, a future one after it.
    """

    def __init__(self, now: datetime, tz: ZoneInfo, rng: random.Random):
        self.tz = tz
        self.rng = rng
        floored = now.replace(second=0, microsecond=0)
        self.anchor = floored - timedelta(minutes=floored.minute % 30)
        self.today = self.anchor.astimezone(tz).date()

    def local(self, day: date, minutes: int) -> datetime:
        return datetime.combine(day, time(0), tzinfo=self.tz) + timedelta(minutes=minutes)

    def on_day(self, days_ago: int, lo_hour: int, hi_hour: int, *, past: bool, step=5):
        """A time on that day between the hours; today, before or after the anchor."""
        fraction = self.rng.random()
        slots = self.rng.randint(1, 8)
        if days_ago == 0:
            delta = timedelta(minutes=30 * slots)
            return self.anchor - delta if past else self.anchor + delta
        span = (hi_hour - lo_hour) * 60 // step
        minutes = lo_hour * 60 + int(fraction * span) * step
        return self.local(self.today - timedelta(days=days_ago), minutes)

    def past(self, moment: datetime) -> datetime:
        """Kept before the anchor, so what was drawn as past stays past."""
        return min(moment, self.anchor - timedelta(minutes=1))

    def between(self, start: datetime, fraction: float) -> datetime:
        """A time between ``start`` and the anchor."""
        start = self.past(start)
        return start + (self.anchor - start) * fraction


@dataclass
class _LeadPlan:
    lead: Lead
    day: int
    first_touch: datetime | None = None
    attended_at: datetime | None = None  # start of the last webinar attended
    attended_day: int | None = None
    calls: list = field(default_factory=list)
    sales: list = field(default_factory=list)
    final_results: list = field(default_factory=list)


class RecordsBuilder:
    """Builds one workspace's records in memory, then writes them with bulk_create."""

    def __init__(self, workspace: Workspace, plan: WorkspacePlan, members: dict, rng, now):
        self.ws = workspace
        self.plan = plan
        self.m = members
        self.rng = rng
        self.clock = _Clock(now, ZoneInfo(workspace.timezone), rng)
        self.unit = 10**workspace.currency_exponent
        self.scale = plan.scale
        self.rows = {model: [] for model in BULK_ORDER}
        self.serial = 0

    def ext(self, kind: str) -> str:
        self.serial += 1
        return f"demo-{kind}-{self.serial:05d}"

    def add(self, obj):
        self.rows[type(obj)].append(obj)
        return obj

    def record(self, model, id_prefix: str, /, **fields):
        """A record of the workspace with the next demo external id, kept for the write."""
        return self.add(model(workspace=self.ws, external_id=self.ext(id_prefix), **fields))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def build(self) -> None:
        leads = self.leads()
        self.webinars(leads)
        for plan in leads:
            self.calls_of(plan)
        self.past_call_outcomes(leads)
        self.dm_closes(leads)
        for plan in leads:
            plan.lead.status = self.lead_status(plan)
        self.eod_reports()
        self.funnel(leads)
        self.commission_rules()
        self.ad_spend()

    # leads and touches

    def leads(self) -> list[_LeadPlan]:
        rng, clock, plans = self.rng, self.clock, []
        setter, sdr = self.m["setter"], self.m["sdr"]
        for day in range(DAYS, -1, -1):
            low, high = (2, 6) if self.scale >= 1 else (0, 3)
            for _ in range(rng.randint(low, high)):
                created = clock.on_day(day, 7, 23, past=True, step=1)
                source, medium, campaign, content = _pick_weighted(rng, UTM_SOURCES)
                first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
                external_id = self.ext("lead")
                lead = self.add(
                    Lead(
                        workspace=self.ws,
                        external_id=external_id,
                        name=f"{first} {last}",
                        email=f"{first}.{last}.{external_id[-5:]}@example.net".lower(),
                        created_at=created,
                        setter=setter if self.chance(0.7) else sdr,
                        utm_source=source,
                        utm_medium=medium,
                        utm_campaign=campaign,
                        utm_content=content,
                    )
                )
                plan = _LeadPlan(lead=lead, day=day)
                self.touches(plan)
                plans.append(plan)
        return plans

    def touches(self, plan: _LeadPlan) -> None:
        rng, clock, lead = self.rng, self.clock, plan.lead
        contacted = self.chance(0.45 if plan.day == 0 else 0.86)
        delay = timedelta(minutes=1 + int(rng.expovariate(1 / 70)))
        automated = self.chance(0.5)
        follow_ups = [timedelta(hours=rng.uniform(2, 96)) for _ in range(rng.randint(0, 2))]
        channel = rng.choice(("phone", "sms", "dm", "email"))
        if automated:
            self.touch(lead, None, "email", clock.past(lead.created_at + timedelta(minutes=1)))
        if not contacted:
            return
        plan.first_touch = clock.past(lead.created_at + delay)
        lead.first_contact_at = plan.first_touch
        self.touch(lead, lead.setter, channel, plan.first_touch)
        for gap in follow_ups:
            self.touch(lead, lead.setter, channel, clock.past(plan.first_touch + gap))

    def touch(self, lead, member, channel, at) -> None:
        self.record(Touch, "touch", lead=lead, member=member, channel=channel, at=at)

    # webinars

    def webinars(self, plans: list[_LeadPlan]) -> None:
        rng, clock = self.rng, self.clock
        days = (113, 99, 85, 71, 57, 43, 29, 15, 4, -5)
        if self.scale < 1:
            days = days[1::3]
        by_day: dict[int, list[_LeadPlan]] = {}
        for plan in plans:
            by_day.setdefault(plan.day, []).append(plan)
        for number, event_day in enumerate(days, start=1):
            starts = clock.local(clock.today - timedelta(days=event_day), 18 * 60)
            # The event of 57 days ago ran without a pitch time.
            pitch = None if event_day == 57 else starts + timedelta(minutes=50)
            event = self.record(
                WebinarEvent,
                "webinar",
                name=f"Masterclass #{number}",
                starts_at=starts,
                pitch_at=pitch,
            )
            window = range(event_day + 1, event_day + 13) if event_day > 0 else range(0, 11)
            for day in window:
                for plan in by_day.get(day, ()):
                    if not self.chance(0.35 if event_day > 0 else 0.3):
                        continue
                    fraction = rng.uniform(0.05, 0.9)
                    joined = left = None
                    if event_day > 0:
                        registered = (
                            plan.lead.created_at + (starts - plan.lead.created_at) * fraction
                        )
                        if self.chance(0.6):
                            joined = starts + timedelta(minutes=rng.randint(-5, 15))
                            left = joined + timedelta(minutes=rng.randint(10, 110))
                            plan.attended_at, plan.attended_day = starts, event_day
                    else:
                        registered = clock.between(plan.lead.created_at, fraction)
                    self.record(
                        Registration,
                        "registration",
                        event=event,
                        lead=plan.lead,
                        registered_at=registered,
                        joined_at=joined,
                        left_at=left,
                    )

    # calls, outcomes, sales

    def calls_of(self, plan: _LeadPlan) -> None:
        if plan.first_touch is None:
            return
        rng = self.rng
        attended = plan.attended_at is not None
        if not self.chance(0.6 if attended else 0.42):
            return
        base_day, base_time = plan.day, plan.first_touch
        if attended and plan.attended_day < base_day:
            base_day = plan.attended_day
            base_time = max(base_time, plan.attended_at + timedelta(minutes=75))
        sched_day = base_day - rng.randint(2, 8)
        booked = base_time + timedelta(minutes=rng.randint(5, 600))
        closer = self.m["closer"] if self.chance(0.8) else self.m["manager"]
        self.call(plan, booked, sched_day, closer, rescheduled_from=None)

    def call(self, plan, booked, sched_day, closer, rescheduled_from) -> Call:
        rng, clock = self.rng, self.clock
        later_today = self.chance(0.5)
        past = sched_day > 0 or (sched_day == 0 and not later_today)
        scheduled = clock.on_day(sched_day, 9, 18, past=past, step=30)
        booked = clock.past(min(booked, scheduled - timedelta(hours=2)))
        booked = max(booked, plan.lead.created_at)
        call = self.record(
            Call,
            "call",
            lead=plan.lead,
            booked_at=booked,
            scheduled_for=scheduled,
            closer=closer,
            setter=plan.lead.setter,
            rescheduled_from=rescheduled_from,
        )
        plan.calls.append(call)
        draw = rng.random()
        if not past:
            if draw < 0.05:
                call.status = Call.Status.CANCELLED
            return call
        if draw < 0.08:
            call.status = Call.Status.CANCELLED
        elif draw < 0.19 and rescheduled_from is None:
            call.replaced = True
            moved = scheduled - timedelta(hours=rng.randint(2, 30))
            self.call(plan, moved, sched_day - rng.randint(1, 5), closer, rescheduled_from=call)
        elif self.chance(0.3 if sched_day <= 4 else 0.02):
            pass  # awaiting outcome: started, attendance not recorded yet
        elif self.chance(0.2):
            call.attendance = Call.Attendance.NO_SHOW
        else:
            call.attendance = Call.Attendance.SHOWED
            self.outcomes_of(plan, call)
        return call

    def outcomes_of(self, plan: _LeadPlan, call: Call) -> None:
        rng, clock = self.rng, self.clock
        offer_draw = rng.random()
        offer_made = True if offer_draw < 0.8 else (False if offer_draw < 0.95 else None)
        result = _pick_weighted(
            rng,
            (
                (25, "closed"),
                (7, "deposit"),
                (20, "follow_up"),
                (35, "no_sale"),
                (13, "disqualified"),
            ),
        )[0]
        at = clock.past(call.scheduled_for + timedelta(minutes=55))
        latest = self.outcome(call, plan.lead, call.closer, result, offer_made, at)
        if result == "follow_up" and self.chance(0.4):
            at = clock.between(at, rng.uniform(0.2, 0.6))
            result = "closed" if self.chance(0.5) else "no_sale"
            latest = self.outcome(call, plan.lead, call.closer, result, offer_made, at)
        call.outcome = result
        call.outcome_reason = latest.reason
        call.offer_made = offer_made
        plan.final_results.append(result)
        if result in ("closed", "deposit"):
            self.sale(plan, at, call=call, closer=call.closer, deposit=result == "deposit")

    def outcome(self, call, lead, member, result, offer_made, at) -> Outcome:
        return self.record(
            Outcome,
            "outcome",
            call=call,
            lead=lead,
            member=member,
            result=result,
            offer_made=offer_made,
            reason=self.rng.choice(NO_SALE_REASONS) if result == "no_sale" else "",
            at=at,
        )

    def sale(self, plan, closed_at, *, call=None, closer=None, origin="call", deposit=False):
        rng, clock = self.rng, self.clock
        value = rng.choice(self.plan.prices) * self.unit
        payment_plan = (
            "split"
            if deposit
            else _pick_weighted(rng, ((40, "paid_in_full"), (45, "split"), (15, "financed")))[0]
        )
        sale = self.record(
            Sale,
            "sale",
            lead=plan.lead,
            call=call,
            origin=origin,
            closed_at=closed_at,
            closer=closer,
            setter=plan.lead.setter,
            contract_value=value,
            payment_plan=payment_plan,
        )
        plan.sales.append(sale)
        closed_day = closed_at.astimezone(clock.tz).date()
        if payment_plan == "split":
            parts = 4 if deposit else 3
            first = value - (value // parts) * (parts - 1)
            amounts = [first] + [value // parts] * (parts - 1)
        else:
            amounts = [value]
        payments = []
        for index, amount in enumerate(amounts):
            due = closed_day + timedelta(days=30 * index)
            self.add(Instalment(sale=sale, due_date=due, amount=amount))
            failed = self.chance(0.08)
            retry = self.chance(0.6)
            minutes = rng.randint(0, 8 * 60)
            if index == 0:
                paid_at = clock.past(closed_at + timedelta(minutes=2))
            elif due < clock.today:
                paid_at = clock.local(due, 9 * 60 + minutes)
            else:
                continue  # not due yet
            status = "failed" if failed else "succeeded"
            payments.append(self.payment(sale, paid_at, amount, status))
            if failed and retry:
                payments.append(
                    self.payment(sale, clock.between(paid_at, 0.3), amount, "succeeded")
                )
        if self.chance(0.07):
            paid = [p for p in payments if p.status == "succeeded"]
            if paid:
                payment = paid[0]
                amount = payment.amount if self.chance(0.7) else payment.amount // 2
                kind = "chargeback" if self.chance(0.25) else "refund"
                self.record(
                    Refund,
                    "refund",
                    payment=payment,
                    sale=sale,
                    kind=kind,
                    at=clock.between(payment.paid_at, rng.uniform(0.1, 0.8)),
                    amount=amount,
                )
        return sale

    def payment(self, sale, paid_at, amount, status) -> Payment:
        return self.record(
            Payment,
            "payment",
            sale=sale,
            paid_at=paid_at,
            amount=amount,
            status=status,
            closer_id=sale.closer_id,
            setter_id=sale.setter_id,
        )

    def _uncalled(self, plans, min_day):
        return [
            p for p in plans if p.first_touch and not p.calls and not p.sales and p.day >= min_day
        ]

    def past_call_outcomes(self, plans) -> None:
        """Calls held outside the calendar, filed afterwards: no booking behind them."""
        rng, clock = self.rng, self.clock
        candidates = self._uncalled(plans, 3)
        for plan in rng.sample(candidates, min(len(candidates), int(12 * self.scale))):
            member = self.m["closer"] if self.chance(0.7) else self.m["manager"]
            at = clock.between(plan.first_touch, rng.uniform(0.05, 0.5))
            result = _pick_weighted(rng, ((40, "closed"), (40, "no_sale"), (20, "follow_up")))[0]
            self.outcome(None, plan.lead, member, result, True, at)
            plan.final_results.append(result)
            if result == "closed":
                self.sale(plan, at, closer=member, origin="past_call")

    def dm_closes(self, plans) -> None:
        rng, clock = self.rng, self.clock
        candidates = self._uncalled(plans, 2)
        for plan in rng.sample(candidates, min(len(candidates), int(6 * self.scale))):
            at = clock.between(plan.first_touch, rng.uniform(0.05, 0.4))
            self.sale(plan, at, origin="dm")

    @staticmethod
    def lead_status(plan: _LeadPlan) -> str:
        if plan.sales:
            return "won"
        if plan.final_results and plan.final_results[-1] in ("no_sale", "disqualified"):
            return "lost"
        if plan.calls:
            return "booked"
        return "contacted" if plan.first_touch else "new"

    # reports, funnel, commission

    def eod_reports(self) -> None:
        rng, clock = self.rng, self.clock
        working = set(self.ws.working_days)
        for role in ("closer", "setter", "sdr"):
            member = self.m[role]
            for days_ago in range(DAYS, -1, -1):
                day = clock.today - timedelta(days=days_ago)
                due = day.weekday() in working
                filed = self.chance(0.3 if days_ago == 0 else (0.86 if due else 0.05))
                submitted = clock.on_day(days_ago, 17, 21, past=True)
                counts = [rng.randint(0, 12) for _ in range(3)]
                if not filed or (member.joined_at and day < member.joined_at):
                    continue
                if role == "closer":
                    fields = {
                        "calls_taken": counts[0],
                        "offers_made": counts[1] % 6,
                        "closes": counts[2] % 3,
                    }
                else:
                    fields = {
                        "dials": counts[0] * 8,
                        "conversations": counts[1] * 2,
                        "calls_booked": counts[2] % 5,
                    }
                fields["notes"] = rng.choice(
                    ("", "Good day.", "Slow afternoon.", "Lots of follow-ups.")
                )
                self.record(
                    EodReport, "eod", member=member, date=day, submitted_at=submitted, fields=fields
                )

    def funnel(self, plans) -> None:
        rng, clock = self.rng, self.clock
        funnel = self.add(Funnel(workspace=self.ws, key="vsl", name="VSL funnel"))
        stages = {
            key: self.add(FunnelStage(funnel=funnel, key=key, position=position))
            for position, key in enumerate(FUNNEL_STAGES)
        }
        for plan in plans:
            lead = plan.lead
            opted_in = bool(lead.utm_source) or self.chance(0.5)
            applied = self.chance(0.55)
            gap = timedelta(minutes=rng.randint(3, 90))
            if not opted_in:
                continue
            reached = [("opt-in", lead.created_at)]
            if applied:
                applied_at = clock.past(lead.created_at + gap)
                if plan.calls:
                    applied_at = min(applied_at, plan.calls[0].booked_at)
                reached.append(("application", applied_at))
            if plan.calls:
                reached.append(("booked", plan.calls[0].booked_at))
            taken = [c for c in plan.calls if c.attendance == Call.Attendance.SHOWED]
            if taken:
                reached.append(("taken", taken[0].scheduled_for))
            if plan.sales:
                reached.append(("closed", plan.sales[0].closed_at))
            for key, at in reached:
                self.record(
                    FunnelEvent, "funnel-event", lead=lead, funnel=funnel, stage=stages[key], at=at
                )

    def commission_rules(self) -> None:
        # The SDR reports but has no rule: their commission is not computed.
        for role, basis, slot, rate in (
            ("closer", "cash_collected", "closer", "0.1000"),
            ("manager", "cash_collected", "closer", "0.0500"),
            ("setter", "revenue_booked", "setter", "0.0300"),
        ):
            self.record(
                CommissionRule,
                "commission-rule",
                member=self.m[role],
                basis=basis,
                slot=slot,
                rate=rate,
            )

    def ad_spend(self) -> None:
        """A day's spend of each paid campaign, for the last three months, carrying the UTM
        values its leads carry (so /acquisition sets them side by side)."""
        for days_ago in range(AD_SPEND_DAYS - 1, -1, -1):
            day = self.clock.today - timedelta(days=days_ago)
            for platform, source, medium, campaign, campaign_id, budget in AD_CAMPAIGNS:
                major = budget * self.scale * self.rng.uniform(0.75, 1.25)
                self.add(
                    AdSpend(
                        workspace=self.ws,
                        external_id=f"demo-{platform}-{campaign_id}-{day.isoformat()}",
                        date=day,
                        platform=platform,
                        utm_source=source,
                        utm_medium=medium,
                        utm_campaign=campaign,
                        campaign_id=campaign_id,
                        campaign_name=campaign,
                        impressions=int(major * self.rng.uniform(40, 60)),
                        clicks=int(major * self.rng.uniform(0.8, 1.6)),
                        amount=round(major * self.unit),
                    )
                )

    def write(self) -> dict:
        return records_bulk_create(workspace=self.ws, rows=self.rows)
