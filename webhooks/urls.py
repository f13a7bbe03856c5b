"""The webhook routes of the API, in two descriptions: the events feed is a read of the
figures API (config.urls_figures, /api/v1/openapi.json); the endpoints, which are read and
written, are described with the agent API's writes (config.urls_agent, /openapi/agent.json).
Both are served under /api/v1/ whichever description names them."""

from django.urls import path

from . import views

events_urlpatterns = [
    path("events", views.EventsView.as_view(), name="events"),
]

endpoints_urlpatterns = [
    path("webhook-endpoints", views.EndpointsView.as_view(), name="webhook-endpoints"),
    path("webhook-endpoints/<str:id>", views.EndpointView.as_view(), name="webhook-endpoint"),
]
