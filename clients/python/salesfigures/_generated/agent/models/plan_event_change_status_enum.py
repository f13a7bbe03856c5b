from enum import Enum


class PlanEventChangeStatusEnum(str, Enum):
    APPLIED = "applied"
    BLOCKED = "blocked"

    def __str__(self) -> str:
        return str(self.value)
