from enum import Enum


class PlanChangeStatusEnum(str, Enum):
    APPLIED = "applied"
    BLOCKED = "blocked"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
