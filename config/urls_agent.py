"""The routes of the Agent and Agency API, as served at /openapi/agent.json."""

from django.urls import include, path

urlpatterns = [
    path("api/v1/", include("agentapi.urls")),
    path("api/v1/", include("agency.urls")),
]
