"""How the API descriptions present authentication: each route lists the kinds of token
it accepts, derived from its base view, so the description cannot drift from the checks."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema


class BearerAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "tokens.authentication.BearerAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer"}


class ServiceAutoSchema(AutoSchema):
    def get_auth(self):
        from .api import AgencyView, WorkspaceView

        view = self.view
        if isinstance(view, AgencyView):
            return [{"agencyBearer": []}]
        if isinstance(view, WorkspaceView):
            schemes = []
            if not view.needs_member_session:
                schemes.append({"bearer": []})
            schemes.append({"memberSession": []})
            if view.workspace_url_kwarg:
                schemes.append({"agencyBearer": []})
            return schemes
        return super().get_auth()
