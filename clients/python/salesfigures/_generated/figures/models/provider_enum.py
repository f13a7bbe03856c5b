from enum import Enum


class ProviderEnum(str, Enum):
    CALENDLY = "calendly"
    HUBSPOT = "hubspot"
    STRIPE = "stripe"
    ZOOM = "zoom"

    def __str__(self) -> str:
        return str(self.value)
