from django.urls import path

from . import form_views, record_views, views

urlpatterns = [
    path("display", views.DisplayView.as_view(), name="display"),
    path(
        "workspaces/<str:workspaceId>/display",
        views.WorkspaceDisplayView.as_view(),
        name="workspace-display",
    ),
    path("me/board", views.MyBoardView.as_view(), name="my-board"),
    path("workspaces", views.WorkspaceListView.as_view(), name="workspaces"),
    path("change-log", views.ChangeLogView.as_view(), name="change-log"),
    path(
        "workspaces/<str:workspaceId>/change-log",
        views.WorkspaceChangeLogView.as_view(),
        name="workspace-change-log",
    ),
    path(
        "change-log/<str:id>/compare",
        views.CompareAroundChangeView.as_view(),
        name="change-log-compare",
    ),
    path("forms/post-call", form_views.PostCallFormView.as_view(), name="form-post-call"),
    path("forms/past-call", form_views.PastCallFormView.as_view(), name="form-past-call"),
    path("forms/dm-close", form_views.DmCloseFormView.as_view(), name="form-dm-close"),
    path("forms/eod", form_views.EodFormView.as_view(), name="form-eod"),
    path("forms/drafts", form_views.DraftsView.as_view(), name="form-drafts"),
    path("goals/<str:month>", record_views.GoalsMonthView.as_view(), name="goals-month"),
]
