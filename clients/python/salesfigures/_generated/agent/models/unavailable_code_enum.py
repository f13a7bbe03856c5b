from enum import Enum


class UnavailableCodeEnum(str, Enum):
    DOES_NOT_NEST = "does-not-nest"
    EMPTY_DENOMINATOR = "empty-denominator"
    NOT_COMPUTED = "not-computed"
    NO_DENOMINATOR = "no-denominator"
    NO_NUMERATOR = "no-numerator"

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
