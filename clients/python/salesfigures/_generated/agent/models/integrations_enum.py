from enum import Enum


class IntegrationsEnum(str, Enum):
    CALENDLY = "calendly"
    GOOGLE = "google"
    HUBSPOT = "hubspot"
    META = "meta"
    STRIPE = "stripe"
    ZOOM = "zoom"

    def __str__(self) -> str:
        return str(self.value)
