from enum import Enum


class SaleEventDataPaymentPlanEnum(str, Enum):
    FINANCED = "financed"
    PAID_IN_FULL = "paid_in_full"
    SPLIT = "split"

    def __str__(self) -> str:
        return str(self.value)
