from django.urls import path

from . import pages

urlpatterns = [
    path("app/<uuid:workspace_id>/work/", pages.work_page, name="work"),
    path(
        "app/<uuid:workspace_id>/file/post-call/<uuid:call_id>/",
        pages.form_page,
        {"form": "post-call"},
        name="file-post-call",
    ),
    path("app/<uuid:workspace_id>/file/<slug:form>/", pages.form_page, name="file-form"),
]
