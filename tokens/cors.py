"""CORS for embedded apps: a browser origin is allowed when some workspace lists it.

django-cors-headers asks ``check_request_enabled`` for every request; this answers True
only for the API and OAuth paths and only for an origin listed in some active
workspace's embedded-apps settings. Which workspace a request reaches is known only
once its token is read; core.views then refuses an origin that workspace does not list.
"""

import re

from django.conf import settings
from django.db import connection

from workspaces.models import Workspace

_CACHE_ATTRIBUTE = "_embedded_origin_allowed"


def origin_is_listed(origin: str) -> bool:
    """Whether any active workspace lists this origin among its embedded-app origins."""
    origin = origin.rstrip("/")
    if connection.vendor == "postgresql":
        return Workspace.active.filter(embedded_origins__contains=[origin]).exists()
    # SQLite has no JSON containment; the embedded default has a handful of workspaces.
    for origins in Workspace.active.exclude(embedded_origins=[]).values_list(
        "embedded_origins", flat=True
    ):
        if origin in {str(listed).rstrip("/") for listed in origins or []}:
            return True
    return False


def cors_allow_listed_origins(sender, request, **kwargs) -> bool:
    """Receiver of corsheaders' check_request_enabled signal."""
    cached = getattr(request, _CACHE_ATTRIBUTE, None)
    if cached is not None:
        return cached
    origin = request.headers.get("origin")
    allowed = bool(
        origin
        and re.match(settings.CORS_URLS_REGEX, request.path_info)
        and origin_is_listed(origin)
    )
    setattr(request, _CACHE_ATTRIBUTE, allowed)
    return allowed
