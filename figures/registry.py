"""The metric registry: every figure the service answers, as data.

The code, the served OpenAPI description and docs/metrics.md all read this one table.
A new metric is one entry here (with its direction of better in one of the sets that
better_of reads) and one aggregate in figures/selectors/.
"""

from dataclasses import dataclass

from workspaces.contact import DEFINITION as FIRST_CONTACT

COUNT = "count"
MONEY = "money"
RATE = "rate"
# A goal's figures are a count or money, as the goal's metric is.
COUNT_OR_MONEY = "count or money"

# unavailable.code values (Field.unavailable explains a null value).
NO_NUMERATOR = "no-numerator"
NO_DENOMINATOR = "no-denominator"
EMPTY_DENOMINATOR = "empty-denominator"
DOES_NOT_NEST = "does-not-nest"
NOT_COMPUTED = "not-computed"
UNAVAILABLE_CODES = {
    NO_NUMERATOR: "The numerator cannot be drawn from the records held.",
    NO_DENOMINATOR: "There is no set to measure against (nobody or nothing is due).",
    EMPTY_DENOMINATOR: "The denominator is zero.",
    DOES_NOT_NEST: "The records break the rule that a rate's numerator is part of its "
    "denominator (for example a sale with more cash collected than its contract value).",
    NOT_COMPUTED: "The figure cannot be computed from the configuration held (for example a "
    "member with no commission rule).",
}

# notes[].code values of the Envelope.
FIGURE_UNAVAILABLE = "figure-unavailable"
AWAITING_OUTCOME = "awaiting-outcome"
TRUNCATED = "truncated"
PERIOD_IN_FUTURE = "period-in-future"
NO_DATA_SOURCE = "no-data-source"
UNPLACED_EVENTS = "unplaced-events"
NOTE_CODES = {
    FIGURE_UNAVAILABLE: "A figure has value null; subject is its metric id and reason repeats "
    "its unavailable.reason.",
    AWAITING_OUTCOME: "Calls past their start have no attendance recorded; the show rate leaves "
    "them out. Subject calls.show_rate; the reason says how many.",
    TRUNCATED: "A list was cut by limit; the count figure still covers the whole period. "
    "Subject: the list (leads).",
    PERIOD_IN_FUTURE: "Part of the period is after now (always so when to is today): figures "
    "can still change. Subject: period.",
    NO_DATA_SOURCE: "Nothing has ever fed this figure in this workspace (no webinar event ever "
    "recorded, no funnel defined); zeros mean 'no data', not 'none happened'. Subject: webinar "
    "or funnel.",
    UNPLACED_EVENTS: "Events a connected provider sent in the period are held: they could not "
    "be placed on the records (a payment whose email matches no lead, another currency than "
    "the workspace's...), so the figures leave them out until someone assigns or dismisses "
    "them on the Integrations page. Subject: the provider's key (stripe, on /payments and "
    "/commission); the reason says how many.",
}


# The directions of better: every metric declares one (better_of), which every tile, table
# and digest reads to colour a change as good or bad news.
UP, DOWN, NEITHER = "up", "down", "neither"
DIRECTIONS = (UP, DOWN, NEITHER)


@dataclass(frozen=True)
class Metric:
    id: str
    label: str
    unit: str
    definition: str
    numerator: str | None = None
    denominator: str | None = None
    null_when: str = ""
    endpoint: str = ""
    # Which way is good news: "up" (more is better), "down" (less is better: a cost, a
    # refund, a no-show) or "neither" (a volume that is neither, as spend or calls to come).
    better: str = ""


# Less is better: costs, refunds, lost calls and what waits.
_BETTER_DOWN = {
    "calls.cancelled",
    "calls.no_show",
    "calls.awaiting_outcome",
    "outcomes.no_sale",
    "outcomes.no_show",
    "outcomes.cancelled",
    "outcomes.awaiting",
    "payments.refunded",
    "speed_to_lead.waiting",
    "acquisition.cost_per_lead",
    "acquisition.cost_per_booked_call",
    "acquisition.cost_per_show",
    "acquisition.cost_per_close",
}
# Neither: volumes whose rise is no news in itself.
_BETTER_NEITHER = {
    "calls.upcoming",
    "outcomes.follow_up",
    "outcomes.disqualified",
    "outcomes.total",
    "eod.expected",
    "acquisition.spend",
    "commission.owed",
    "goal.target",
    "goal.expected",
}


