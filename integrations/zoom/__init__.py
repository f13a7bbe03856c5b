"""Zoom feeds webinars: webinar events, registrations and attendance (docs/integrations.md)."""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
