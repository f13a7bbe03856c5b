"""Contains all the data models used in inputs/outputs"""

from .access_enum import AccessEnum
from .approval_enum import ApprovalEnum
from .attendance_enum import AttendanceEnum
from .attribution_row import AttributionRow
from .audit_actor import AuditActor
from .audit_event_row import AuditEventRow
from .audit_target import AuditTarget
from .blank_enum import BlankEnum
from .call_event_data import CallEventData
from .call_event_data_status_enum import CallEventDataStatusEnum
from .change_event_actor import ChangeEventActor
from .change_event_data import ChangeEventData
from .change_event_data_kind_enum import ChangeEventDataKindEnum
from .commission_row import CommissionRow
from .commission_row_rule_type_0 import CommissionRowRuleType0
from .endpoint import Endpoint
from .endpoint_create_request import EndpointCreateRequest
from .endpoint_created import EndpointCreated
from .endpoint_list import EndpointList
from .envelope_period import EnvelopePeriod
from .envelope_workspace import EnvelopeWorkspace
from .eod_event_data import EodEventData
from .eod_event_data_fields import EodEventDataFields
from .eod_member_row import EodMemberRow
from .error import Error
from .error_detail import ErrorDetail
from .event import Event
from .event_call_booked import EventCallBooked
from .event_call_cancelled import EventCallCancelled
from .event_call_outcome_recorded import EventCallOutcomeRecorded
from .event_call_rescheduled import EventCallRescheduled
from .event_change_created import EventChangeCreated
from .event_data import EventData
from .event_eod_submitted import EventEodSubmitted
from .event_integration_failing import EventIntegrationFailing
from .event_lead_created import EventLeadCreated
from .event_lead_updated import EventLeadUpdated
from .event_list import EventList
from .event_member_added import EventMemberAdded
from .event_member_removed import EventMemberRemoved
from .event_payment_failed import EventPaymentFailed
from .event_payment_refunded import EventPaymentRefunded
from .event_payment_succeeded import EventPaymentSucceeded
from .event_plan_applied import EventPlanApplied
from .event_sale_closed import EventSaleClosed
from .event_type_enum import EventTypeEnum
from .field import Field
from .field_metric_enum import FieldMetricEnum
from .field_side import FieldSide
from .funnel_stage_row import FunnelStageRow
from .get_funnel_data import GetFunnelData
from .get_funnel_envelope import GetFunnelEnvelope
from .get_lead_journey_data import GetLeadJourneyData
from .get_lead_journey_data_events_item import GetLeadJourneyDataEventsItem
from .get_lead_journey_data_lead import GetLeadJourneyDataLead
from .get_lead_journey_envelope import GetLeadJourneyEnvelope
from .get_series_data import GetSeriesData
from .get_series_data_metric_enum import GetSeriesDataMetricEnum
from .get_series_envelope import GetSeriesEnvelope
from .get_series_interval import GetSeriesInterval
from .get_series_metric import GetSeriesMetric
from .get_webinar_data import GetWebinarData
from .get_webinar_data_event_type_0 import GetWebinarDataEventType0
from .get_webinar_envelope import GetWebinarEnvelope
from .integration_event_data import IntegrationEventData
from .interval_enum import IntervalEnum
from .lead_event_data import LeadEventData
from .lead_event_utm import LeadEventUtm
from .list_attribution_data import ListAttributionData
from .list_attribution_envelope import ListAttributionEnvelope
from .list_audit_events_data import ListAuditEventsData
from .list_audit_events_envelope import ListAuditEventsEnvelope
from .list_call_figures_data import ListCallFiguresData
from .list_call_figures_envelope import ListCallFiguresEnvelope
from .list_commission_data import ListCommissionData
from .list_commission_envelope import ListCommissionEnvelope
from .list_eod_figures_data import ListEodFiguresData
from .list_eod_figures_envelope import ListEodFiguresEnvelope
from .list_leads_data import ListLeadsData
from .list_leads_data_leads_item import ListLeadsDataLeadsItem
from .list_leads_envelope import ListLeadsEnvelope
from .list_outcomes_data import ListOutcomesData
from .list_outcomes_envelope import ListOutcomesEnvelope
from .list_payment_figures_data import ListPaymentFiguresData
from .list_payment_figures_envelope import ListPaymentFiguresEnvelope
from .list_speed_to_lead_data import ListSpeedToLeadData
from .list_speed_to_lead_envelope import ListSpeedToLeadEnvelope
from .member_event_data import MemberEventData
from .no_sale_reason import NoSaleReason
from .note import Note
from .note_code_enum import NoteCodeEnum
from .origin_enum import OriginEnum
from .outcome_event_data import OutcomeEventData
from .patched_endpoint_update_request import PatchedEndpointUpdateRequest
from .payment_event_data import PaymentEventData
from .payment_event_data_status_enum import PaymentEventDataStatusEnum
from .payment_plan_enum import PaymentPlanEnum
from .plan_event_change import PlanEventChange
from .plan_event_change_status_enum import PlanEventChangeStatusEnum
from .plan_event_data import PlanEventData
from .plan_event_invite import PlanEventInvite
from .provider_enum import ProviderEnum
from .refund import Refund
from .refund_event_data import RefundEventData
from .refund_kind_enum import RefundKindEnum
from .result_enum import ResultEnum
from .role_enum import RoleEnum
from .sale_event_data import SaleEventData
from .series_point import SeriesPoint
from .unavailable import Unavailable
from .unavailable_code_enum import UnavailableCodeEnum
from .unit_enum import UnitEnum
from .waiting_lead import WaitingLead
from .waiting_lead_setter_type_0 import WaitingLeadSetterType0
from .whoami import Whoami
from .whoami_token import WhoamiToken
from .whoami_workspace import WhoamiWorkspace

