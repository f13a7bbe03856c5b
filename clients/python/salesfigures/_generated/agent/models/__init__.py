"""Contains all the data models used in inputs/outputs"""

from .actor import Actor
from .ad_spend_event_data import AdSpendEventData
from .ad_spend_record import AdSpendRecord
from .ad_spend_write_request import AdSpendWriteRequest
from .agency_workspace import AgencyWorkspace
from .agency_workspace_list import AgencyWorkspaceList
from .agency_workspace_status_enum import AgencyWorkspaceStatusEnum
from .agent_envelope_workspace import AgentEnvelopeWorkspace
from .approval_enum import ApprovalEnum
from .attendance_enum import AttendanceEnum
from .blank_enum import BlankEnum
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
from .call_event_data import CallEventData
from .call_event_data_attendance_enum import CallEventDataAttendanceEnum
from .call_event_data_status_enum import CallEventDataStatusEnum
from .change_create_request import ChangeCreateRequest
from .change_entry import ChangeEntry
from .change_event_actor import ChangeEventActor
from .change_event_data import ChangeEventData
from .change_event_data_kind_enum import ChangeEventDataKindEnum
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
from .endpoint import Endpoint
from .endpoint_create_request import EndpointCreateRequest
from .endpoint_created import EndpointCreated
from .endpoint_list import EndpointList
from .eod_answer import EodAnswer
from .eod_event_data import EodEventData
from .eod_event_data_fields import EodEventDataFields
from .eod_form_request import EodFormRequest
from .eod_form_request_fields import EodFormRequestFields
from .eod_report_answer import EodReportAnswer
from .eod_report_answer_fields import EodReportAnswerFields
from .error import Error
from .error_detail import ErrorDetail
from .event_ad_spend_updated import EventAdSpendUpdated
from .event_call_booked import EventCallBooked
from .event_call_cancelled import EventCallCancelled
from .event_call_outcome_recorded import EventCallOutcomeRecorded
from .event_call_rescheduled import EventCallRescheduled
from .event_change_created import EventChangeCreated
from .event_eod_submitted import EventEodSubmitted
from .event_goal_updated import EventGoalUpdated
from .event_integration_failing import EventIntegrationFailing
from .event_lead_created import EventLeadCreated
from .event_lead_updated import EventLeadUpdated
from .event_member_added import EventMemberAdded
from .event_member_removed import EventMemberRemoved
from .event_payment_failed import EventPaymentFailed
from .event_payment_refunded import EventPaymentRefunded
from .event_payment_succeeded import EventPaymentSucceeded
from .event_plan_applied import EventPlanApplied
from .event_sale_closed import EventSaleClosed
from .event_type_enum import EventTypeEnum
from .field import Field
from .field_side import FieldSide
from .form_enum import FormEnum
from .goal import Goal
from .goal_item_request import GoalItemRequest
from .goal_member import GoalMember
from .goal_metric_enum import GoalMetricEnum
from .goal_unit_enum import GoalUnitEnum
from .goals_month import GoalsMonth
from .goals_replace_request import GoalsReplaceRequest
from .instalment_answer import InstalmentAnswer
from .instalment_request import InstalmentRequest
from .integration_event_data import IntegrationEventData
from .integrations_enum import IntegrationsEnum
from .kind_enum import KindEnum
from .lead_answer import LeadAnswer
from .lead_event_data import LeadEventData
from .lead_event_utm import LeadEventUtm
from .member_event_data import MemberEventData
from .metric_enum import MetricEnum
from .note import Note
from .note_code_enum import NoteCodeEnum
from .op_enum import OpEnum
from .origin_enum import OriginEnum
from .outcome_answer import OutcomeAnswer
from .outcome_enum import OutcomeEnum
from .outcome_event_data import OutcomeEventData
from .past_call_answer import PastCallAnswer
from .past_call_form_request import PastCallFormRequest
from .past_call_form_request_lead_type_1 import PastCallFormRequestLeadType1
from .patched_endpoint_update_request import PatchedEndpointUpdateRequest
from .payment_event_data import PaymentEventData
from .payment_event_data_status_enum import PaymentEventDataStatusEnum
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
from .plan_event_change import PlanEventChange
from .plan_event_change_status_enum import PlanEventChangeStatusEnum
from .plan_event_data import PlanEventData
from .plan_event_invite import PlanEventInvite
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
from .refund import Refund
from .refund_event_data import RefundEventData
from .refund_kind_enum import RefundKindEnum
from .result_enum import ResultEnum
from .role_enum import RoleEnum
from .sale_answer import SaleAnswer
from .sale_event_data import SaleEventData
from .sale_event_data_origin_enum import SaleEventDataOriginEnum
from .sale_event_data_payment_plan_enum import SaleEventDataPaymentPlanEnum
from .state_enum import StateEnum
from .unavailable import Unavailable
from .unavailable_code_enum import UnavailableCodeEnum
from .unit_enum import UnitEnum
from .workspace_item import WorkspaceItem
from .workspace_list import WorkspaceList

