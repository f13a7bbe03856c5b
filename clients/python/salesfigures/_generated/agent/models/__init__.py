"""Contains all the data models used in inputs/outputs"""

from .actor import Actor
from .agency_workspace import AgencyWorkspace
from .agency_workspace_list import AgencyWorkspaceList
from .agency_workspace_status_enum import AgencyWorkspaceStatusEnum
from .agent_envelope_workspace import AgentEnvelopeWorkspace
from .approval_enum import ApprovalEnum
from .attendance_enum import AttendanceEnum
from .blueprint import Blueprint
from .blueprint_body_request import BlueprintBodyRequest
from .blueprint_list import BlueprintList
from .board_calls import BoardCalls
from .board_commission import BoardCommission
from .board_data import BoardData
from .board_envelope import BoardEnvelope
from .board_eod import BoardEod
from .board_member import BoardMember
from .board_payments import BoardPayments
from .board_period import BoardPeriod
from .call_answer import CallAnswer
from .change_create_request import ChangeCreateRequest
from .change_entry import ChangeEntry
from .change_list import ChangeList
from .compare_data import CompareData
from .compare_data_figures import CompareDataFigures
from .compare_envelope import CompareEnvelope
from .compare_figure import CompareFigure
from .compare_period import ComparePeriod
from .compare_side import CompareSide
from .connect_link_body_request import ConnectLinkBodyRequest
from .connect_link_created import ConnectLinkCreated
from .connect_link_integration import ConnectLinkIntegration
from .connect_link_state import ConnectLinkState
from .display import Display
from .display_colours import DisplayColours
from .display_labels import DisplayLabels
from .dm_close_answer import DmCloseAnswer
from .dm_close_form_request import DmCloseFormRequest
from .dm_close_form_request_lead_type_1 import DmCloseFormRequestLeadType1
from .draft import Draft
from .draft_create_request import DraftCreateRequest
from .draft_create_request_fields import DraftCreateRequestFields
from .draft_fields import DraftFields
from .draft_list import DraftList
from .draft_status_enum import DraftStatusEnum
from .eod_answer import EodAnswer
from .eod_form_request import EodFormRequest
from .eod_form_request_fields import EodFormRequestFields
from .eod_report_answer import EodReportAnswer
from .eod_report_answer_fields import EodReportAnswerFields
from .error import Error
from .error_detail import ErrorDetail
from .field import Field
from .field_side import FieldSide
from .form_enum import FormEnum
from .instalment_answer import InstalmentAnswer
from .instalment_request import InstalmentRequest
from .integrations_enum import IntegrationsEnum
from .kind_enum import KindEnum
from .lead_answer import LeadAnswer
from .metric_enum import MetricEnum
from .note import Note
from .note_code_enum import NoteCodeEnum
from .op_enum import OpEnum
from .origin_enum import OriginEnum
from .outcome_answer import OutcomeAnswer
from .outcome_enum import OutcomeEnum
from .past_call_answer import PastCallAnswer
from .past_call_form_request import PastCallFormRequest
from .past_call_form_request_lead_type_1 import PastCallFormRequestLeadType1
from .payment_plan_enum import PaymentPlanEnum
from .period import Period
from .plan import Plan
from .plan_applied import PlanApplied
from .plan_applied_result import PlanAppliedResult
from .plan_body_request import PlanBodyRequest
from .plan_change import PlanChange
from .plan_change_detail import PlanChangeDetail
from .plan_change_status_enum import PlanChangeStatusEnum
from .plan_connect_link import PlanConnectLink
from .plan_connect_link_with_url import PlanConnectLinkWithUrl
from .plan_invited import PlanInvited
from .plan_member import PlanMember
from .plan_member_token import PlanMemberToken
from .plan_programme import PlanProgramme
from .plan_programme_request import PlanProgrammeRequest
from .plan_result import PlanResult
from .plan_settings import PlanSettings
from .plan_settings_colours import PlanSettingsColours
from .plan_settings_labels import PlanSettingsLabels
from .plan_settings_request import PlanSettingsRequest
from .plan_settings_request_colours import PlanSettingsRequestColours
from .plan_settings_request_labels import PlanSettingsRequestLabels
from .plan_team_member import PlanTeamMember
from .plan_team_member_request import PlanTeamMemberRequest
from .plan_workspace_request import PlanWorkspaceRequest
from .post_call_answer import PostCallAnswer
from .post_call_form_request import PostCallFormRequest
from .role_enum import RoleEnum
from .sale_answer import SaleAnswer
from .state_enum import StateEnum
from .unavailable import Unavailable
from .unavailable_code_enum import UnavailableCodeEnum
from .unit_enum import UnitEnum
from .workspace_item import WorkspaceItem
from .workspace_list import WorkspaceList

