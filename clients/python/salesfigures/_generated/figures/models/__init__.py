"""Contains all the data models used in inputs/outputs"""

from .access_enum import AccessEnum
from .acquisition_row import AcquisitionRow
from .acquisition_total import AcquisitionTotal
from .ad_spend_record import AdSpendRecord
from .approval_enum import ApprovalEnum
from .attribution_row import AttributionRow
from .audit_actor import AuditActor
from .audit_event_row import AuditEventRow
from .audit_target import AuditTarget
from .commission_row import CommissionRow
from .commission_row_rule_type_0 import CommissionRowRuleType0
from .envelope_period import EnvelopePeriod
from .envelope_workspace import EnvelopeWorkspace
from .eod_member_row import EodMemberRow
from .error import Error
from .error_detail import ErrorDetail
from .event import Event
from .event_data import EventData
from .event_list import EventList
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
from .get_leaderboard_data import GetLeaderboardData
from .get_leaderboard_envelope import GetLeaderboardEnvelope
from .get_leaderboard_role import GetLeaderboardRole
from .get_series_data import GetSeriesData
from .get_series_data_metric_enum import GetSeriesDataMetricEnum
from .get_series_envelope import GetSeriesEnvelope
from .get_series_interval import GetSeriesInterval
from .get_series_metric import GetSeriesMetric
from .get_webinar_data import GetWebinarData
from .get_webinar_data_event_type_0 import GetWebinarDataEventType0
from .get_webinar_envelope import GetWebinarEnvelope
from .goal_metric_enum import GoalMetricEnum
from .goal_row import GoalRow
from .goal_row_member import GoalRowMember
from .interval_enum import IntervalEnum
from .leaderboard_row import LeaderboardRow
from .list_acquisition_by import ListAcquisitionBy
from .list_acquisition_data import ListAcquisitionData
from .list_acquisition_envelope import ListAcquisitionEnvelope
from .list_ad_spend_data import ListAdSpendData
from .list_ad_spend_envelope import ListAdSpendEnvelope
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
from .list_goals_data import ListGoalsData
from .list_goals_envelope import ListGoalsEnvelope
from .list_leads_data import ListLeadsData
from .list_leads_data_leads_item import ListLeadsDataLeadsItem
from .list_leads_envelope import ListLeadsEnvelope
from .list_outcomes_data import ListOutcomesData
from .list_outcomes_envelope import ListOutcomesEnvelope
from .list_payment_figures_data import ListPaymentFiguresData
from .list_payment_figures_envelope import ListPaymentFiguresEnvelope
from .list_speed_to_lead_data import ListSpeedToLeadData
from .list_speed_to_lead_envelope import ListSpeedToLeadEnvelope
from .no_sale_reason import NoSaleReason
from .note import Note
from .note_code_enum import NoteCodeEnum
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
    "AcquisitionRow",
    "AcquisitionTotal",
    "AdSpendRecord",
    "ApprovalEnum",
    "AttributionRow",
    "AuditActor",
    "AuditEventRow",
    "AuditTarget",
    "CommissionRow",
    "CommissionRowRuleType0",
    "EnvelopePeriod",
    "EnvelopeWorkspace",
    "EodMemberRow",
    "Error",
    "ErrorDetail",
    "Event",
    "EventData",
    "EventList",
    "EventTypeEnum",
    "Field",
    "FieldMetricEnum",
    "FieldSide",
    "FunnelStageRow",
    "GetFunnelData",
    "GetFunnelEnvelope",
    "GetLeaderboardData",
    "GetLeaderboardEnvelope",
    "GetLeaderboardRole",
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
    "GoalMetricEnum",
    "GoalRow",
    "GoalRowMember",
    "IntervalEnum",
    "LeaderboardRow",
    "ListAcquisitionBy",
    "ListAcquisitionData",
    "ListAcquisitionEnvelope",
    "ListAdSpendData",
    "ListAdSpendEnvelope",
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
    "ListGoalsData",
    "ListGoalsEnvelope",
    "ListLeadsData",
    "ListLeadsDataLeadsItem",
    "ListLeadsEnvelope",
    "ListOutcomesData",
    "ListOutcomesEnvelope",
    "ListPaymentFiguresData",
    "ListPaymentFiguresEnvelope",
    "ListSpeedToLeadData",
    "ListSpeedToLeadEnvelope",
    "NoSaleReason",
    "Note",
    "NoteCodeEnum",
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
