from django.urls import path

from . import hubspot_pages, webhooks, webinar_pages

urlpatterns = [
    path(
        "hooks/<slug:provider>/<uuid:connection_id>",
        webhooks.receive,
        name="integration-webhook",
    ),
    path(
        "settings/<uuid:workspace_id>/webinars/",
        webinar_pages.webinar_pitch,
        name="settings-webinars",
    ),
    path(
        "settings/<uuid:workspace_id>/integrations/<uuid:connection_id>/hubspot/",
        hubspot_pages.hubspot_mapping,
        name="integration-hubspot-mapping",
    ),
]
