from django.urls import path

from . import views

urlpatterns = [
    path(
        "agency/workspaces",
        views.AgencyWorkspaceListView.as_view(),
        name="agency-workspaces",
    ),
    path("plans", views.PlanListView.as_view(), name="agency-plans"),
    path("plans/<str:id>", views.PlanDetailView.as_view(), name="agency-plan"),
    path("plans/<str:id>/apply", views.PlanApplyView.as_view(), name="agency-plan-apply"),
    path(
        "plans/<str:id>/request-approval",
        views.PlanRequestApprovalView.as_view(),
        name="agency-plan-request-approval",
    ),
    path("templates", views.TemplateListView.as_view(), name="agency-templates"),
    path("templates/<str:key>", views.TemplateDetailView.as_view(), name="agency-template"),
    path(
        "workspaces/<str:id>/connect-links",
        views.ConnectLinkListView.as_view(),
        name="agency-connect-links",
    ),
    path(
        "workspaces/<str:id>/connect-links/<str:linkId>",
        views.ConnectLinkDetailView.as_view(),
        name="agency-connect-link",
    ),
    path(
        "workspaces/<str:id>/connect-links/<str:linkId>/revoke",
        views.ConnectLinkRevokeView.as_view(),
        name="agency-connect-link-revoke",
    ),
]
