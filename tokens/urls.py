"""OAuth 2 for embedded apps, discovery documents, and the tokens and embedded apps
settings pages."""

from django.urls import include, path
from oauth2_provider import views as oauth_views

from . import pages
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
    path("app/callback", pages.embedded_app_landing, name="embedded-app-landing"),
    path("settings/<uuid:workspace_id>/tokens/", pages.workspace_tokens, name="settings-tokens"),
    path(
        "settings/<uuid:workspace_id>/tokens/<uuid:token_id>/revoke/",
        pages.workspace_token_revoke,
        name="settings-token-revoke",
    ),
    path("settings/<uuid:workspace_id>/apps/", pages.workspace_apps, name="settings-apps"),
    path("agency/<uuid:agency_id>/tokens/", pages.agency_tokens, name="agency-tokens"),
    path(
        "agency/<uuid:agency_id>/tokens/<uuid:token_id>/revoke/",
        pages.agency_token_revoke,
        name="agency-token-revoke",
    ),
]
