"""Sign-in, OAuth 2 for embedded apps, discovery documents and the settings pages."""

from django.urls import include, path
from oauth2_provider import views as oauth_views

from . import invitations, pages, password_reset, team_pages
from .oauth import (
    EmbeddedAuthorizationView,
    EmbeddedTokenView,
    McpResourceMetadataView,
    limited_by_address,
    refuse_nul_parameters,
)

authorize = refuse_nul_parameters(EmbeddedAuthorizationView.as_view())
token = limited_by_address(refuse_nul_parameters(EmbeddedTokenView.as_view()))
revoke = refuse_nul_parameters(oauth_views.RevokeTokenView.as_view())
server_metadata = oauth_views.OAuthServerMetadataView.as_view()
resource_metadata = oauth_views.OAuthProtectedResourceMetadataView.as_view()

# Named as the toolkit names them: its discovery views reverse these names.
oauth_urlpatterns = [
    path("o/authorize/", authorize, name="authorize"),
    path("o/authorize", authorize),
    path("o/token/", token, name="token"),
    path("o/token", token),
    path("o/revoke_token/", revoke, name="revoke-token"),
    path("o/revoke_token", revoke),
    path(".well-known/oauth-authorization-server", server_metadata, name="oauth-server-metadata"),
    path(".well-known/oauth-protected-resource", resource_metadata, name="oauth-resource-metadata"),
    # RFC 9728's path-component form for the resource {BASE_URL}/api/v1.
    path(".well-known/oauth-protected-resource/api/v1", resource_metadata),
    # The MCP server at {BASE_URL}/mcp is a resource of its own.
    path(".well-known/oauth-protected-resource/mcp", McpResourceMetadataView.as_view()),
]

urlpatterns = [
    path("", include((oauth_urlpatterns, "oauth2_provider"))),
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
    path("invitations/", invitations.invitation_list, name="invitations"),
    path("invite/<str:token>", invitations.invitation_link, name="invitation-link"),
    path("app/callback", invitations.embedded_app_landing, name="embedded-app-landing"),
    path(
        "invitations/<uuid:invitation_id>/accept",
        invitations.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "invitations/<uuid:invitation_id>/decline",
        invitations.invitation_decline,
        name="invitation-decline",
    ),
    path("settings/<uuid:workspace_id>/tokens/", pages.workspace_tokens, name="settings-tokens"),
    path(
        "settings/<uuid:workspace_id>/tokens/<uuid:token_id>/revoke/",
        pages.workspace_token_revoke,
        name="settings-token-revoke",
    ),
    path("settings/<uuid:workspace_id>/apps/", pages.workspace_apps, name="settings-apps"),
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
    path("agency/<uuid:agency_id>/tokens/", pages.agency_tokens, name="agency-tokens"),
    path(
        "agency/<uuid:agency_id>/tokens/<uuid:token_id>/revoke/",
        pages.agency_token_revoke,
        name="agency-token-revoke",
    ),
]
