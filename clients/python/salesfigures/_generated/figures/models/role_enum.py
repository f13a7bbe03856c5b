from enum import Enum


class RoleEnum(str, Enum):
    ADMIN = "admin"
    CLOSER = "closer"
    MANAGER = "manager"
    OWNER = "owner"
    SDR = "sdr"
    SETTER = "setter"

    def __str__(self) -> str:
        return str(self.value)
