from django.urls import path

from . import views

urlpatterns = [
    path("whoami", views.WhoamiView.as_view(), name="whoami"),
]
