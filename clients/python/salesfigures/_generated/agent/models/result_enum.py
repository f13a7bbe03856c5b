from enum import Enum


class ResultEnum(str, Enum):
    CLOSED = "closed"
    DEPOSIT = "deposit"
    DISQUALIFIED = "disqualified"
    FOLLOW_UP = "follow_up"
    NO_SALE = "no_sale"

    def __str__(self) -> str:
        return str(self.value)
