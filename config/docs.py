"""The API docs pages (Swagger UI and Redoc from drf-spectacular's sidecar), under the
content security policy: their scripts and styles come from the service's static files,
none inline (Swagger UI's start-up script is fetched from the page's own address).
Redoc alone writes inline styles at run time, builds its search index in a worker made from
a blob, and shows its maker's logo: its page allows those three (never an inline script)."""

from csp.decorators import csp_update
from django.utils.decorators import method_decorator
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView


class SwaggerView(SpectacularSwaggerSplitView):
    template_name = "api_docs/swagger_ui.html"


REDOC_POLICY = {
    "style-src": ["'unsafe-inline'"],
    "worker-src": ["blob:"],
    "img-src": ["https://cdn.redoc.ly"],
}


@method_decorator(csp_update(REDOC_POLICY), name="dispatch")
class RedocView(SpectacularRedocView):
    template_name = "api_docs/redoc.html"
