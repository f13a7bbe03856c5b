from django.urls import path

from . import pages

urlpatterns = [
    path("agency/<uuid:agency_id>/", pages.agency_overview, name="agency-console"),
    path(
        "agency/<uuid:agency_id>/workspaces/<uuid:workspace_id>/",
        pages.agency_workspace_overview,
        name="agency-workspace-overview",
    ),
    path("agency/<uuid:agency_id>/plans/make", pages.plan_make, name="agency-plan-make"),
    path(
        "agency/<uuid:agency_id>/plans/<uuid:plan_id>/decide",
        pages.plan_decide,
        name="agency-plan-decide",
    ),
    path(
        "agency/<uuid:agency_id>/connect-links/",
        pages.connect_link_make,
        name="agency-connect-link-make",
    ),
    path(
        "agency/<uuid:agency_id>/connect-links/<uuid:link_id>/revoke",
        pages.connect_link_revoke,
        name="agency-connect-link-revoke-page",
    ),
    path("connect/<str:secret>", pages.connect_page, name="connect-page"),
]
