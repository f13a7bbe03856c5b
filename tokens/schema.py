"""How the API descriptions present authentication and request rates: each route lists
the kinds of token it accepts, derived from its base view, and every route that counts
requests documents its 429 and the RateLimit fields, so the description cannot drift from
the checks."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from core.views import AgencyView, ServiceView, WorkspaceView


class BearerAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "tokens.authentication.BearerAuthentication"
    name = "bearer"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer"}


RATE_LIMITED_DESCRIPTION = (
    "Over the request rate: by default 1,200 reads and 300 writes a minute per token, and 300 "
    "requests a minute per client address without an accepted token. `Retry-After` says "
    "when to retry."
)
RATE_LIMITED_EXAMPLE = OpenApiExample(
    "rate_limited",
    {
        "error": {
            "reason": "rate_limited",
            "message": "This token may make 1200 reads a minute. Retry in 42 seconds.",
        }
    },
)
RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": {
        "schema": {"type": "string", "pattern": r'^"(read|write|anonymous)";q=\d+;w=\d+$'},
        "description": "The request's quota policy (IETF draft-ietf-httpapi-ratelimit-headers): "
        'its name (`"read"`, `"write"` or `"anonymous"`), `q` the requests allowed and `w` '
        'the window in seconds, e.g. `"read";q=1200;w=60`. Absent when the limit is off.',
    },
    "RateLimit": {
        "schema": {"type": "string", "pattern": r'^"(read|write|anonymous)";r=\d+;t=\d+$'},
        "description": "Where the request's counter stands: the policy's name, `r` the "
        'requests left in the window and `t` the seconds until it resets, e.g. `"read";r=1187;'
        "t=42`. Absent when the limit is off.",
    },
}
RETRY_AFTER_HEADER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "Seconds to wait before the next request is accepted.",
        "required": True,
    }
}


class ServiceAutoSchema(AutoSchema):
    def _counts_requests(self) -> bool:
        return isinstance(self.view, ServiceView)

    def get_auth(self):
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

    def _get_response_bodies(self, direction="response"):
        # Not get_response_serializers: extend_schema replaces that method on each view.
        bodies = super()._get_response_bodies(direction)
        declared = self.get_response_serializers()
        if not self._counts_requests() or not isinstance(declared, dict) or 401 not in declared:
            return bodies
        # The 429 answer has the route's own error body (the one its 401 has).
        body = getattr(declared[401], "response", declared[401])
        answer = OpenApiResponse(
            body, description=RATE_LIMITED_DESCRIPTION, examples=[RATE_LIMITED_EXAMPLE]
        )
        return {**bodies, "429": self._get_response_for_code(answer, "429", direction=direction)}

    def _header_refs(self, definitions: dict) -> dict:
        """The headers as references to components/headers, defined once per description."""
        refs = {}
        for name, definition in definitions.items():
            component = ResolvedComponent(
                name=name, type=ResolvedComponent.HEADER, object=name, schema=definition
            )
            self.registry.register_on_missing(component)
            refs[name] = component.ref
        return refs

    def _get_response_headers_for_code(self, status_code, direction="response"):
        headers = super()._get_response_headers_for_code(status_code, direction)
        if self._counts_requests():
            headers = {**headers, **self._header_refs(RATE_LIMIT_HEADERS)}
            if str(status_code) == "429":
                headers.update(self._header_refs(RETRY_AFTER_HEADER))
        return headers
