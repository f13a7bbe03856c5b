"""Base views that every API route stands on.

They run the checks of every request in one fixed order (401, browser rules, kind,
scope and role, then the handler's own 404s and 400s), resolve the workspace or agency
the request may reach, and hand the handler querysets already filtered by it.
Handlers never filter by tenant themselves.
"""

from django.db import InterfaceError, OperationalError
from rest_framework.views import APIView

from core.errors import Forbidden, NotFound, Unauthenticated

from .idempotency import idempotent_write
from .ids import parse_uuid
from .replicas import replica_mark_down, replica_reads_allow, replica_scope
from .throttling import ServiceRateThrottle

AGENCY_TOKEN_NOT_ACCEPTED = (
    "Agency tokens reach plans, blueprints, connect links and the workspace-named "
    "display and change-log routes (/api/v1/workspaces/{workspaceId}/...) only."
)


def check_browser(principal, *, origin: str | None, fetch_site: str | None) -> None:
    """Section 4's browser rules: API tokens never from a page; sessions from listed origins."""
    if origin is None and fetch_site is None:
        return
    if principal.is_api_token:
        raise Forbidden(
            "Workspace and agency tokens must never be used from a web page: call the API "
            "from your server, or sign the user in and use their session token.",
            reason="refused.token_in_browser",
        )
    allowed = principal.workspace.embedded_origins or []
    if origin is None or origin.rstrip("/") not in {o.rstrip("/") for o in allowed}:
        raise Forbidden(
            f"The origin {origin or '(none)'} is not listed in this workspace's "
            "embedded-apps settings.",
            reason="refused.origin",
        )


def _renderer_context_drop(response):
    response.renderer_context = None


class ServiceView(APIView):
    """Authentication, request rates and browser rules shared by every route."""

    # Whether the route's reads may come from a streaming replica once its access checks
    # are done (core/replicas.py): the figures' read-only routes.
    reads_from_replica = False

    required_scope = "read"
    throttle_classes = [ServiceRateThrottle]

    def perform_authentication(self, request):
        # A refused token is answered 401 only after the request has been counted against
        # its client address (DRF runs the throttles after this).
        self.accepted_principal = None
        self.authentication_error = None
        try:
            request.user  # noqa: B018 (runs the authentication)
        except Unauthenticated as error:
            self.authentication_error = error
            return
        self.accepted_principal = request.auth

    def initial(self, request, *args, **kwargs):
        self.rate_state = None
        super().initial(request, *args, **kwargs)
        if self.authentication_error is not None:
            raise self.authentication_error
        principal = self.accepted_principal
        if principal is None:
            raise Unauthenticated()
        check_browser(
            principal,
            origin=request.META.get("HTTP_ORIGIN"),
            fetch_site=request.META.get("HTTP_SEC_FETCH_SITE"),
        )
        self.principal = principal
        self.check_access(principal, kwargs)
        if self.reads_from_replica:
            replica_reads_allow()
        workspace = getattr(self, "workspace", None)
        if workspace is not None:
            # The request's log line names the workspace (core.observe).
            request._request.workspace_id = workspace.pk
        # No id or key holds a NUL, and a database refuses to even look one up.
        if any("\x00" in str(value) for value in kwargs.values()):
            raise NotFound()

    def throttled(self, request, wait):
        raise self.rate_state.refusal()

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        state = getattr(self, "rate_state", None)
        if state is not None:
            for name, value in state.headers().items():
                response[name] = value
        return response

    def dispatch(self, request, *args, **kwargs):
        with replica_scope() as scope:
            try:
                response = super().dispatch(request, *args, **kwargs)
            except (OperationalError, InterfaceError):
                if not scope.replica:
                    raise
                # The replica broke mid-request: skip it, and read again from the primary.
                replica_mark_down(scope.replica)
                response = None
        if response is None:
            with replica_scope(primary_only=True):
                response = super().dispatch(request, *args, **kwargs)
        # The view keeps its response, whose renderer context holds the view and the
        # response itself: reference cycles that leave every answer (a long list of rows
        # included) to the garbage collector's full passes. Once the answer is rendered,
        # nothing needs them, and refcounting frees the data as soon as it is sent.
        self.response = None
        if hasattr(response, "add_post_render_callback"):
            response.add_post_render_callback(_renderer_context_drop)
        return response

    def check_access(self, principal, kwargs) -> None:
        raise NotImplementedError

    def idempotent(self, request, perform):
        """Run a write under the request's Idempotency-Key; see core.idempotency."""
        return idempotent_write(request, self.principal, perform)


