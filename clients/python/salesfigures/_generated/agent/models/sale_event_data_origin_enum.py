from enum import Enum


class SaleEventDataOriginEnum(str, Enum):
    CALL = "call"
    DM = "dm"
    PAST_CALL = "past_call"

    def __str__(self) -> str:
        return str(self.value)