__all__ = (
    "AccessEnum",
    "ApprovalEnum",
    "AttendanceEnum",
    "AttributionRow",
    "AuditActor",
    "AuditEventRow",
    "AuditTarget",
    "BlankEnum",
    "CallEventData",
    "CallEventDataStatusEnum",
    "ChangeEventActor",
    "ChangeEventData",
    "ChangeEventDataKindEnum",
    "CommissionRow",
    "CommissionRowRuleType0",
    "Endpoint",
    "EndpointCreated",
    "EndpointCreateRequest",
    "EndpointList",
    "EnvelopePeriod",
    "EnvelopeWorkspace",
    "EodEventData",
    "EodEventDataFields",
    "EodMemberRow",
    "Error",
    "ErrorDetail",
    "Event",
    "EventCallBooked",
    "EventCallCancelled",
    "EventCallOutcomeRecorded",
    "EventCallRescheduled",
    "EventChangeCreated",
    "EventData",
    "EventEodSubmitted",
    "EventIntegrationFailing",
    "EventLeadCreated",
    "EventLeadUpdated",
    "EventList",
    "EventMemberAdded",
    "EventMemberRemoved",
    "EventPaymentFailed",
    "EventPaymentRefunded",
    "EventPaymentSucceeded",
    "EventPlanApplied",
    "EventSaleClosed",
    "EventTypeEnum",
    "Field",
    "FieldMetricEnum",
    "FieldSide",
    "FunnelStageRow",
    "GetFunnelData",
    "GetFunnelEnvelope",
    "GetLeadJourneyData",
    "GetLeadJourneyDataEventsItem",
    "GetLeadJourneyDataLead",
    "GetLeadJourneyEnvelope",
    "GetSeriesData",
    "GetSeriesDataMetricEnum",
    "GetSeriesEnvelope",
    "GetSeriesInterval",
    "GetSeriesMetric",
    "GetWebinarData",
    "GetWebinarDataEventType0",
    "GetWebinarEnvelope",
    "IntegrationEventData",
    "IntervalEnum",
    "LeadEventData",
    "LeadEventUtm",
    "ListAttributionData",
    "ListAttributionEnvelope",
    "ListAuditEventsData",
    "ListAuditEventsEnvelope",
    "ListCallFiguresData",
    "ListCallFiguresEnvelope",
    "ListCommissionData",
    "ListCommissionEnvelope",
    "ListEodFiguresData",
    "ListEodFiguresEnvelope",
    "ListLeadsData",
    "ListLeadsDataLeadsItem",
    "ListLeadsEnvelope",
    "ListOutcomesData",
    "ListOutcomesEnvelope",
    "ListPaymentFiguresData",
    "ListPaymentFiguresEnvelope",
    "ListSpeedToLeadData",
    "ListSpeedToLeadEnvelope",
    "MemberEventData",
    "NoSaleReason",
    "Note",
    "NoteCodeEnum",
    "OriginEnum",
    "OutcomeEventData",
    "PatchedEndpointUpdateRequest",
    "PaymentEventData",
    "PaymentEventDataStatusEnum",
    "PaymentPlanEnum",
    "PlanEventChange",
    "PlanEventChangeStatusEnum",
    "PlanEventData",
    "PlanEventInvite",
    "ProviderEnum",
    "Refund",
    "RefundEventData",
    "RefundKindEnum",
    "ResultEnum",
    "RoleEnum",
    "SaleEventData",
    "SeriesPoint",
    "Unavailable",
    "UnavailableCodeEnum",
    "UnitEnum",
    "WaitingLead",
    "WaitingLeadSetterType0",
    "Whoami",
    "WhoamiToken",
    "WhoamiWorkspace",
)
