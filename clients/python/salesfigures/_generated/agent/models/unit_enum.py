from enum import Enum


class UnitEnum(str, Enum):
    COUNT = "count"
    MONEY = "money"
    RATE = "rate"

    def __str__(self) -> str:
        return str(self.value)
