from enum import Enum


class AccessEnum(str, Enum):
    READ_ONLY = "read-only"

    def __str__(self) -> str:
        return str(self.value)
