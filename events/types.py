"""The event types integrators receive, each naming the record it carries."""

EVENT_TYPES: dict[str, str] = {
    "lead.created": "A lead was created (a form, the import or an integration).",
    "lead.updated": "A lead's name, email, status, setter or UTM tracking changed.",
    "call.booked": "A call was booked.",
    "call.rescheduled": "A call was booked in place of an earlier one (`rescheduled_from`).",
    "call.cancelled": "A call was cancelled.",
    "call.outcome_recorded": "An outcome of a call (or of a past call) was recorded.",
    "sale.closed": "A sale was closed.",
    "payment.succeeded": "A payment succeeded.",
    "payment.failed": "A payment failed.",
    "payment.refunded": "A payment was refunded, in part or in whole (or lost a dispute).",
    "eod.submitted": "A member's end-of-day report was filed (or filed again for the day).",
    "ad_spend.updated": "A day's ad spend of a campaign was recorded, or revised by a later "
    "write with the same id.",
    "goal.updated": "A month's goals were set, changed or removed: the month's goals as "
    "they stand.",
    "change.created": "A change-log entry was written.",
    "member.added": "A person became a member of the workspace.",
    "member.removed": "A member was deactivated.",
    "plan.applied": "An agency's plan was applied to the workspace.",
    "integration.failing": "A connected integration started failing.",
}

EVENT_TYPE_CHOICES = [(name, name) for name in EVENT_TYPES]

# Sent only by the Webhooks page's test button, to one endpoint; never in the feed.
PING = "ping"
