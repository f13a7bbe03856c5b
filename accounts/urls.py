"""A person's pages: signing in and out, a forgotten password, their account and home,
the invitations addressed to them, running a workspace's team (members, settings) and
importing its records."""

from django.urls import path

from . import imports, invitation_pages, pages, password_reset, team_pages

urlpatterns = [
    path("accounts/login/", pages.LoginView.as_view(), name="login"),
    path("accounts/logout/", pages.LogoutView.as_view(), name="logout"),
    path("accounts/", pages.account, name="account"),
    path(
        "accounts/password-reset/",
        password_reset.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        password_reset.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        password_reset.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        password_reset.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("invitations/", invitation_pages.invitation_list, name="invitations"),
    path("invite/<str:token>", invitation_pages.invitation_link, name="invitation-link"),
    path(
        "invitations/<uuid:invitation_id>/accept",
        invitation_pages.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "invitations/<uuid:invitation_id>/decline",
        invitation_pages.invitation_decline,
        name="invitation-decline",
    ),
    path(
        "settings/<uuid:workspace_id>/members/",
        team_pages.workspace_members,
        name="settings-members",
    ),
    path(
        "settings/<uuid:workspace_id>/members/<uuid:member_id>/deactivate/",
        team_pages.member_deactivate_page,
        name="settings-member-deactivate",
    ),
    path(
        "settings/<uuid:workspace_id>/workspace/",
        team_pages.workspace_settings,
        name="settings-workspace",
    ),
    path("settings/<uuid:workspace_id>/import/", imports.import_page, name="settings-import"),
    path(
        "settings/<uuid:workspace_id>/import/templates/<str:record_type>.csv",
        imports.import_template,
        name="settings-import-template",
    ),
    path(
        "settings/<uuid:workspace_id>/import/<uuid:upload_id>/",
        imports.upload_page,
        name="settings-import-upload",
    ),
    path(
        "settings/<uuid:workspace_id>/import/<uuid:upload_id>/status",
        imports.upload_status,
        name="settings-import-status",
    ),
]