# More is better.
_BETTER_UP = {
    "calls.booked",
    "calls.taken",
    "calls.closed",
    "calls.show_rate",
    "calls.close_rate",
    "calls.offer_rate",
    "outcomes.closed",
    "outcomes.deposit",
    "payments.cash_collected",
    "payments.net_cash",
    "payments.sales",
    "payments.revenue_booked",
    "payments.average_sale",
    "payments.collection_rate",
    "leads.created",
    "speed_to_lead.contacted_rate",
    "eod.submitted",
    "eod.compliance_rate",
    "attribution.leads",
    "attribution.closes",
    "attribution.cash_collected",
    "attribution.close_rate",
    "acquisition.leads",
    "acquisition.booked",
    "acquisition.shows",
    "acquisition.closes",
    "acquisition.cash_collected",
    "acquisition.roas",
    "funnel.stage_count",
    "funnel.stage_rate",
    "webinar.registrations",
    "webinar.attended",
    "webinar.stayed_to_pitch",
    "webinar.booked",
    "webinar.attendance_rate",
    "webinar.stay_rate",
    "webinar.booking_rate",
    "goal.actual",
    "goal.attainment",
    "goal.pace",
    "goal.projected",
}
_BETTER = {
    **dict.fromkeys(_BETTER_UP, UP),
    **dict.fromkeys(_BETTER_DOWN, DOWN),
    **dict.fromkeys(_BETTER_NEITHER, NEITHER),
}


# Returns: rates that may exceed 1, which people write as a multiple (10.3 times), and whose
# change is a difference of multiples, not of percentage points.
MULTIPLE_METRICS = frozenset({"acquisition.roas"})
# Rates that may exceed 1 (a return; a goal beaten), each a fraction with both sides.
UNBOUNDED_RATES = frozenset({"acquisition.roas", "goal.attainment", "goal.pace"})


def better_of(metric_id: str) -> str:
    """The direction of better a metric declares; a metric declared in none of the three
    sets above stops the registry from loading (KeyError): no figure goes without one."""
    return _BETTER[metric_id]


def _m(endpoint, id, label, unit, definition, numerator=None, denominator=None, null_when=""):
    return Metric(
        id=id,
        label=label,
        unit=unit,
        definition=definition,
        numerator=numerator,
        denominator=denominator,
        null_when=null_when,
        endpoint=endpoint,
        better=better_of(id),
    )


_BOOKED_SET = "calls whose final scheduled start is in the period, not cancelled"

