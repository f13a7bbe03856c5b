from enum import Enum


class IntegrationsEnum(str, Enum):
    CALENDLY = "calendly"
    HUBSPOT = "hubspot"
    STRIPE = "stripe"
    ZOOM = "zoom"

    def __str__(self) -> str:
        return str(self.value)
