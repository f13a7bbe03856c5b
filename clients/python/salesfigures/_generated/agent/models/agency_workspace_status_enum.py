from enum import Enum


class AgencyWorkspaceStatusEnum(str, Enum):
    ACTIVE = "active"

    def __str__(self) -> str:
        return str(self.value)
