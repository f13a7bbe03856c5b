"""Reads behind the figures API, each a small fixed number of aggregate queries.

One module per endpoint family (calls, outcomes, payments and commission, leads and
attribution, acquisition and ad spend, funnel, webinar, eod, speed to lead, goals and the leaderboard, journey, series, audit events, the
member's board); base holds what they share. Every selector takes keyword arguments: the
`workspace`, a `period` (figures.period.Period: a UTC range [start, end) plus its local
days) and, where it makes sense, an optional `member` that restricts the figures to the
records where that member holds a slot (a call's or sale's closer or setter, a lead's
setter, their own EOD reports). Every selector answers a base.Figures: the `data` built of
figures.envelope.Field objects and the `notes` about it, which the views wrap with
figures.envelope.envelope_build. Counting and summing happen in the database (conditional
aggregation, subqueries); Python only arranges the few grouped rows that come back.
"""

from .acquisition import (
    AD_SPEND_LIMIT_DEFAULT,
    AD_SPEND_LIMIT_MAX,
    BY,
    BY_DEFAULT,
    acquisition_figures,
    acquisition_total,
    ad_spend_list,
    ad_spend_of_period,
)
from .audit_events import audit_events_list
from .base import NONE_LABEL, Figures
from .board import KEY_FIGURES, key_figures, member_board
from .calls import calls_awaiting_outcome, calls_figures, calls_of_figure
from .eod import eod_days_missed, eod_figures, eod_filed_on, eod_reports_of_period
from .funnel import DEFAULT_FUNNEL, funnel_figures
from .goals import (
    GOAL_SERIES_METRICS,
    ROLE_DEFAULT,
    ROLES,
    goal_month_period,
    goal_series,
    goals_figures,
    leaderboard,
    this_month,
)
from .journey import lead_journey
from .leads import (
    LEADS_LIMIT_DEFAULT,
    LEADS_LIMIT_MAX,
    UTM_FIELDS,
    attribution_figures,
    leads_created_of_attribution,
    leads_figures,
    leads_list,
    leads_of_period,
)
from .outcomes import outcomes_figures
from .payments import (
    commission_figures,
    commission_records,
    payments_figures,
    payments_of_figure,
)
from .series import (
    INTERVALS,
    SERIES_METRICS,
    SERIES_POINTS_MAX,
    metric_figures,
    series_bucket_count,
    series_buckets,
    series_figures,
    series_with_totals,
)
from .speed_to_lead import WITHIN_MINUTES_DEFAULT, WITHIN_MINUTES_MAX, speed_to_lead
from .webinar import webinar_figures

# Every metric /series answers: the families' figures, then a goal's two lines.
SERIES_METRICS_ALL = (*SERIES_METRICS, *GOAL_SERIES_METRICS)

__all__ = [
    "AD_SPEND_LIMIT_DEFAULT",
    "AD_SPEND_LIMIT_MAX",
    "BY",
    "BY_DEFAULT",
    "DEFAULT_FUNNEL",
    "GOAL_SERIES_METRICS",
    "INTERVALS",
    "KEY_FIGURES",
    "LEADS_LIMIT_DEFAULT",
    "LEADS_LIMIT_MAX",
    "NONE_LABEL",
    "ROLES",
    "ROLE_DEFAULT",
    "SERIES_METRICS",
    "SERIES_METRICS_ALL",
    "SERIES_POINTS_MAX",
    "UTM_FIELDS",
    "WITHIN_MINUTES_DEFAULT",
    "WITHIN_MINUTES_MAX",
    "Figures",
    "acquisition_figures",
    "acquisition_total",
    "ad_spend_list",
    "ad_spend_of_period",
    "attribution_figures",
    "audit_events_list",
    "calls_awaiting_outcome",
    "calls_figures",
    "calls_of_figure",
    "commission_figures",
    "commission_records",
    "eod_days_missed",
    "eod_figures",
    "eod_filed_on",
    "eod_reports_of_period",
    "funnel_figures",
    "goal_month_period",
    "goal_series",
    "goals_figures",
    "key_figures",
    "lead_journey",
    "leaderboard",
    "leads_created_of_attribution",
    "leads_figures",
    "leads_list",
    "leads_of_period",
    "member_board",
    "metric_figures",
    "outcomes_figures",
    "payments_figures",
    "payments_of_figure",
    "series_bucket_count",
    "series_buckets",
    "series_figures",
    "series_with_totals",
    "speed_to_lead",
    "this_month",
    "webinar_figures",
]
