"""Stripe feeds payments: charges, refunds and lost disputes (PRODUCT.md section 10).

``import stripe`` in these modules is the Stripe library: imports are absolute, and this
package is ``integrations.stripe``.
"""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
