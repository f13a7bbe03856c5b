"""Calendly feeds bookings: invitees become leads and calls (PRODUCT.md section 10)."""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