__all__ = (
    "Actor",
    "AgencyWorkspace",
    "AgencyWorkspaceList",
    "AgencyWorkspaceStatusEnum",
    "AgentEnvelopeWorkspace",
    "ApprovalEnum",
    "AttendanceEnum",
    "Blueprint",
    "BlueprintBodyRequest",
    "BlueprintList",
    "BoardCalls",
    "BoardCommission",
    "BoardData",
    "BoardEnvelope",
    "BoardEod",
    "BoardMember",
    "BoardPayments",
    "BoardPeriod",
    "CallAnswer",
    "ChangeCreateRequest",
    "ChangeEntry",
    "ChangeList",
    "CompareData",
    "CompareDataFigures",
    "CompareEnvelope",
    "CompareFigure",
    "ComparePeriod",
    "CompareSide",
    "ConnectLinkBodyRequest",
    "ConnectLinkCreated",
    "ConnectLinkIntegration",
    "ConnectLinkState",
    "Display",
    "DisplayColours",
    "DisplayLabels",
    "DmCloseAnswer",
    "DmCloseFormRequest",
    "DmCloseFormRequestLeadType1",
    "Draft",
    "DraftCreateRequest",
    "DraftCreateRequestFields",
    "DraftFields",
    "DraftList",
    "DraftStatusEnum",
    "EodAnswer",
    "EodFormRequest",
    "EodFormRequestFields",
    "EodReportAnswer",
    "EodReportAnswerFields",
    "Error",
    "ErrorDetail",
    "Field",
    "FieldSide",
    "FormEnum",
    "InstalmentAnswer",
    "InstalmentRequest",
    "IntegrationsEnum",
    "KindEnum",
    "LeadAnswer",
    "MetricEnum",
    "Note",
    "NoteCodeEnum",
    "OpEnum",
    "OriginEnum",
    "OutcomeAnswer",
    "OutcomeEnum",
    "PastCallAnswer",
    "PastCallFormRequest",
    "PastCallFormRequestLeadType1",
    "PaymentPlanEnum",
    "Period",
    "Plan",
    "PlanApplied",
    "PlanAppliedResult",
    "PlanBodyRequest",
    "PlanChange",
    "PlanChangeDetail",
    "PlanChangeStatusEnum",
    "PlanConnectLink",
    "PlanConnectLinkWithUrl",
    "PlanInvited",
    "PlanMember",
    "PlanMemberToken",
    "PlanProgramme",
    "PlanProgrammeRequest",
    "PlanResult",
    "PlanSettings",
    "PlanSettingsColours",
    "PlanSettingsLabels",
    "PlanSettingsRequest",
    "PlanSettingsRequestColours",
    "PlanSettingsRequestLabels",
    "PlanTeamMember",
    "PlanTeamMemberRequest",
    "PlanWorkspaceRequest",
    "PostCallAnswer",
    "PostCallFormRequest",
    "RoleEnum",
    "SaleAnswer",
    "StateEnum",
    "Unavailable",
    "UnavailableCodeEnum",
    "UnitEnum",
    "WorkspaceItem",
    "WorkspaceList",
)
