from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView

from core.metrics import metrics_view

from . import openapi, views
from .docs import RedocView, SwaggerView

figures_schema = SpectacularJSONAPIView.as_view(
    urlconf="config.urls_figures", custom_settings=openapi.FIGURES
)
agent_schema = SpectacularJSONAPIView.as_view(
    urlconf="config.urls_agent", custom_settings=openapi.AGENT
)

urlpatterns = [
    path("api/v1/openapi.json", figures_schema, name="schema-figures"),
    path("openapi/agent.json", agent_schema, name="schema-agent"),
    path("api/docs/", SwaggerView.as_view(url_name="schema-figures"), name="docs-figures"),
    path(
        "api/docs/agent/",
        SwaggerView.as_view(url_name="schema-agent"),
        name="docs-agent",
    ),
    path("api/redoc/", RedocView.as_view(url_name="schema-figures"), name="redoc"),
    path("", include("config.urls_figures")),
    path("", include("config.urls_agent")),
    path("admin/", admin.site.urls),
    # Prometheus' scrape (METRICS_TOKEN); /healthz and /readyz are core.health's middleware.
    path("metrics", metrics_view, name="metrics"),
    # Sign-in, OAuth and the workspace settings pages.
    path("", include("tokens.urls")),
    path("", include("accounts.urls")),
    # The agency console and the connect-link page.
    path("", include("agency.page_urls")),
    # Providers' webhooks, one endpoint per connection.
    path("", include("integrations.urls")),
    path("", include("integrations.page_urls")),
    # Outbound webhooks: the Webhooks settings pages.
    path("", include("webhooks.page_urls")),
    # Digests and alerts: the Notifications page, a member's choices, unsubscribe links.
    path("", include("notifications.urls")),
    # The figures in the app: overview, boards and a lead's journey.
    path("", include("dashboard.urls")),
    # Filing work in the app: the forms as pages, and a member's drafts.
    path("", include("agentapi.page_urls")),
    # Pages that name no icon (the API docs) and older browsers ask for /favicon.ico.
    path("favicon.ico", views.favicon, name="favicon"),
    path("", views.home, name="home"),
]

handler400 = "config.views.bad_request"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