METRIC_LIST: list[Metric] = [
    # /calls
    _m(
        "/api/v1/calls",
        "calls.booked",
        "Calls booked",
        COUNT,
        "Calls whose final scheduled start is in the period and that were not cancelled. A "
        "rescheduled call counts once, at its final time; the call it replaced no longer "
        "counts anywhere. booked = taken + no_show + awaiting_outcome + upcoming.",
    ),
    _m(
        "/api/v1/calls",
        "calls.cancelled",
        "Calls cancelled",
        COUNT,
        "Calls whose final scheduled start is in the period and that were cancelled.",
    ),
    _m(
        "/api/v1/calls",
        "calls.taken",
        "Calls taken",
        COUNT,
        "Booked calls marked showed.",
    ),
    _m(
        "/api/v1/calls",
        "calls.no_show",
        "No-shows",
        COUNT,
        "Booked calls marked no-show.",
    ),
    _m(
        "/api/v1/calls",
        "calls.awaiting_outcome",
        "Calls awaiting an outcome",
        COUNT,
        "Booked calls whose start has passed with no attendance recorded.",
    ),
    _m(
        "/api/v1/calls",
        "calls.upcoming",
        "Upcoming calls",
        COUNT,
        "Booked calls that have not started yet and have no attendance recorded.",
    ),
    _m(
        "/api/v1/calls",
        "calls.closed",
        "Calls closed",
        COUNT,
        "Taken calls whose outcome (the call's latest outcome) is closed or deposit.",
    ),
    _m(
        "/api/v1/calls",
        "calls.show_rate",
        "Show rate",
        RATE,
        "Taken calls / (taken + no-shows). Calls not yet resolved (awaiting an outcome, "
        "upcoming) are left out; an awaiting-outcome note says how many are unresolved.",
        numerator="Calls taken",
        denominator="Calls taken or no-show",
        null_when="empty-denominator when no call in the period is marked showed or no-show.",
    ),
    _m(
        "/api/v1/calls",
        "calls.close_rate",
        "Close rate",
        RATE,
        "Taken calls closed (outcome closed or deposit) / taken calls.",
        numerator="Calls closed",
        denominator="Calls taken",
        null_when="empty-denominator when no call was taken.",
    ),
    _m(
        "/api/v1/calls",
        "calls.offer_rate",
        "Offer rate",
        RATE,
        "Taken calls with an offer made / taken calls.",
        numerator="Taken calls with an offer made",
        denominator="Calls taken",
        null_when="empty-denominator when no call was taken; no-numerator when no taken call "
        "has the offer recorded either way.",
    ),
    # /outcomes
    *[
        _m(
            "/api/v1/outcomes",
            f"outcomes.{key}",
            label,
            COUNT,
            text,
        )
        for key, label, text in [
            ("closed", "Closed", "Calls whose current outcome is closed, plus past-call forms."),
            ("deposit", "Deposit", "Calls whose current outcome is deposit, plus past-call forms."),
            (
                "follow_up",
                "Follow-up",
                "Calls whose current outcome is follow-up, plus past-call forms.",
            ),
            ("no_sale", "No sale", "Calls whose current outcome is no sale, plus past-call forms."),
            (
                "disqualified",
                "Disqualified",
                "Calls whose current outcome is disqualified, plus past-call forms.",
            ),
            ("no_show", "No-show", "Calls marked no-show with no outcome recorded."),
            ("cancelled", "Cancelled", "Calls cancelled."),
            (
                "awaiting",
                "Awaiting an outcome",
                "Booked calls with no outcome and no attendance recorded yet (upcoming calls "
                "included).",
            ),
        ]
    ],
    _m(
        "/api/v1/outcomes",
        "outcomes.total",
        "Outcomes",
        COUNT,
        "Every call whose final scheduled start is in the period, counted once by its current "
        "outcome, plus past-call forms dated in the period (which have no booking). The sum of "
        "the outcomes.* counts.",
    ),
    # /payments
    _m(
        "/api/v1/payments",
        "payments.cash_collected",
        "Cash collected",
        MONEY,
        "Succeeded payments paid in the period.",
    ),
    _m(
        "/api/v1/payments",
        "payments.refunded",
        "Refunded",
        MONEY,
        "Refunds and chargebacks dated in the period, whatever the date of the payment.",
    ),
    _m(
        "/api/v1/payments",
        "payments.net_cash",
        "Net cash",
        MONEY,
        "Cash collected minus refunded.",
    ),
    _m(
        "/api/v1/payments",
        "payments.sales",
        "Sales",
        COUNT,
        "Sales closed in the period.",
    ),
    _m(
        "/api/v1/payments",
        "payments.revenue_booked",
        "Revenue booked",
        MONEY,
        "Contract value (all instalments) of the sales closed in the period.",
    ),
    _m(
        "/api/v1/payments",
        "payments.average_sale",
        "Average sale",
        MONEY,
        "Revenue booked / sales, rounded to the minor unit.",
        numerator="Revenue booked",
        denominator="Sales",
        null_when="empty-denominator when no sale closed in the period.",
    ),
    _m(
        "/api/v1/payments",
        "payments.collection_rate",
        "Collection rate",
        RATE,
        "Cash collected to date (succeeded payments, whatever their date) on the sales closed "
        "in the period / their revenue booked.",
        numerator="Cash collected to date on these sales",
        denominator="Revenue booked",
        null_when="empty-denominator when no revenue was booked; does-not-nest when a sale has "
        "more cash collected than its contract value.",
    ),
    # /leads
    _m(
        "/api/v1/leads",
        "leads.created",
        "Leads created",
        COUNT,
        "Leads created in the period (the whole period, not the page).",
    ),
    # /speed-to-lead
    _m(
        "/api/v1/speed-to-lead",
        "speed_to_lead.waiting",
        "Leads waiting",
        COUNT,
        "Leads created in the last withinMinutes minutes with no first contact yet. "
        + FIRST_CONTACT,
    ),
    _m(
        "/api/v1/speed-to-lead",
        "speed_to_lead.contacted_rate",
        "Contacted",
        RATE,
        "Leads created in the last withinMinutes minutes already contacted / all of them.",
        numerator="Leads contacted",
        denominator="Leads created in the window",
        null_when="empty-denominator when no lead was created in the window.",
    ),
    # /eod
    _m(
        "/api/v1/eod",
        "eod.expected",
        "Reports due",
        COUNT,
        "Member-days on which a closer, setter or SDR was due to report: working days of the "
        "period up to today, from the day they joined when known.",
    ),
    _m(
        "/api/v1/eod",
        "eod.submitted",
        "Reports filed",
        COUNT,
        "End-of-day reports dated in the period, non-working days included.",
    ),
    _m(
        "/api/v1/eod",
        "eod.compliance_rate",
        "EOD compliance",
        RATE,
        "Due member-days with a report / due member-days.",
        numerator="Due days with a report",
        denominator="Due days",
        null_when="no-denominator when nobody was due to report in the period.",
    ),
    # /attribution
    _m(
        "/api/v1/attribution",
        "attribution.leads",
        "Leads",
        COUNT,
        "Leads created in the period with this first-touch (source, medium, campaign, "
        "content); a missing value reads (none).",
    ),
    _m(
        "/api/v1/attribution",
        "attribution.closes",
        "Closes",
        COUNT,
        "Of these leads, those with a sale (to date).",
    ),
    _m(
        "/api/v1/attribution",
        "attribution.cash_collected",
        "Cash collected",
        MONEY,
        "Succeeded payments to date on these leads' sales.",
    ),
    _m(
        "/api/v1/attribution",
        "attribution.close_rate",
        "Close rate",
        RATE,
        "Closes / leads.",
        numerator="Leads with a sale",
        denominator="Leads",
        null_when="never in practice: a row exists only for a tuple with at least one lead.",
    ),
    # /acquisition
    _m(
        "/api/v1/acquisition",
        "acquisition.spend",
        "Ad spend",
        MONEY,
        "Ad spend dated in the period (its day, a day of the workspace) with this utm_source "
        "(and utm_campaign); a missing value reads (none).",
    ),
    _m(
        "/api/v1/acquisition",
        "acquisition.leads",
        "Leads",
        COUNT,
        "Leads created in the period with this first-touch utm_source (and utm_campaign).",
    ),
    _m(
        "/api/v1/acquisition",
        "acquisition.booked",
        "Leads booked",
        COUNT,
        "Of these leads, those with at least one call that is not cancelled (to date; a call "
        "another call reschedules no longer counts, the final one does).",
    ),
    _m(
        "/api/v1/acquisition",
        "acquisition.shows",
        "Leads who showed",
        COUNT,
        "Of these leads, those with at least one call (not cancelled, not rescheduled) marked "
        "showed, to date.",
    ),
    _m(
        "/api/v1/acquisition",
        "acquisition.closes",
        "Closes",
        COUNT,
        "Of these leads, those with a sale (to date), as attribution.closes.",
    ),
    _m(
        "/api/v1/acquisition",
        "acquisition.cash_collected",
        "Cash collected",
        MONEY,
        "Succeeded payments to date on these leads' sales, as attribution.cash_collected.",
    ),
    *[
        _m(
            "/api/v1/acquisition",
            f"acquisition.cost_per_{key}",
            label,
            MONEY,
            f"Ad spend / {what}, rounded half up to the minor unit.",
            numerator="Ad spend",
            denominator=denominator,
            null_when=f"empty-denominator when {none}.",
        )
        for key, label, what, denominator, none in [
            ("lead", "Cost per lead", "leads", "Leads", "no lead was created"),
            (
                "booked_call",
                "Cost per booked call",
                "leads booked",
                "Leads booked",
                "no lead booked a call",
            ),
            ("show", "Cost per show", "leads who showed", "Leads who showed", "no lead showed"),
            ("close", "Cost per close", "closes", "Closes", "no lead closed"),
        ]
    ],
    _m(
        "/api/v1/acquisition",
        "acquisition.roas",
        "Return on ad spend",
        RATE,
        "Cash collected / ad spend, rounded half up to 4 decimals. A return, not a share: it "
        "exceeds 1 when the cash is more than the spend (2.5 is 2.50 back per 1.00 spent).",
        numerator="Cash collected",
        denominator="Ad spend",
        null_when="empty-denominator when there is no ad spend.",
    ),
    # /commission
    _m(
        "/api/v1/commission",
        "commission.owed",
        "Commission owed",
        MONEY,
        "From the member's rule (basis cash collected or revenue booked; slot closer or "
        "setter; rate a fraction): the basis amounts in the period on sales where the member "
        "holds the slot x rate, minus the same on refunds dated in the period on such sales. "
        "Cash basis: payments paid in the period, whatever the sale's date. Revenue basis: "
        "contract value of sales closed in the period. Rounded half up to the minor unit.",
        null_when="not-computed when the member has no commission rule.",
    ),
    # /funnel
    _m(
        "/api/v1/funnel",
        "funnel.stage_count",
        "Leads at stage",
        COUNT,
        "Cohort: leads whose first event at the funnel's first stage is in the period. A stage "
        "counts the cohort's leads that reached it after every earlier stage, in time order.",
    ),
    _m(
        "/api/v1/funnel",
        "funnel.stage_rate",
        "Stage conversion",
        RATE,
        "This stage's count / the previous stage's count.",
        numerator="Leads at this stage",
        denominator="Leads at the previous stage",
        null_when="no-denominator on the first stage; empty-denominator when the previous "
        "stage counts zero.",
    ),
    # /webinar
    _m(
        "/api/v1/webinar",
        "webinar.registrations",
        "Registrations",
        COUNT,
        "Cohort: registrations for the events that start in the period (or the one eventId).",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.attended",
        "Attended",
        COUNT,
        "Registrations that joined at least once.",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.stayed_to_pitch",
        "Stayed to pitch",
        COUNT,
        "Attended registrations still present at the event's pitch time: joined at or before "
        "it and not left by then.",
        null_when="no-numerator when an attended event has no pitch time.",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.booked",
        "Booked after webinar",
        COUNT,
        "Attended registrations whose lead booked a call after the event started.",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.attendance_rate",
        "Attendance rate",
        RATE,
        "Attended / registrations.",
        numerator="Attended",
        denominator="Registrations",
        null_when="empty-denominator when there is no registration.",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.stay_rate",
        "Stay rate",
        RATE,
        "Stayed to pitch / attended.",
        numerator="Stayed to pitch",
        denominator="Attended",
        null_when="no-numerator when an attended event has no pitch time; empty-denominator "
        "when nobody attended.",
    ),
    _m(
        "/api/v1/webinar",
        "webinar.booking_rate",
        "Booking rate",
        RATE,
        "Booked after the webinar / attended.",
        numerator="Booked after webinar",
        denominator="Attended",
        null_when="empty-denominator when nobody attended.",
    ),
]


