"""The webhook endpoint, the workspace's Webinars page, a connection's options page, and
each provider's own pages."""

from django.urls import path

from . import option_pages, webhooks, webinar_pages
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
    # A connection's options, for each provider that declares an options page.
    *(
        path(
            f"settings/<uuid:workspace_id>/integrations/<uuid:connection_id>/{provider.key}/",
            option_pages.connection_options,
            {"provider": provider.key},
            name=f"integration-{provider.key}-options",
        )
        for provider in PROVIDERS.values()
        if provider.options_page is not None
    ),
    *(route for provider in PROVIDERS.values() for route in provider.urlpatterns),
]
