"""The workspace settings page Integrations and its actions."""

from django.urls import path

from . import pages

urlpatterns = [
    path(
        "settings/<uuid:workspace_id>/integrations/",
        pages.integrations_page,
        name="settings-integrations",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/connect/<slug:provider>/",
        pages.connect_page,
        name="settings-integration-connect",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/<uuid:connection_id>/disconnect/",
        pages.disconnect_page,
        name="settings-integration-disconnect",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/<uuid:connection_id>/retry/",
        pages.retry_page,
        name="settings-integration-retry",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/events/<int:event_id>/assign",
        pages.event_assign,
        name="settings-integration-event-assign",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/events/<int:event_id>/dismiss",
        pages.event_dismiss,
        name="settings-integration-event-dismiss",
    ),
]
