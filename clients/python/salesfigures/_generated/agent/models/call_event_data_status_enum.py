from enum import Enum


class CallEventDataStatusEnum(str, Enum):
    CANCELLED = "cancelled"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
