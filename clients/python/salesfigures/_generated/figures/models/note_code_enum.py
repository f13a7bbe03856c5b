from enum import Enum


class NoteCodeEnum(str, Enum):
    AWAITING_OUTCOME = "awaiting-outcome"
    FIGURE_UNAVAILABLE = "figure-unavailable"
    NO_DATA_SOURCE = "no-data-source"
    PERIOD_IN_FUTURE = "period-in-future"
    TRUNCATED = "truncated"
    UNPLACED_EVENTS = "unplaced-events"

    def __str__(self) -> str:
        return str(self.value)
