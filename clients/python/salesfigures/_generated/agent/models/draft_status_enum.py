from enum import Enum


class DraftStatusEnum(str, Enum):
    FILED = "filed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
