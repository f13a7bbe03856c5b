from enum import Enum


class StateEnum(str, Enum):
    APPLIED = "applied"
    APPROVED = "approved"
    DRAFTED = "drafted"
    REFUSED = "refused"
    WAITING_FOR_APPROVAL = "waiting_for_approval"

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