class WorkspaceView(ServiceView):
    """A route that reads or writes one workspace.

    The workspace is the token's own, or, where the route names it
    (workspace_url_kwarg), the one named: an agency token may use that form for the
    agency's own workspaces.
    """

    # Closers, setters and SDRs may call (their own figures only).
    allow_reporting_members = False
    # Only a member's session token may call; API tokens are refused drafts_only.
    needs_member_session = False
    # The path kwarg that names the workspace, on routes that an agency token may use.
    workspace_url_kwarg: str | None = None
    # The scope an agency token needs on such a route.
    agency_scope = "read"

    def check_access(self, principal, kwargs) -> None:
        named_id = kwargs.get(self.workspace_url_kwarg) if self.workspace_url_kwarg else None
        if principal.is_agency:
            if self.workspace_url_kwarg is None:
                raise Unauthenticated(AGENCY_TOKEN_NOT_ACCEPTED)
            if self.agency_scope not in principal.scopes:
                raise Forbidden(
                    f"This agency token lacks the {self.agency_scope} scope.",
                    reason="scope.missing",
                    requiredScope=self.agency_scope,
                )
            self.workspace = self._agency_workspace(principal.agency, named_id)
            return

        if self.required_scope not in principal.scopes:
            raise Forbidden(
                f"This token lacks the {self.required_scope} scope.",
                reason="insufficient_scope",
                requiredScope=self.required_scope,
            )
        if self.needs_member_session and not principal.is_session:
            raise Forbidden(
                "API tokens never file sales records: a member files this with their own "
                "session token. An API token may propose a draft instead (POST /api/v1/forms/drafts).",
                reason="refused.drafts_only",
            )
        if (
            principal.is_session
            and not self.allow_reporting_members
            and not principal.member.is_workspace_wide
        ):
            raise Forbidden(
                f"A {principal.member.role} reads only their own board and drafts, "
                "nothing workspace-wide.",
                reason="refused.member_scope",
            )
        if named_id is not None and str(named_id) != str(principal.workspace.pk):
            raise Forbidden(
                "This token reaches only its own workspace.", reason="refused.cross_workspace"
            )
        self.workspace = principal.workspace

    def scoped(self, model):
        """The model's rows of this request's workspace; the only way handlers read rows
        themselves (the selectors and writers are given the workspace)."""
        return model.objects.filter(workspace=self.workspace)

    @staticmethod
    def _agency_workspace(agency, workspace_id):
        workspace_uuid = parse_uuid(workspace_id)
        if workspace_uuid is None:
            raise NotFound("No workspace of this agency has that id.")
        workspace = agency.workspaces(manager="active").filter(pk=workspace_uuid).first()
        if workspace is None:
            raise NotFound("No workspace of this agency has that id.")
        return workspace


class AgencyView(ServiceView):
    """A route of the agency API: plans, blueprints, connect links."""

    def check_access(self, principal, kwargs) -> None:
        if not principal.is_agency:
            raise Forbidden(
                "This route needs an agency token (agy_...), made in the agency console.",
                reason="token.not_agency",
            )
        if self.required_scope not in principal.scopes:
            raise self.scope_missing(self.required_scope)
        self.agency = principal.agency

    def scope_missing(self, scope: str, **extra) -> Forbidden:
        return Forbidden(
            f"This agency token lacks the {scope} scope.",
            reason="scope.missing",
            requiredScope=scope,
            **extra,
        )

    def scoped(self, model, *, workspace=None):
        """The model's rows of this request's agency (and, given one of its workspaces, as
        agency_workspace finds it, of that workspace); the only way handlers read rows."""
        rows = model.objects.filter(agency=self.agency)
        return rows if workspace is None else rows.filter(workspace=workspace)

    def agency_workspace(self, workspace_id):
        return WorkspaceView._agency_workspace(self.agency, workspace_id)