__all__ = (
    "Actor",
    "AdSpendEventData",
    "AdSpendRecord",
    "AdSpendWriteRequest",
    "AgencyWorkspace",
    "AgencyWorkspaceList",
    "AgencyWorkspaceStatusEnum",
    "AgentEnvelopeWorkspace",
    "ApprovalEnum",
    "AttendanceEnum",
    "BlankEnum",
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
    "CallEventData",
    "CallEventDataAttendanceEnum",
    "CallEventDataStatusEnum",
    "ChangeCreateRequest",
    "ChangeEntry",
    "ChangeEventActor",
    "ChangeEventData",
    "ChangeEventDataKindEnum",
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
    "Endpoint",
    "EndpointCreated",
    "EndpointCreateRequest",
    "EndpointList",
    "EodAnswer",
    "EodEventData",
    "EodEventDataFields",
    "EodFormRequest",
    "EodFormRequestFields",
    "EodReportAnswer",
    "EodReportAnswerFields",
    "Error",
    "ErrorDetail",
    "EventAdSpendUpdated",
    "EventCallBooked",
    "EventCallCancelled",
    "EventCallOutcomeRecorded",
    "EventCallRescheduled",
    "EventChangeCreated",
    "EventEodSubmitted",
    "EventGoalUpdated",
    "EventIntegrationFailing",
    "EventLeadCreated",
    "EventLeadUpdated",
    "EventMemberAdded",
    "EventMemberRemoved",
    "EventPaymentFailed",
    "EventPaymentRefunded",
    "EventPaymentSucceeded",
    "EventPlanApplied",
    "EventSaleClosed",
    "EventTypeEnum",
    "Field",
    "FieldSide",
    "FormEnum",
    "Goal",
    "GoalItemRequest",
    "GoalMember",
    "GoalMetricEnum",
    "GoalsMonth",
    "GoalsReplaceRequest",
    "GoalUnitEnum",
    "InstalmentAnswer",
    "InstalmentRequest",
    "IntegrationEventData",
    "IntegrationsEnum",
    "KindEnum",
    "LeadAnswer",
    "LeadEventData",
    "LeadEventUtm",
    "MemberEventData",
    "MetricEnum",
    "Note",
    "NoteCodeEnum",
    "OpEnum",
    "OriginEnum",
    "OutcomeAnswer",
    "OutcomeEnum",
    "OutcomeEventData",
    "PastCallAnswer",
    "PastCallFormRequest",
    "PastCallFormRequestLeadType1",
    "PatchedEndpointUpdateRequest",
    "PaymentEventData",
    "PaymentEventDataStatusEnum",
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
    "PlanEventChange",
    "PlanEventChangeStatusEnum",
    "PlanEventData",
    "PlanEventInvite",
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
    "Refund",
    "RefundEventData",
    "RefundKindEnum",
    "ResultEnum",
    "RoleEnum",
    "SaleAnswer",
    "SaleEventData",
    "SaleEventDataOriginEnum",
    "SaleEventDataPaymentPlanEnum",
    "StateEnum",
    "Unavailable",
    "UnavailableCodeEnum",
    "UnitEnum",
    "WorkspaceItem",
    "WorkspaceList",
)
