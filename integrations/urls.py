"""The webhook endpoint, the workspace's Webinars page, and each provider's own pages."""

from django.urls import path

from . import webhooks, webinar_pages
from .providers import PROVIDERS

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
    *(route for provider in PROVIDERS.values() for route in provider.urlpatterns),
]
