"""Zoom feeds webinars: webinar events, registrations and attendance (PRODUCT.md section 10)."""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
