from enum import Enum


class EventTypeEnum(str, Enum):
    AD_SPEND_UPDATED = "ad_spend.updated"
    CALL_BOOKED = "call.booked"
    CALL_CANCELLED = "call.cancelled"
    CALL_OUTCOME_RECORDED = "call.outcome_recorded"
    CALL_RESCHEDULED = "call.rescheduled"
    CHANGE_CREATED = "change.created"
    EOD_SUBMITTED = "eod.submitted"
    GOAL_UPDATED = "goal.updated"
    INTEGRATION_FAILING = "integration.failing"
    LEAD_CREATED = "lead.created"
    LEAD_UPDATED = "lead.updated"
    MEMBER_ADDED = "member.added"
    MEMBER_REMOVED = "member.removed"
    PAYMENT_FAILED = "payment.failed"
    PAYMENT_REFUNDED = "payment.refunded"
    PAYMENT_SUCCEEDED = "payment.succeeded"
    PLAN_APPLIED = "plan.applied"
    SALE_CLOSED = "sale.closed"

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