_SO_FAR = (
    "the goal's metric over the month so far: to the end of today in the workspace's zone, "
    "the whole month once it is past, nothing for a month to come. A member's figure is read "
    "in their slot, as /commission reads their sales: leads.created and calls.booked as the "
    "setter, calls.taken, calls.closed, payments.cash_collected and payments.revenue_booked "
    "as the closer"
)
_PRO_RATED = "money to the cent, counts to 2 decimals, rounded half up"
METRIC_LIST += [
    # /goals
    _m(
        "/api/v1/goals",
        "goal.actual",
        "Actual",
        COUNT_OR_MONEY,
        f"The figure the goal is set on: {_SO_FAR}.",
    ),
    _m(
        "/api/v1/goals",
        "goal.target",
        "Target",
        COUNT_OR_MONEY,
        "What the goal sets for the month: a whole number, or money in major units.",
    ),
    _m(
        "/api/v1/goals",
        "goal.expected",
        "Expected by today",
        COUNT_OR_MONEY,
        "Target x elapsed / days, where days is the number of days of the month and elapsed "
        "its days through today in the workspace's zone (all of them for a past month, 0 for "
        f"a month to come); {_PRO_RATED}.",
    ),
    _m(
        "/api/v1/goals",
        "goal.attainment",
        "Attainment",
        RATE,
        "Actual / target, rounded half up to 4 decimals. It exceeds 1 when the goal is beaten.",
        numerator="Actual",
        denominator="Target",
        null_when="empty-denominator when the target is 0.",
    ),
    _m(
        "/api/v1/goals",
        "goal.pace",
        "Pace",
        RATE,
        "Actual / expected by today, rounded half up to 4 decimals: 1 is on pace, more is "
        "ahead of it. The app reads 1.05 or more as ahead, under 0.95 as behind.",
        numerator="Actual",
        denominator="Expected by today",
        null_when="empty-denominator when nothing is expected yet (a month to come, or a "
        "target of 0).",
    ),
    _m(
        "/api/v1/goals",
        "goal.projected",
        "Projected",
        COUNT_OR_MONEY,
        f"Actual x days / elapsed: where the month ends at this pace; {_PRO_RATED}. For a "
        "past month, the actual.",
        null_when="not-computed for a month to come.",
    ),
]

