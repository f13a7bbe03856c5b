"""The routes of the Agent and Agency API, as served at /openapi/agent.json: display,
board, change log, forms and drafts, the agency's routes, and the workspace's webhook
endpoints (read and written)."""

from django.urls import include, path

from webhooks.urls import endpoints_urlpatterns

urlpatterns = [
    path("api/v1/", include("agentapi.urls")),
    path("api/v1/", include("agency.urls")),
    path("api/v1/", include(endpoints_urlpatterns)),
]
