"""HubSpot feeds the leads: contacts created or changed (docs/integrations.md).

``import hubspot`` in these modules is HubSpot's library: imports are absolute, and this
package is ``integrations.hubspot``.
"""

from .provider import PROVIDER

__all__ = ["PROVIDER"]