METRICS: dict[str, Metric] = {metric.id: metric for metric in METRIC_LIST}


def figure_keys(family: str) -> tuple[str, ...]:
    """The data members of one family's figures, in registry order: "calls" -> booked, ..."""
    prefix = f"{family}."
    return tuple(m.id.removeprefix(prefix) for m in METRIC_LIST if m.id.startswith(prefix))


def metric_label(metric_id: str, workspace=None) -> str:
    """The display label: the workspace's own label when set, else the English one."""
    if workspace is not None:
        labels = (workspace.branding or {}).get("labels") or {}
        custom = labels.get(metric_id)
        if isinstance(custom, str) and custom:
            return custom
    return METRICS[metric_id].label


# Worked examples, one per metric, rendered into docs/metrics.md.
EXAMPLES = {
    "calls.booked": "March holds 10 calls at their final time: 1 cancelled, and one moved from "
    "7 to 9 March counts once, on the 9th (the call of the 7th no longer counts); one moved "
    "from 30 March to 2 April counts in neither month. booked = 9 = 5 taken + 1 no-show + "
    "2 awaiting + 1 upcoming.",
    "calls.cancelled": "Of the 10 calls whose final start is in March, 1 was cancelled: 1.",
    "calls.taken": "5 of the 9 booked calls are marked showed: 5.",
    "calls.no_show": "1 booked call is marked no-show: 1.",
    "calls.awaiting_outcome": "Two calls of 10 and 15 March have no attendance on 20 March: 2.",
    "calls.upcoming": "On 20 March, the call of 25 March without attendance is upcoming: 1.",
    "calls.closed": "Of 5 taken calls, one closed and one took a deposit; one closed and was "
    "later changed to no sale (the latest outcome counts): 2.",
    "calls.show_rate": "5 taken, 1 no-show, 2 awaiting: 5 / 6 = 0.8333, with a note "
    "awaiting-outcome saying 2 calls are unresolved.",
    "calls.close_rate": "2 closed of 5 taken: 0.4.",
    "calls.offer_rate": "Of 5 taken calls, 1 recorded an offer, 1 recorded no offer, 3 left it "
    "blank: 1 / 5 = 0.2. If all 5 were blank: null, no-numerator.",
    "outcomes.closed": "One call closed in March plus no past-call form: 1.",
    "outcomes.deposit": "One call with a deposit: 1.",
    "outcomes.follow_up": "One call set to follow up: 1.",
    "outcomes.no_sale": "Two calls ended without a sale and one past-call form dated 13 March "
    "says no sale: 3, with reasons price 2, timing 1.",
    "outcomes.disqualified": "One past-call form dated 12 March, disqualified: 1.",
    "outcomes.no_show": "One call marked no-show: 1.",
    "outcomes.cancelled": "One call cancelled: 1.",
    "outcomes.awaiting": "Three calls with neither outcome nor attendance: 3.",
    "outcomes.total": "1 + 1 + 1 + 3 + 1 + 1 + 1 + 3 = 12.",
    "payments.cash_collected": "Payments of 1,000.00, 1,000.00 and 100.00 paid in March (a "
    "failed one of 500.00 is left out): 2100 (USD).",
    "payments.refunded": "A refund of 300.00 dated 10 April on a March payment: 0 in March, "
    "300 in April.",
    "payments.net_cash": "April: 1000 collected - 300 refunded = 700.",
    "payments.sales": "Two sales closed in March: 2.",
    "payments.revenue_booked": "Contracts of 3,000.00 and 500.00: 3500.",
    "payments.average_sale": "3500 / 2 = 1750, numerator 3500 (money), denominator 2 (sales). "
    "April, with no sale: null, empty-denominator.",
    "payments.collection_rate": "On March's two sales (3500 booked), 2100 has been collected to "
    "date (April's payments included): 0.6. A sale of 100 with 150 collected makes it null, "
    "does-not-nest.",
    "leads.created": "Three leads created in March; with limit=2 the list holds the 2 newest, "
    "leads.created is still 3, and a note truncated says so.",
    "speed_to_lead.waiting": "In the last 120 minutes: leads of 10, 30 and 90 minutes ago, the "
    "one of 30 minutes already contacted: 2 waiting, listed 90 then 10 minutes.",
    "speed_to_lead.contacted_rate": "1 contacted of 3 created in the window: 0.3333.",
    "eod.expected": "1-14 March 2026 (Monday to Friday working): a setter is due 10 days; a "
    "closer who joined on 10 March is due 4: 14.",
    "eod.submitted": "Reports on 9 (before joining), 10 and 11 March by the closer, 2 and 8 "
    "(a Sunday) March by the setter, 3 March by the owner: 6.",
    "eod.compliance_rate": "Due days with a report: closer 2 of 4, setter 1 of 10: 3 / 14 = "
    "0.2143. With no closer, setter or SDR: null, no-denominator.",
    "attribution.leads": "Two March leads from google / cpc / spring / a: 2. A lead with no "
    "UTM falls in (none) / (none) / (none) / (none).",
    "attribution.closes": "One of those two leads has sales (two of them): 1.",
    "attribution.cash_collected": "1,000.00 in March and 200.00 in May on that lead's sales: 1200.",
    "attribution.close_rate": "1 lead with a sale of 2 leads: 0.5.",
    "acquisition.spend": "Meta reports 40.00 a day for facebook / spring from 1 to 10 March, "
    "revised to 45.00 for the 10th: 405 for March. Spend with no utm_campaign falls in "
    "facebook / (none).",
    "acquisition.leads": "Ten March leads from facebook / spring (one created on 28 February "
    "is not in March's cohort, even with a sale in March): 10.",
    "acquisition.booked": "Six of them booked a call; one of those cancelled it and booked no "
    "other, one was rescheduled (it counts once): 5.",
    "acquisition.shows": "Three of the five showed: 3.",
    "acquisition.closes": "Two of them have a sale, whenever it closed: 2.",
    "acquisition.cash_collected": "3,000.00 and 1,050.00 collected to date on their sales: 4050.",
    "acquisition.cost_per_lead": "405 / 10 = 40.5, numerator 405 (money), denominator 10.",
    "acquisition.cost_per_booked_call": "405 / 5 = 81.",
    "acquisition.cost_per_show": "405 / 3 = 135.",
    "acquisition.cost_per_close": "405 / 2 = 202.5. A campaign with spend and no close: null, "
    "empty-denominator.",
    "acquisition.roas": "4050 / 405 = 10.0, numerator 4050, denominator 405 (money). Leads "
    "with no spend (organic): null, empty-denominator.",
    "commission.owed": "Rule cash collected, closer, 0.1: payments of 1000 and 500 in March on "
    "the member's sales (one closed in February), a refund of 200 in March: (1500 - 200) x 0.1 "
    "= 130. Rule revenue booked, closer, 0.075 on a 333.33 sale: 24.99975, rounded to 25. A "
    "member with no rule: null, not-computed.",
    "funnel.stage_count": "Three leads opt in during March (a fourth opted in in February: not in "
    "the cohort); two apply, one of them later books, takes and closes: 3, 2, 1, 1, 1. A lead "
    "who booked before applying counts at application only.",
    "funnel.stage_rate": "null (no-denominator), 0.6667, 0.5, 1.0, 1.0.",
    "webinar.registrations": "Six registrations for the event of 5 March: 6.",
    "webinar.attended": "Five of them joined: 5.",
    "webinar.stayed_to_pitch": "Pitch at 18:45: joined 18:00 and never left, or joined 18:45 and "
    "left 19:00, stayed; left at 18:30 or at 18:45, or joined at 18:50, did not: 2.",
    "webinar.booked": "One attendee booked a call the next day; another had booked before the "
    "event: 1.",
    "webinar.attendance_rate": "5 / 6 = 0.8333.",
    "webinar.stay_rate": "2 / 5 = 0.4. For an event with no pitch time: null, no-numerator.",
    "webinar.booking_rate": "1 / 5 = 0.2.",
    "goal.actual": "A closer's goal of 20 calls taken for June 2026, read on 10 June: 8 calls "
    "they took from 1 to 10 June: 8.",
    "goal.target": "20.",
    "goal.expected": "20 x 10 / 30 = 6.67. A goal of 5,000.00 cash in July, on 10 July: "
    "5000 x 10 / 31 = 1612.90.",
    "goal.attainment": "8 / 20 = 0.4. With a target of 0: null, empty-denominator.",
    "goal.pace": "8 / 6.67 = 1.1994: ahead. In July for June's goal (a past month), expected "
    "is the target: 8 / 20 = 0.4. For August (a month to come): null, empty-denominator.",
    "goal.projected": "8 x 30 / 10 = 24. For August: null, not-computed.",
}


# What a figure counts, in a line a page shows under its label where two figures could be
# confused (three of them speak of "closed"). Pages read it from here, beside the label the
# API answers, so a page and the API name a figure the same way.
PAGE_DEFINITIONS = {
    "calls.closed": "Calls scheduled in the period, taken, whose outcome is closed or deposit.",
    "funnel.stage_count": "Leads who entered the funnel in the period and reached this stage "
    "after every earlier one, whenever they reached it.",
    "attribution.closes": "Leads created in the period that have a sale, whenever it closed.",
    "payments.sales": "Sales closed in the period, whenever their lead was created.",
    "outcomes.closed": "Calls of the period whose latest outcome is closed.",
}
# Said once where a page shows more than one of them.
CLOSED_FIGURES_DIFFER = (
    "Why the closed numbers differ: the calls chart counts calls held in the period; the "
    "funnel follows the leads who entered it in the period; attribution counts the leads "
    "created in the period that bought, whenever. The same sale can fall in one period for "
    "one figure and in another for the next."
)
