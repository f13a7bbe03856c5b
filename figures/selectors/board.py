"""A member's own board (/me/board of the agent API and the dashboard) and the key
figures of a range (the agent API's before-and-after of a change), built from the
endpoints' selectors."""

from __future__ import annotations

from datetime import datetime

from .. import envelope as fields
from ..period import Period
from ..registry import NOT_COMPUTED
from .base import Figures, member_ref
from .calls import calls_figures
from .eod import eod_figures
from .leads import leads_figures
from .payments import commission_figures, payments_figures


def member_board(*, workspace, member, period: Period, now=None) -> Figures:
    """The member's own figures: calls as closer or setter, closes, cash, commission, EOD.

    Wrap its data with figures.envelope.envelope_build(workspace=..., period=..., data=...).
    """
    calls = calls_figures(workspace=workspace, period=period, member=member, now=now).data
    payments = payments_figures(workspace=workspace, period=period, member=member).data
    commission = commission_figures(workspace=workspace, period=period, member=member)
    commission_rows = commission.data["members"]
    if commission_rows:
        owed = commission_rows[0]["owed"]
    else:
        owed = fields.money(
            "commission.owed",
            None,
            workspace=workspace,
            unavailable=NOT_COMPUTED,
            reason=f"{member.name} has no commission rule.",
        )
    eod = eod_figures(workspace=workspace, period=period, member=member, now=now).data
    return Figures(
        {
            "member": {**member_ref(member), "role": member.role},
            "calls": calls,
            "payments": {
                key: payments[key]
                for key in ("sales", "revenue_booked", "cash_collected", "refunded", "net_cash")
            },
            "commission": {"owed": owed},
            "eod": {key: eod[key] for key in ("expected", "submitted", "compliance_rate")},
        }
    )


KEY_FIGURES = (
    "calls.booked",
    "calls.show_rate",
    "calls.close_rate",
    "payments.cash_collected",
    "payments.revenue_booked",
    "leads.created",
)


def key_figures(*, workspace, start, end, now=None) -> Figures:
    """The key figures of a range: data by metric id, each a Field.

    start/end are aware datetimes (the range is [start, end)) or dates (local days of
    the workspace, both included, like from/to). Field.raw holds the unrounded value
    (minor units for money; (numerator, denominator) for a rate) for differences.
    """
    if isinstance(start, datetime) and isinstance(end, datetime):
        period = Period.of_instants(workspace=workspace, start=start, end=end)
    else:
        period = Period.of_days(workspace=workspace, first_day=start, last_day=end)
    calls = calls_figures(workspace=workspace, period=period, now=now).data
    payments = payments_figures(workspace=workspace, period=period).data
    leads = leads_figures(workspace=workspace, period=period).data
    return Figures(
        {
            "calls.booked": calls["booked"],
            "calls.show_rate": calls["show_rate"],
            "calls.close_rate": calls["close_rate"],
            "payments.cash_collected": payments["cash_collected"],
            "payments.revenue_booked": payments["revenue_booked"],
            "leads.created": leads["created"],
        }
    )
