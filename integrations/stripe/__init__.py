"""Stripe feeds payments: charges, refunds and lost disputes (docs/integrations.md).

``import stripe`` in these modules is the Stripe library: imports are absolute, and this
package is ``integrations.stripe``.
"""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
