from enum import Enum


class StateEnum(str, Enum):
    APPLIED = "applied"
    APPROVED = "approved"
    DRAFTED = "drafted"
    REFUSED = "refused"
    WAITING_FOR_APPROVAL = "waiting_for_approval"

    def __str__(self) -> str:
        return str(self.value)
