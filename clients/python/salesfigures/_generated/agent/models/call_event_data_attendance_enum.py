from enum import Enum


class CallEventDataAttendanceEnum(str, Enum):
    NO_SHOW = "no_show"
    SHOWED = "showed"

    def __str__(self) -> str:
        return str(self.value)
