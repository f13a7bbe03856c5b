from django.urls import path

from . import pages

urlpatterns = [
    path(
        "settings/<uuid:workspace_id>/notifications/",
        pages.settings_page,
        name="settings-notifications",
    ),
    path("accounts/notifications/", pages.choices_page, name="notifications-choices"),
    path("unsubscribe/<str:token>", pages.unsubscribe_page, name="notifications-unsubscribe"),
]
