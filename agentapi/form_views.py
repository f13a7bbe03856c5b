"""The agent API's forms and drafts: a member files a sales form (post-call, past-call,
DM close, EOD report) with their own session token, and API tokens propose drafts for a
member to check and file. Each handler sits under its description (extend_schema), as in
agentapi/views.py."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from core.errors import ApiError, Forbidden, InvalidField, Unprocessable
from core.input import validated
from core.openapi import IDEMPOTENCY_KEY
from core.views import WorkspaceView

from . import answers, selectors, services
from .serializers import (
    DRAFT_FIELD_SERIALIZERS,
    READ_ERRORS,
    WRITE_ERRORS,
    DmCloseAnswerSerializer,
    DmCloseFormSerializer,
    DraftCreateSerializer,
    DraftListSerializer,
    DraftSerializer,
    EodAnswerSerializer,
    EodFormSerializer,
    PastCallAnswerSerializer,
    PastCallFormSerializer,
    PostCallAnswerSerializer,
    PostCallFormSerializer,
    cash_figure_path,
    errors,
    money_context,
    request_example,
    response_example,
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


# --- Forms ---------------------------------------------------------------------------------

_FORM_DOC = (
    "Needs a member's session token with `data:write` (any role); an API token gets 403 "
    "refused.drafts_only and may propose a draft instead. Money is a decimal string or "
    "number in major units of the workspace currency with no more decimals than it has; "
    "unknown members answer 400 naming them. Filing with draft_id closes that draft (it "
    "must be the member's own and still open: another's is 404, a filed one 409 "
    "refused.draft_closed). submission_id identifies the filing: a second filing with it "
    "answers the first answer (with Idempotent-Replayed: true), whatever its body; one "
    "used for another member or form answers 422 refused.submission_id_reused."
)


_SUBMISSION = "5c2d1f3e-8a7b-4c6d-9e0f-1a2b3c4d5e6f"


_POST_CALL_REQUEST = {
    "submission_id": _SUBMISSION,
    "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    "attendance": "showed",
    "outcome": "closed",
    "offer_made": True,
    "notes": "Paid the deposit on the call.",
    "contract_value": "6000.00",
    "cash_collected": "2000.00",
    "payment_plan": "split",
    "instalments": [
        {"due_date": "2026-04-01", "amount": "2000.00"},
        {"due_date": "2026-05-01", "amount": "2000.00"},
    ],
}


_SALE_ANSWER = {
    "id": "2e4f6a8b-0c1d-4e2f-9a3b-5c7d9e1f3a5b",
    "origin": "call",
    "lead_id": "3b5d7f9a-1c3e-4a5b-8c7d-9e0f1a2b3c4d",
    "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
    "closer_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
    "setter_id": None,
    "closed_at": "2026-03-02T15:04:05Z",
    "currency": "USD",
    "contract_value": 6000,
    "cash_collected": 2000,
    "payment_id": "8c0e2a4b-6d8f-4a1c-9e3b-5d7f9a1c3e5b",
    "payment_plan": "split",
    "instalments": [
        {"due_date": "2026-04-01", "amount": 2000},
        {"due_date": "2026-05-01", "amount": 2000},
    ],
}


_FORM_ERRORS = (*WRITE_ERRORS, 404)


_DRAFT_CLOSED = response_example(
    "refused.draft_closed",
    {
        "error": {
            "reason": "refused.draft_closed",
            "message": "This draft was filed already; file without draft_id or check another.",
        },
        "field": "draft_id",
    },
    409,
)


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
        return validated(serializer_class, request.data, context=money_context(self.workspace))

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
    @extend_schema(
        operation_id="filePostCallForm",
        summary="File a post-call form",
        description="What happened on a booked call: attendance (showed|no_show), the "
        "outcome (required when showed; none for a no-show), offer_made, reason, notes, and "
        "for closed or deposit the sale (contract_value required, cash_collected, "
        "payment_plan, instalments). Sets the call's attendance and offer, records an "
        "outcome (the call's outcome becomes its latest), and for a sale records it with its "
        "instalments and a succeeded payment for cash_collected. The member must hold the "
        "call's closer or setter slot, else 403 refused.member_scope; an unknown call_id "
        "answers 404; a cancelled or rescheduled call 400. " + _FORM_DOC,
        parameters=[IDEMPOTENCY_KEY],
        request=PostCallFormSerializer,
        responses={201: PostCallAnswerSerializer, **errors(*_FORM_ERRORS)},
        examples=[
            request_example("Closed with a split plan", _POST_CALL_REQUEST),
            response_example(
                "Filed",
                {
                    "form": "post-call",
                    "submission_id": _SUBMISSION,
                    "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                    "filed_at": "2026-03-02T15:04:05Z",
                    "draft_id": None,
                    "call": {
                        "id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
                        "attendance": "showed",
                        "offer_made": True,
                        "outcome": "closed",
                    },
                    "outcome": {
                        "id": "1a3c5e7f-9b0d-4f2a-8c4e-6a8c0e2a4c6e",
                        "result": "closed",
                        "offer_made": True,
                        "reason": "",
                        "at": "2026-03-02T15:04:05Z",
                    },
                    "sale": _SALE_ANSWER,
                },
                201,
            ),
            _DRAFT_CLOSED,
        ],
    )
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
    @extend_schema(
        operation_id="filePastCallForm",
        summary="File a past-call form",
        description="A call that happened with no booking: lead (its id, or {name, email}: "
        "the lead with that email, else a new one), occurred_at (with an offset, not in the "
        "future), outcome, offer_made, reason, notes, and for closed or deposit the sale "
        "fields. Records an outcome on the lead by the member, and a sale (the member as "
        "closer). An unknown lead id answers 404. " + _FORM_DOC,
        parameters=[IDEMPOTENCY_KEY],
        request=PastCallFormSerializer,
        responses={201: PastCallAnswerSerializer, **errors(*_FORM_ERRORS)},
        examples=[
            request_example(
                "Follow-up with a new lead",
                {
                    "submission_id": _SUBMISSION,
                    "lead": {"name": "Dana Reyes", "email": "dana@example.com"},
                    "occurred_at": "2026-03-02T10:00:00-05:00",
                    "outcome": "follow_up",
                    "offer_made": True,
                    "reason": "Wants to talk to her partner",
                },
            )
        ],
    )
    def post(self, request):
        return self.file_lead_form(request, PastCallFormSerializer, services.form_past_call_file)


class DmCloseFormView(FormView):
    @extend_schema(
        operation_id="fileDmCloseForm",
        summary="File a DM-close form",
        description="A sale agreed over messages, with no call: lead (id, or {name, email}), "
        "platform, closed_at (with an offset, not in the future) and the sale fields "
        "(contract_value required). Records a sale of origin dm with the member in the "
        "setter slot, and a succeeded payment for cash_collected. " + _FORM_DOC,
        parameters=[IDEMPOTENCY_KEY],
        request=DmCloseFormSerializer,
        responses={201: DmCloseAnswerSerializer, **errors(*_FORM_ERRORS)},
        examples=[
            request_example(
                "Paid in full on Instagram",
                {
                    "submission_id": _SUBMISSION,
                    "lead": "3b5d7f9a-1c3e-4a5b-8c7d-9e0f1a2b3c4d",
                    "platform": "instagram",
                    "closed_at": "2026-03-02T18:30:00+00:00",
                    "contract_value": 1500,
                    "cash_collected": 1500,
                    "payment_plan": "paid_in_full",
                },
            )
        ],
    )
    def post(self, request):
        return self.file_lead_form(request, DmCloseFormSerializer, services.form_dm_close_file)


class EodFormView(FormView):
    @extend_schema(
        operation_id="fileEodForm",
        summary="File the member's end-of-day report",
        description="date (the local day in the workspace timezone; default today there, never "
        "after it) and fields: counts (whole numbers from 0) and text by snake_case name. "
        "One report per member per day: the first filing answers 201, a later one for the same "
        "day replaces its fields and answers 200 with edited: true. submission_id is optional "
        "here. " + _FORM_DOC,
        parameters=[IDEMPOTENCY_KEY],
        request=EodFormSerializer,
        responses={
            201: EodAnswerSerializer,
            200: EodAnswerSerializer,
            **errors(*_FORM_ERRORS),
        },
        examples=[
            request_example(
                "A setter's day",
                {
                    "date": "2026-03-02",
                    "fields": {
                        "dials": 84,
                        "conversations": 19,
                        "calls_booked": 4,
                        "notes": "Two no-shows rebooked for Thursday.",
                    },
                },
            )
        ],
    )
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

    @extend_schema(
        operation_id="listDrafts",
        summary="Open drafts",
        description="Drafts not yet filed, oldest first. A closer's, setter's or SDR's session "
        "token sees only drafts for them; a workspace API token and an owner's, admin's or "
        "manager's session token see all.",
        responses={200: DraftListSerializer, **errors(*READ_ERRORS)},
        examples=[
            response_example(
                "One open draft",
                {
                    "drafts": [
                        {
                            "id": "9e7c5a3b-1d2f-4e6a-8b0c-2d4f6a8c0e1b",
                            "form": "eod",
                            "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                            "fields": {"fields": {"dials": 80, "conversations": 14}},
                            "status": "open",
                            "created_at": "2026-03-02T21:00:00Z",
                            "created_by": {
                                "kind": "workspace_token",
                                "id": "1c3e5a7b-9d0f-4b2a-8c4e-6a8b0c2d4e6f",
                                "label": "Dialer sync",
                            },
                        }
                    ]
                },
            )
        ],
    )
    def get(self, request):
        member = self.principal.member if self._own_only() else None
        drafts = selectors.drafts_open(workspace=self.workspace, member=member)
        return Response(DraftListSerializer({"drafts": drafts}).data)

    @extend_schema(
        operation_id="createDraft",
        summary="Propose a draft of a form for a member to check",
        description="form (post-call, past-call, dm-close or eod), member_id (who must check "
        "it; with a session token it defaults to the signed-in member, and a closer, setter or "
        "SDR may propose only for themselves: else 403 refused.member_scope) and fields (the "
        "form's own members, any may be left out). A draft never carries money: any member "
        "anywhere in fields named cash_collected, contract_value, payment_plan or instalments, "
        "or whose name contains cash, revenue, payment or instalment, answers 422 "
        "refused.cash_figures naming it, before any other check of fields. An unknown "
        "member_id answers 404. Idempotent on the Idempotency-Key header.",
        parameters=[IDEMPOTENCY_KEY],
        request=DraftCreateSerializer,
        responses={
            201: DraftSerializer,
            **errors(
                *WRITE_ERRORS,
                404,
                extra={
                    422: (
                        "refused.cash_figures: the draft carries money; or "
                        "refused.idempotency_key_reused.",
                        [
                            response_example(
                                "refused.cash_figures",
                                {
                                    "error": {
                                        "reason": "refused.cash_figures",
                                        "message": "A draft never carries money: leave out "
                                        "fields.payment; the member enters it when filing.",
                                    },
                                    "field": "fields.payment",
                                },
                                422,
                            )
                        ],
                    )
                },
            ),
        },
        examples=[
            request_example(
                "A post-call draft",
                {
                    "form": "post-call",
                    "member_id": "6f8a0b2c-4d6e-4f80-9a1b-3c5d7e9f1a2b",
                    "fields": {
                        "call_id": "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
                        "attendance": "showed",
                        "outcome": "follow_up",
                        "notes": "From the call transcript: asked for a case study.",
                    },
                },
            )
        ],
    )
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
                context={"draft": True, **money_context(self.workspace)},
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
