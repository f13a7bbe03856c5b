from enum import Enum


class RefundKindEnum(str, Enum):
    CHARGEBACK = "chargeback"
    REFUND = "refund"

    def __str__(self) -> str:
        return str(self.value)
