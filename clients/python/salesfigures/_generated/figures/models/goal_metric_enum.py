from enum import Enum


class GoalMetricEnum(str, Enum):
    CALLS_BOOKED = "calls.booked"
    CALLS_CLOSED = "calls.closed"
    CALLS_TAKEN = "calls.taken"
    LEADS_CREATED = "leads.created"
    PAYMENTS_CASH_COLLECTED = "payments.cash_collected"
    PAYMENTS_REVENUE_BOOKED = "payments.revenue_booked"

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
