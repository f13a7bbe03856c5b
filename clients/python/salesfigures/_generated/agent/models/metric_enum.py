from enum import Enum


class MetricEnum(str, Enum):
    ACQUISITION_BOOKED = "acquisition.booked"
    ACQUISITION_CASH_COLLECTED = "acquisition.cash_collected"
    ACQUISITION_CLOSES = "acquisition.closes"
    ACQUISITION_COST_PER_BOOKED_CALL = "acquisition.cost_per_booked_call"
    ACQUISITION_COST_PER_CLOSE = "acquisition.cost_per_close"
    ACQUISITION_COST_PER_LEAD = "acquisition.cost_per_lead"
    ACQUISITION_COST_PER_SHOW = "acquisition.cost_per_show"
    ACQUISITION_LEADS = "acquisition.leads"
    ACQUISITION_ROAS = "acquisition.roas"
    ACQUISITION_SHOWS = "acquisition.shows"
    ACQUISITION_SPEND = "acquisition.spend"
    ATTRIBUTION_CASH_COLLECTED = "attribution.cash_collected"
    ATTRIBUTION_CLOSES = "attribution.closes"
    ATTRIBUTION_CLOSE_RATE = "attribution.close_rate"
    ATTRIBUTION_LEADS = "attribution.leads"
    CALLS_AWAITING_OUTCOME = "calls.awaiting_outcome"
    CALLS_BOOKED = "calls.booked"
    CALLS_CANCELLED = "calls.cancelled"
    CALLS_CLOSED = "calls.closed"
    CALLS_CLOSE_RATE = "calls.close_rate"
    CALLS_NO_SHOW = "calls.no_show"
    CALLS_OFFER_RATE = "calls.offer_rate"
    CALLS_SHOW_RATE = "calls.show_rate"
    CALLS_TAKEN = "calls.taken"
    CALLS_UPCOMING = "calls.upcoming"
    COMMISSION_OWED = "commission.owed"
    EOD_COMPLIANCE_RATE = "eod.compliance_rate"
    EOD_EXPECTED = "eod.expected"
    EOD_SUBMITTED = "eod.submitted"
    FUNNEL_STAGE_COUNT = "funnel.stage_count"
    FUNNEL_STAGE_RATE = "funnel.stage_rate"
    GOAL_ACTUAL = "goal.actual"
    GOAL_ATTAINMENT = "goal.attainment"
    GOAL_EXPECTED = "goal.expected"
    GOAL_PACE = "goal.pace"
    GOAL_PROJECTED = "goal.projected"
    GOAL_TARGET = "goal.target"
    LEADS_CREATED = "leads.created"
    OUTCOMES_AWAITING = "outcomes.awaiting"
    OUTCOMES_CANCELLED = "outcomes.cancelled"
    OUTCOMES_CLOSED = "outcomes.closed"
    OUTCOMES_DEPOSIT = "outcomes.deposit"
    OUTCOMES_DISQUALIFIED = "outcomes.disqualified"
    OUTCOMES_FOLLOW_UP = "outcomes.follow_up"
    OUTCOMES_NO_SALE = "outcomes.no_sale"
    OUTCOMES_NO_SHOW = "outcomes.no_show"
    OUTCOMES_TOTAL = "outcomes.total"
    PAYMENTS_AVERAGE_SALE = "payments.average_sale"
    PAYMENTS_CASH_COLLECTED = "payments.cash_collected"
    PAYMENTS_COLLECTION_RATE = "payments.collection_rate"
    PAYMENTS_NET_CASH = "payments.net_cash"
    PAYMENTS_REFUNDED = "payments.refunded"
    PAYMENTS_REVENUE_BOOKED = "payments.revenue_booked"
    PAYMENTS_SALES = "payments.sales"
    SPEED_TO_LEAD_CONTACTED_RATE = "speed_to_lead.contacted_rate"
    SPEED_TO_LEAD_WAITING = "speed_to_lead.waiting"
    WEBINAR_ATTENDANCE_RATE = "webinar.attendance_rate"
    WEBINAR_ATTENDED = "webinar.attended"
    WEBINAR_BOOKED = "webinar.booked"
    WEBINAR_BOOKING_RATE = "webinar.booking_rate"
    WEBINAR_REGISTRATIONS = "webinar.registrations"
    WEBINAR_STAYED_TO_PITCH = "webinar.stayed_to_pitch"
    WEBINAR_STAY_RATE = "webinar.stay_rate"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: object) -> object:
        # A value added by the service after this client was made: kept as it came.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = value
        member._value_ = value
        return member
