from enum import Enum


class FormEnum(str, Enum):
    DM_CLOSE = "dm-close"
    EOD = "eod"
    PAST_CALL = "past-call"
    POST_CALL = "post-call"

    def __str__(self) -> str:
        return str(self.value)
