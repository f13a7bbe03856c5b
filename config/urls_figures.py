"""The routes of the Read-Only Figures API, as served at /api/v1/openapi.json: the
figures, and the outbound webhooks' endpoints and events feed."""

from django.urls import include, path

urlpatterns = [
    path("api/v1/", include("figures.urls")),
    path("api/v1/", include("webhooks.urls")),
]
