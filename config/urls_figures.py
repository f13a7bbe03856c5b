"""The routes of the Read-Only Figures API, as served at /api/v1/openapi.json."""

from django.urls import include, path

urlpatterns = [path("api/v1/", include("figures.urls"))]
