"""The routes of the Agent and Agency API, as served at /openapi/agent.json: display,
board, change log, forms and drafts, ad spend writes, the agency's routes, and the workspace's webhook
endpoints (read and written)."""

from django.urls import include, path

from agentapi.record_views import AdSpendWriteRoute
from webhooks.urls import endpoints_urlpatterns

urlpatterns = [
    path("api/v1/", include("agentapi.urls")),
    # Served by config.urls_figures' entry of the same path (both methods); named here for
    # its POST, which this description holds.
    path("api/v1/ad-spend", AdSpendWriteRoute.as_view(), name="ad-spend-write"),
    path("api/v1/", include("agency.urls")),
    path("api/v1/", include(endpoints_urlpatterns)),
]
