from enum import Enum


class ListAcquisitionBy(str, Enum):
    CAMPAIGN = "campaign"
    SOURCE = "source"

    def __str__(self) -> str:
        return str(self.value)
