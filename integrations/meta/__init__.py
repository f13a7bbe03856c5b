"""Meta Ads feeds the ad spend: each campaign's spend per day (docs/integrations.md)."""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
