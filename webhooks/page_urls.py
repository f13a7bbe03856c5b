from django.urls import path

from . import pages

urlpatterns = [
    path("settings/<uuid:workspace_id>/webhooks/", pages.endpoints_page, name="settings-webhooks"),
    path(
        "settings/<uuid:workspace_id>/webhooks/<str:endpoint_id>/",
        pages.endpoint_page,
        name="settings-webhook",
    ),
    path(
        "settings/<uuid:workspace_id>/webhooks/<str:endpoint_id>/delete/",
        pages.endpoint_delete_page,
        name="settings-webhook-delete",
    ),
]
