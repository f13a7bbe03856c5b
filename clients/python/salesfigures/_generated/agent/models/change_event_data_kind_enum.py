from enum import Enum


class ChangeEventDataKindEnum(str, Enum):
    OFFER = "offer"
    OTHER = "other"
    PRICE = "price"
    RULE = "rule"
    SCRIPT = "script"

    def __str__(self) -> str:
        return str(self.value)
