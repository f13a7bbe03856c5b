from enum import Enum


class GetSeriesMetric(str, Enum):
    ACQUISITION_COST_PER_LEAD = "acquisition.cost_per_lead"
    ACQUISITION_ROAS = "acquisition.roas"
    ACQUISITION_SPEND = "acquisition.spend"
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
