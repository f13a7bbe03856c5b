from enum import Enum


class UnavailableCodeEnum(str, Enum):
    DOES_NOT_NEST = "does-not-nest"
    EMPTY_DENOMINATOR = "empty-denominator"
    NOT_COMPUTED = "not-computed"
    NO_DENOMINATOR = "no-denominator"
    NO_NUMERATOR = "no-numerator"

    def __str__(self) -> str:
        return str(self.value)
