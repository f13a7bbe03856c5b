"""Calendly feeds bookings: invitees become leads and calls (docs/integrations.md)."""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
