"""The agency API: agency workspaces, plans, blueprints and connect links.

Every view stands on core.views.AgencyView, which answers 401 and the 403s (kind, scope)
before the handler; handlers then answer 404, 400, 402 and 409 in that order.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.response import Response

from core.errors import NotFound
from core.ids import parse_uuid
from core.openapi import IDEMPOTENCY_KEY
from core.throttling import rate_require
from core.views import AgencyView

from . import apply, links, selectors, serializers, services
from .models import Blueprint, ConnectLink, Plan

IDEMPOTENCY_HEADER = IDEMPOTENCY_KEY
SECURITY = [{"agencyBearer": []}]
WRITE_ERRORS = (400, 401, 403, 409, 422)


def _path(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, str, OpenApiParameter.PATH, description=description)


class _AgencyObjectMixin:
    def get_plan(self, plan_id) -> Plan:
        pk = parse_uuid(plan_id)
        plan = self.scoped(Plan).filter(pk=pk).first() if pk else None
        if plan is None:
            raise NotFound("The agency has no plan with that id.")
        return plan

    def get_link(self, workspace, link_id) -> ConnectLink:
        pk = parse_uuid(link_id)
        queryset = selectors.connect_links_with_state(
            self.scoped(ConnectLink, workspace=workspace).filter(pk=pk)
        )
        link = queryset.first() if pk else None
        if link is None:
            raise NotFound("This workspace has no connect link with that id.")
        return link


class AgencyWorkspaceListView(AgencyView):
    required_scope = "read"

    @extend_schema(
        operation_id="listAgencyWorkspaces",
        summary="The agency's workspaces (archived ones are left out)",
        auth=SECURITY,
        responses={
            200: serializers.AgencyWorkspaceListSerializer,
            **serializers.error_responses(400, 401, 403),
        },
    )
    def get(self, request):
        workspaces = selectors.agency_workspace_list(agency=self.agency)
        return Response(serializers.AgencyWorkspaceListSerializer({"workspaces": workspaces}).data)


class PlanListView(AgencyView):
    required_scope = "config:plan"

    @extend_schema(
        operation_id="createPlan",
        summary="Check a plan: changes nothing, answers each change as ready or blocked",
        description="Body: optional `blueprint` (a key: the blueprint's shape first, the "
        "plan's on top), `workspace` (`id` to change one of the agency's workspaces, or "
        "`name`, `slug`, `currency`, `timezone` to create one), `settings`, `team`, "
        "`programmes`, `integrations`. Unknown members answer 400 naming them. Needs the "
        "Agency plan or above (402).",
        auth=SECURITY,
        parameters=[IDEMPOTENCY_HEADER],
        request=serializers.PlanBodySerializer,
        responses={
            201: serializers.PlanSerializer,
            **serializers.error_responses(*WRITE_ERRORS, 402, scope="config:plan"),
        },
        examples=[
            OpenApiExample(
                "New workspace",
                {
                    "workspace": {
                        "name": "Acme Coaching",
                        "slug": "acme",
                        "currency": "USD",
                        "timezone": "America/New_York",
                    },
                    "team": [{"email": "ana@acme.test", "name": "Ana", "role": "closer"}],
                    "programmes": [{"name": "Mastermind", "price": "4997.00"}],
                    "integrations": ["stripe", "calendly"],
                },
                request_only=True,
            ),
            OpenApiExample(
                "A blocked change",
                {
                    "id": "6d8f7c2e-9a51-4a8e-9a7d-2f5a9b1c3e40",
                    "state": "drafted",
                    "blueprint": None,
                    "refused_reason": None,
                    "created_at": "2026-03-01T09:30:00Z",
                    "updated_at": "2026-03-01T09:30:00Z",
                    "applied_at": None,
                    "result": {
                        "changes": [
                            {
                                "op": "workspace.create",
                                "target": "acme",
                                "detail": {
                                    "name": "Acme Coaching",
                                    "slug": "acme",
                                    "currency": "USD",
                                    "timezone": "America/New_York",
                                },
                                "status": "blocked",
                                "reason": "The slug 'acme' is already taken.",
                                "code": "slug_taken",
                            }
                        ]
                    },
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request):
        def perform():
            parsed = serializers.body_parse(serializers.PlanBodySerializer, request.data)
            plan = services.plan_create(
                agency=self.agency, actor=self.principal.actor, parsed=parsed
            )
            return Response(serializers.PlanSerializer(plan).data, status=201)

        return self.idempotent(request, perform)


class PlanDetailView(_AgencyObjectMixin, AgencyView):
    required_scope = "config:plan"

    @extend_schema(
        operation_id="getPlan",
        summary="A plan, its state and its result (never a token nor a link)",
        auth=SECURITY,
        parameters=[_path("id", "The plan's id.")],
        responses={
            200: serializers.PlanSerializer,
            **serializers.error_responses(400, 401, 403, 404, scope="config:plan"),
        },
    )
    def get(self, request, id):
        return Response(serializers.PlanSerializer(self.get_plan(id)).data)


class PlanApplyView(_AgencyObjectMixin, AgencyView):
    required_scope = "config:apply"

    def check_access(self, principal, kwargs) -> None:
        if principal.is_agency and "config:apply" not in principal.scopes:
            raise self.scope_missing("config:apply", approval="request")
        super().check_access(principal, kwargs)

    @extend_schema(
        operation_id="applyPlan",
        summary="Make the plan's ready changes, in one transaction",
        description="A drafted or approved plan only (else 409 refused.plan_state). Each change "
        "is checked again; a blocked one is skipped and the result says why. The session "
        "tokens of the new members of a workspace the plan creates (`result.member_tokens`, "
        "valid 30 days) and the connect links' URLs are in this answer only; a retry with the "
        "same Idempotency-Key answers the same. On a workspace that already exists no token is "
        "ever returned: every team entry is proposed and listed in `result.invited`; it waits "
        "for an active owner of the workspace to approve it on the Members page (the owners "
        "are emailed), and nothing reaches the person before. A plan proposes admin or a "
        "lesser role there, never owner (blocked, code role_not_proposed). A team email that already has an account in the service is never linked and "
        "gets no token: it is listed in `result.invited` and becomes a member only when that "
        "person accepts the invitation after signing in. "
        "A token without config:apply gets 403 scope.missing with approval 'request': ask "
        "for approval instead.",
        auth=SECURITY,
        parameters=[_path("id", "The plan's id."), IDEMPOTENCY_HEADER],
        request=serializers.EmptyBodySerializer,
        responses={
            200: serializers.PlanAppliedSerializer,
            **serializers.error_responses(
                *WRITE_ERRORS, 402, 404, scope="config:apply", approval=True
            ),
        },
    )
    def post(self, request, id):
        plan = self.get_plan(id)

        def perform():
            rate_require("plan_apply", f"agency:{plan.agency_id}")
            applied = apply.plan_apply(plan_id=plan.pk, actor=self.principal.actor)
            return Response(serializers.PlanAppliedSerializer(applied).data)

        return self.idempotent(request, perform)


class PlanRequestApprovalView(_AgencyObjectMixin, AgencyView):
    required_scope = "config:plan"

    @extend_schema(
        operation_id="requestPlanApproval",
        summary="Ask a person to approve or decline a drafted plan in the agency console",
        description="drafted → waiting_for_approval (else 409 refused.plan_state). Once a "
        "person approves it, the plan is applied by the worker.",
        auth=SECURITY,
        parameters=[_path("id", "The plan's id."), IDEMPOTENCY_HEADER],
        request=serializers.EmptyBodySerializer,
        responses={
            200: serializers.PlanSerializer,
            **serializers.error_responses(*WRITE_ERRORS, 404, scope="config:plan"),
        },
    )
    def post(self, request, id):
        plan = self.get_plan(id)

        def perform():
            updated = services.plan_request_approval(plan=plan, actor=self.principal.actor)
            return Response(serializers.PlanSerializer(updated).data)

        return self.idempotent(request, perform)


class TemplateListView(AgencyView):
    required_scope = "read"

    @extend_schema(
        operation_id="listTemplates",
        summary="The agency's blueprints",
        auth=SECURITY,
        responses={
            200: serializers.BlueprintListSerializer,
            **serializers.error_responses(400, 401, 403),
        },
    )
    def get(self, request):
        blueprints = selectors.blueprint_list(agency=self.agency)
        return Response(serializers.BlueprintListSerializer({"blueprints": blueprints}).data)


class TemplateDetailView(AgencyView):
    def get_required_scope(self, method: str) -> str:
        return "config:plan" if method == "PUT" else "read"

    def check_access(self, principal, kwargs) -> None:
        self.required_scope = self.get_required_scope(self.request.method)
        super().check_access(principal, kwargs)

    @extend_schema(
        operation_id="getTemplate",
        summary="One blueprint by key",
        auth=SECURITY,
        parameters=[_path("key", "The blueprint's key.")],
        responses={
            200: serializers.BlueprintSerializer,
            **serializers.error_responses(400, 401, 403, 404),
        },
    )
    def get(self, request, key):
        blueprint = self.scoped(Blueprint).filter(key=key).first()
        if blueprint is None:
            raise NotFound("The agency has no blueprint with that key.")
        return Response(serializers.BlueprintSerializer(blueprint).data)

    @extend_schema(
        operation_id="putTemplate",
        summary="Create (201) or replace (200) the blueprint under the key",
        description="Key: 1 to 64 of a-z, 0-9 and '-'. Body: `name` and a plan body without "
        "`workspace`. Needs the Agency plan or above (402).",
        auth=SECURITY,
        parameters=[_path("key", "The blueprint's key, [a-z0-9-]{1,64}."), IDEMPOTENCY_HEADER],
        request=serializers.BlueprintBodySerializer,
        responses={
            200: serializers.BlueprintSerializer,
            201: serializers.BlueprintSerializer,
            **serializers.error_responses(*WRITE_ERRORS, 402, scope="config:plan"),
        },
    )
    def put(self, request, key):
        def perform():
            clean_key = serializers.blueprint_key_parse(key)
            parsed = serializers.body_parse(serializers.BlueprintBodySerializer, request.data)
            blueprint, created = services.blueprint_put(
                agency=self.agency, actor=self.principal.actor, key=clean_key, parsed=parsed
            )
            return Response(
                serializers.BlueprintSerializer(blueprint).data, status=201 if created else 200
            )

        return self.idempotent(request, perform)


class ConnectLinkListView(AgencyView):
    required_scope = "connect:links"

    @extend_schema(
        operation_id="createConnectLink",
        summary="Make a connect link for one of the agency's workspaces",
        description="The answer carries the link's URL once; it is never shown again. The "
        "link opens a page where a client connects the offered integrations by giving "
        "their credentials (stored encrypted, never returned).",
        auth=SECURITY,
        parameters=[_path("id", "The workspace's id."), IDEMPOTENCY_HEADER],
        request=serializers.ConnectLinkBodySerializer,
        responses={
            201: serializers.ConnectLinkCreatedSerializer,
            **serializers.error_responses(*WRITE_ERRORS, 404, scope="connect:links"),
        },
    )
    def post(self, request, id):
        workspace = self.agency_workspace(id)

        def perform():
            parsed = serializers.body_parse(serializers.ConnectLinkBodySerializer, request.data)
            link, url = links.connect_link_create(
                agency=self.agency,
                workspace=workspace,
                integrations=parsed["integrations"],
                expires_in_hours=parsed["expires_in_hours"],
                actor=self.principal.actor,
            )
            state = selectors.connect_link_data(link)
            return Response(
                {
                    "id": state["id"],
                    "url": url,
                    "expires_at": state["expires_at"],
                    "integrations": state["integrations"],
                },
                status=201,
            )

        return self.idempotent(request, perform)


class ConnectLinkDetailView(_AgencyObjectMixin, AgencyView):
    required_scope = "connect:links"

    @extend_schema(
        operation_id="getConnectLink",
        summary="A connect link's state: expiry, revoked, completed, each integration",
        description="Never the link itself nor any credential.",
        auth=SECURITY,
        parameters=[_path("id", "The workspace's id."), _path("linkId", "The link's id.")],
        responses={
            200: serializers.ConnectLinkStateSerializer,
            **serializers.error_responses(400, 401, 403, 404, scope="connect:links"),
        },
    )
    def get(self, request, id, linkId):
        link = self.get_link(self.agency_workspace(id), linkId)
        return Response(selectors.connect_link_data(link))


class ConnectLinkRevokeView(_AgencyObjectMixin, AgencyView):
    required_scope = "connect:links"

    @extend_schema(
        operation_id="revokeConnectLink",
        summary="Stop a connect link opening; connections it made stay",
        auth=SECURITY,
        parameters=[
            _path("id", "The workspace's id."),
            _path("linkId", "The link's id."),
            IDEMPOTENCY_HEADER,
        ],
        request=serializers.EmptyBodySerializer,
        responses={
            200: serializers.ConnectLinkStateSerializer,
            **serializers.error_responses(*WRITE_ERRORS, 404, scope="connect:links"),
        },
    )
    def post(self, request, id, linkId):
        link = self.get_link(self.agency_workspace(id), linkId)

        def perform():
            links.connect_link_revoke(link=link, actor=self.principal.actor)
            refreshed = self.get_link(link.workspace, link.pk)
            return Response(selectors.connect_link_data(refreshed))

        return self.idempotent(request, perform)
