from enum import Enum


class ApprovalEnum(str, Enum):
    REQUEST = "request"

    def __str__(self) -> str:
        return str(self.value)
