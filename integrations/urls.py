from django.urls import path

from . import webhooks

urlpatterns = [
    path(
        "hooks/<slug:provider>/<uuid:connection_id>",
        webhooks.receive,
        name="integration-webhook",
    ),
]
