"""The routes of the Read-Only Figures API, as served at /api/v1/openapi.json: the
figures and the events feed, GET only (every operation is also an MCP tool)."""

from django.urls import include, path

from webhooks.urls import events_urlpatterns

urlpatterns = [
    path("api/v1/", include("figures.urls")),
    path("api/v1/", include(events_urlpatterns)),
]
