from django.urls import path

from . import views

urlpatterns = [
    path("webhook-endpoints", views.EndpointsView.as_view(), name="webhook-endpoints"),
    path("webhook-endpoints/<str:id>", views.EndpointView.as_view(), name="webhook-endpoint"),
    path("events", views.EventsView.as_view(), name="events"),
]
