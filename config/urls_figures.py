"""The routes of the Read-Only Figures API, as served at /api/v1/openapi.json: the
figures, the ad spend records and the events feed, GET only (every operation is also an MCP tool)."""

from django.urls import include, path

from agentapi.record_views import AdSpendReadRoute
from webhooks.urls import events_urlpatterns

urlpatterns = [
    path("api/v1/", include("figures.urls")),
    path("api/v1/", include(events_urlpatterns)),
    # One route for the spend records: read here, written through the agent API (whose
    # description holds its POST); this entry, the first, serves both methods.
    path("api/v1/ad-spend", AdSpendReadRoute.as_view(), name="ad-spend"),
]
