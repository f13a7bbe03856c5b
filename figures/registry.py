"""The metric registry: every figure the service answers, as data.

The code, the served OpenAPI description and docs/metrics.md all read this one table.
A new metric is one entry here and one aggregate in figures/selectors.py.
"""

from dataclasses import dataclass

COUNT = "count"
MONEY = "money"
RATE = "rate"

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
NOTE_CODES = {
    FIGURE_UNAVAILABLE: "A figure has value null; subject is its metric id and reason repeats "
    "its unavailable.reason.",
    AWAITING_OUTCOME: "Calls past their start have no attendance recorded; rates that need "
    "attendance leave them out. The reason says how many.",
    TRUNCATED: "A list was cut by limit; the count figure still covers the whole period.",
    PERIOD_IN_FUTURE: "Part of the period is after now: figures can still change.",
    NO_DATA_SOURCE: "Nothing has ever fed this figure in this workspace (for example no webinar "
    "event ever recorded); zeros mean 'no data', not 'none happened'.",
}


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
        "Leads created in the last withinMinutes minutes with no first contact yet.",
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

METRICS: dict[str, Metric] = {metric.id: metric for metric in METRIC_LIST}


def metric_label(metric_id: str, workspace=None) -> str:
    """The display label: the workspace's own label when set, else the English one."""
    if workspace is not None:
        labels = (workspace.branding or {}).get("labels") or {}
        custom = labels.get(metric_id)
        if isinstance(custom, str) and custom:
            return custom
    return METRICS[metric_id].label
