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

    @classmethod
    def _missing_(cls, value: object) -> object:
        # A value added by the service after this client was made: kept as it came.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = value
        member._value_ = value
        return member
