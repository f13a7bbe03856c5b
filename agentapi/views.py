"""Routes of the agent API. Thin: the base views run the checks of docs/errors.md ("Order of checks") up to
the role; each handler looks up what answers 404, then writes through self.idempotent
with a perform() that validates the body (400) and calls one service."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from core.errors import ApiError, Forbidden, InvalidField, InvalidParameter, Unprocessable
from core.input import validated
from core.views import WorkspaceView
from figures import schema as figures_schema
from figures.envelope import envelope_build
from figures.period import period_from_query, shown_value, whole_number
from figures.selectors import ad_spend_list, member_board
from figures.views import ad_spend_limit, month_of
from workspaces.models import Member
from workspaces.services import GoalsRefused, RecordInvalid, goals_replace
from workspaces.services.goals import GOAL_ROLES
from workspaces.shapes import ad_spend_shape, goals_month_shape

from . import answers, schema, selectors, services
from .schema import COMPARE_DEFAULT_DAYS, COMPARE_MAX_DAYS
from .serializers import (
    DRAFT_FIELD_SERIALIZERS,
    AdSpendWriteSerializer,
    ChangeCreateSerializer,
    ChangeEntrySerializer,
    ChangeListSerializer,
    DisplaySerializer,
    DmCloseFormSerializer,
    DraftCreateSerializer,
    DraftListSerializer,
    DraftSerializer,
    EodFormSerializer,
    GoalsReplaceSerializer,
    PastCallFormSerializer,
    PostCallFormSerializer,
    WorkspaceListSerializer,
    cash_figure_path,
)


def _body(request) -> dict:
    """The body for look-ups before validation; perform() refuses a non-object body."""
    data = request.data
    return data if isinstance(data, dict) else {}


def _filed_response(filing: services.Filing, workspace) -> Response:
    """The answer of a filing: the first answer again for a repeated submission_id, else
    what it wrote (201; 200 for an EOD report edited), kept for a repeat."""
    earlier = filing.earlier
    if earlier is not None:
        return Response(
            earlier.response,
            status=earlier.status_code,
            headers={"Idempotent-Replayed": "true"},
        )
    body = answers.filing_answer(filing, workspace)
    status_code = 200 if filing.edited else 201
    services.form_answer_keep(
        workspace=workspace, filing=filing, status_code=status_code, body=body
    )
    return Response(body, status=status_code)


def _money_context(workspace) -> dict:
    return {"exponent": workspace.currency_exponent, "currency": workspace.currency}


# --- Display and workspaces ----------------------------------------------------------------


class DisplayView(WorkspaceView):
    required_scope = "read"

    @schema.get_display
    def get(self, request):
        return Response(DisplaySerializer(selectors.display_for(workspace=self.workspace)).data)


class WorkspaceDisplayView(WorkspaceView):
    required_scope = "read"
    workspace_url_kwarg = "workspaceId"
    agency_scope = "read"

    @schema.get_workspace_display
    def get(self, request, workspaceId):  # the path parameter's name
        return Response(DisplaySerializer(selectors.display_for(workspace=self.workspace)).data)


class WorkspaceListView(WorkspaceView):
    required_scope = "read"

    @schema.list_workspaces
    def get(self, request):
        workspaces = selectors.workspaces_reached(principal=self.principal)
        return Response(WorkspaceListSerializer({"workspaces": workspaces}).data)


# --- The board -----------------------------------------------------------------------------


class MyBoardView(WorkspaceView):
    required_scope = "read"
    needs_member_session = True
    allow_reporting_members = True

    @schema.get_my_board
    def get(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        board = member_board(workspace=self.workspace, member=self.principal.member, period=period)
        return Response(envelope_build(workspace=self.workspace, period=period, data=board.data))


# --- Change log ----------------------------------------------------------------------------


class ChangeLogBase(WorkspaceView):
    """Reads need `read`; writes `data:write` (an agency token: `config:plan`)."""

    @property
    def required_scope(self):
        return "data:write" if self.request.method == "POST" else "read"

    @property
    def agency_scope(self):
        return "config:plan" if self.request.method == "POST" else "read"

    def list_changes(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        changes = selectors.changes_list(workspace=self.workspace, period=period)
        return Response(
            ChangeListSerializer(
                {
                    "period": {
                        "from": period.first_day,
                        "to": period.last_day,
                        "timezone": self.workspace.timezone,
                    },
                    "changes": changes,
                }
            ).data
        )

    def create_change(self, request):
        def perform():
            data = validated(ChangeCreateSerializer, request.data)
            entry = services.change_create(
                workspace=self.workspace, actor=self.principal.actor, **data
            )
            return Response(ChangeEntrySerializer(entry).data, status=201)

        return self.idempotent(request, perform)


class ChangeLogView(ChangeLogBase):
    @schema.list_changes
    def get(self, request):
        return self.list_changes(request)

    @schema.create_change
    def post(self, request):
        return self.create_change(request)


class WorkspaceChangeLogView(ChangeLogBase):
    workspace_url_kwarg = "workspaceId"

    @schema.list_workspace_changes
    def get(self, request, workspaceId):
        return self.list_changes(request)

    @schema.create_workspace_change
    def post(self, request, workspaceId):
        return self.create_change(request)


class CompareAroundChangeView(WorkspaceView):
    required_scope = "read"

    @schema.compare_around_change
    def get(self, request, id):  # the path parameter's name
        change = selectors.change_get(workspace=self.workspace, change_id=id)
        days = self._days(request.query_params.get("days"))
        try:
            period, data = selectors.change_compare(
                workspace=self.workspace, change=change, days=days
            )
        except OverflowError:
            raise InvalidParameter(
                "days",
                f"{days} days before or after this entry's effective_at fall outside the dates "
                "this service can read.",
            ) from None
        data = {"change": ChangeEntrySerializer(change).data, **data}
        return Response(envelope_build(workspace=self.workspace, period=period, data=data))

    @staticmethod
    def _days(raw) -> int:
        if raw is None or raw == "":
            return COMPARE_DEFAULT_DAYS
        # ASCII digits only: str.isdigit() and int() also take "²" or "١٤".
        days = whole_number(raw)
        if days is None or not 1 <= days <= COMPARE_MAX_DAYS:
            raise InvalidParameter(
                "days",
                f"days must be a whole number from 1 to {COMPARE_MAX_DAYS}, not "
                f"{shown_value(raw)}.",
            )
        return days


# --- Forms ---------------------------------------------------------------------------------


class FormView(WorkspaceView):
    """A member files a sales form with their own session token."""

    required_scope = "data:write"
    needs_member_session = True
    allow_reporting_members = True

    def draft_for(self, body):
        """The open draft this filing checks (404 unless it is the member's own)."""
        if body.get("draft_id") is None or selectors.parse_uuid(body["draft_id"]) is None:
            return None
        return selectors.draft_get_for_member(
            workspace=self.workspace, member=self.principal.member, draft_id=body["draft_id"]
        )

    def lead_for(self, body):
        """The lead named by id (404 when unknown); None when named by name and email."""
        ref = body.get("lead")
        lead_id = ref.get("id") if isinstance(ref, dict) else ref
        if lead_id is None or selectors.parse_uuid(lead_id) is None:
            return None
        return selectors.lead_get(workspace=self.workspace, lead_id=lead_id)

    def form_data(self, serializer_class, request) -> dict:
        return validated(serializer_class, request.data, context=_money_context(self.workspace))

    def file_lead_form(self, request, serializer_class, file_form):
        """File a form that names its lead (past-call, DM close) under the request's key."""
        body = _body(request)
        lead = self.lead_for(body)
        draft = self.draft_for(body)

        def perform():
            filing = file_form(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                lead=lead,
                data=self.form_data(serializer_class, request),
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


class PostCallFormView(FormView):
    @schema.file_post_call_form
    def post(self, request):
        body = _body(request)
        call = None
        if selectors.parse_uuid(body.get("call_id")) is not None:
            call = selectors.call_get(workspace=self.workspace, call_id=body["call_id"])
            member = self.principal.member
            if member.pk not in (call.closer_id, call.setter_id):
                raise Forbidden(
                    "You hold neither the closer nor the setter slot of this call; only they "
                    "file its post-call form.",
                    reason="refused.member_scope",
                )
        draft = self.draft_for(body)

        def perform():
            data = self.form_data(PostCallFormSerializer, request)
            filing = services.form_post_call_file(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                call=call,
                data=data,
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


class PastCallFormView(FormView):
    @schema.file_past_call_form
    def post(self, request):
        return self.file_lead_form(request, PastCallFormSerializer, services.form_past_call_file)


class DmCloseFormView(FormView):
    @schema.file_dm_close_form
    def post(self, request):
        return self.file_lead_form(request, DmCloseFormSerializer, services.form_dm_close_file)


class EodFormView(FormView):
    @schema.file_eod_form
    def post(self, request):
        body = _body(request)
        draft = self.draft_for(body)

        def perform():
            data = self.form_data(EodFormSerializer, request)
            filing = services.form_eod_file(
                workspace=self.workspace,
                member=self.principal.member,
                actor=self.principal.actor,
                data=data,
                draft=draft,
            )
            return _filed_response(filing, self.workspace)

        return self.idempotent(request, perform)


# --- Drafts --------------------------------------------------------------------------------


class DraftsView(WorkspaceView):
    """API tokens propose drafts; members check and file them through the forms."""

    allow_reporting_members = True

    @property
    def required_scope(self):
        return "data:write" if self.request.method == "POST" else "read"

    def _own_only(self) -> bool:
        principal = self.principal
        return principal.is_session and not principal.member.is_workspace_wide

    @schema.list_drafts
    def get(self, request):
        member = self.principal.member if self._own_only() else None
        drafts = selectors.drafts_open(workspace=self.workspace, member=member)
        return Response(DraftListSerializer({"drafts": drafts}).data)

    @schema.create_draft
    def post(self, request):
        body = _body(request)
        principal = self.principal
        target = None
        named = body.get("member_id")
        if (
            self._own_only()
            and named is not None
            and selectors.parse_uuid(named) != principal.member.pk
        ):
            raise Forbidden(
                f"A {principal.member.role} proposes drafts only for themselves.",
                reason="refused.member_scope",
            )
        if selectors.parse_uuid(body.get("member_id")) is not None:
            target = selectors.member_get(workspace=self.workspace, member_id=body["member_id"])

        def perform():
            if not isinstance(request.data, dict):
                raise ApiError(
                    "The body must be a JSON object.", reason="invalid_body", field="body"
                )
            cash_path = cash_figure_path(request.data.get("fields"))
            if cash_path is not None:
                raise Unprocessable(
                    f"A draft never carries money: leave out {cash_path}; the member enters "
                    "it when filing.",
                    reason="refused.cash_figures",
                    field=cash_path,
                )
            data = validated(DraftCreateSerializer, request.data)
            member = target or (principal.member if principal.is_session else None)
            if member is None:
                raise InvalidField("member_id", "member_id: name the member who must check it.")
            fields = request.data.get("fields") or {}
            checked = validated(
                DRAFT_FIELD_SERIALIZERS[data["form"]],
                fields,
                context={"draft": True, **_money_context(self.workspace)},
                prefix="fields",
                partial=True,
            )
            draft = services.draft_create(
                workspace=self.workspace,
                actor=principal.actor,
                member=member,
                form=data["form"],
                fields=fields,
                checked=checked,
            )
            return Response(DraftSerializer(draft).data, status=201)

        return self.idempotent(request, perform)


# --- Ad spend ------------------------------------------------------------------------------


class AdSpendView(WorkspaceView):
    """GET lists the period's spend records (the figures API, scope `read`); POST writes one
    (the agent API, `data:write`; of a person's session, the owner or admin role). One
    route, described in each API by the method it holds (AdSpendReadRoute and
    AdSpendWriteRoute)."""

    @property
    def required_scope(self):
        return "read" if self.request.method in ("GET", "HEAD") else "data:write"

    @property
    def reads_from_replica(self):
        return self.request.method in ("GET", "HEAD")

    def check_access(self, principal, kwargs) -> None:
        super().check_access(principal, kwargs)
        if (
            self.request.method not in ("GET", "HEAD")
            and principal.is_session
            and principal.member.role not in ("owner", "admin")
        ):
            raise Forbidden(
                f"A {principal.member.role} reads the ad spend; owners and admins write it.",
                reason="refused.member_scope",
            )

    def list_records(self, request):
        period = period_from_query(workspace=self.workspace, params=request.query_params)
        limit = ad_spend_limit(request.query_params)
        figures = ad_spend_list(workspace=self.workspace, period=period, limit=limit)
        return Response(
            envelope_build(
                workspace=self.workspace, period=period, data=figures.data, notes=figures.notes
            )
        )

    def write_record(self, request):
        def perform():
            data = validated(
                AdSpendWriteSerializer, request.data, context=_money_context(self.workspace)
            )
            spend, created = services.ad_spend_write(
                workspace=self.workspace, actor=self.principal.actor, data=data
            )
            return Response(ad_spend_shape(spend, self.workspace), status=201 if created else 200)

        return self.idempotent(request, perform)

    @figures_schema.figures_operation(
        "listAdSpend", "ad_spend", extra=[figures_schema.AD_SPEND_LIMIT]
    )
    def get(self, request):
        return self.list_records(request)

    @schema.create_ad_spend
    def post(self, request):
        return self.write_record(request)


class AdSpendReadRoute(AdSpendView):
    """The route as the figures API describes it: its GET."""

    @extend_schema(exclude=True)
    def post(self, request):
        return self.write_record(request)


class AdSpendWriteRoute(AdSpendView):
    """The route as the agent API describes it: its POST."""

    @extend_schema(exclude=True)
    def get(self, request):
        return self.list_records(request)


# --- Goals ---------------------------------------------------------------------------------


class GoalsMonthView(WorkspaceView):
    """PUT replaces a month's goals (`data:write`; of a person's session, an owner, admin
    or manager). The goals are read with GET /api/v1/goals of the figures API."""

    required_scope = "data:write"

    def check_access(self, principal, kwargs) -> None:
        super().check_access(principal, kwargs)
        if principal.is_session and principal.member.role not in GOAL_ROLES:
            raise Forbidden(
                GoalsRefused(principal.member.role).message, reason="refused.member_scope"
            )

    @schema.replace_goals
    def put(self, request, month):
        first_day = month_of(month)

        def perform():
            data = validated(
                GoalsReplaceSerializer, request.data, context=_money_context(self.workspace)
            )
            items = data["goals"]
            named = {item["member"] for item in items if item.get("member") is not None}
            members = {member.pk: member for member in self.scoped(Member).filter(pk__in=named)}
            goals = []
            for index, item in enumerate(items):
                member = None
                if item.get("member") is not None:
                    member = members.get(item["member"])
                    if member is None:
                        field = f"goals.{index}.member"
                        raise InvalidField(field, f"{field}: no member of this workspace has it.")
                goals.append({"metric": item["metric"], "member": member, "target": item["target"]})
            principal = self.principal
            try:
                held = goals_replace(
                    workspace=self.workspace,
                    month=first_day,
                    goals=goals,
                    actor=principal.actor,
                    by_role=principal.member.role if principal.is_session else None,
                )
            except RecordInvalid as error:
                raise InvalidField(error.field, f"{error.field}: {error.message}") from None
            except GoalsRefused as error:
                raise Forbidden(error.message, reason="refused.member_scope") from None
            return Response(goals_month_shape(self.workspace, first_day, held))

        return self.idempotent(request, perform)
