"""The words pages use for what the records and the API write as codes: a role, an outcome,
a state, and the refusals of a form, in the words of the people who read them.

The API keeps its codes and its error texts (they are a contract); pages show these.
"""

from core.money import MoneyInvalid

ROLES = {
    "owner": "Owner",
    "admin": "Admin",
    "manager": "Manager",
    "closer": "Closer",
    "setter": "Setter",
    "sdr": "SDR",
}
OUTCOMES = {
    "closed": "Closed",
    "deposit": "Deposit",
    "follow_up": "Follow-up",
    "no_sale": "No sale",
    "disqualified": "Disqualified",
}
ATTENDANCE = {"showed": "Showed", "no_show": "No-show"}
CALL_STATUSES = {"scheduled": "Scheduled", "cancelled": "Cancelled"}
SALE_STATUSES = {"won": "Won", "open": "Open", "lost": "Lost", "refunded": "Refunded"}
LEAD_STATUSES = {
    "new": "New",
    "contacted": "Contacted",
    "qualified": "Qualified",
    "booked": "Booked",
    "won": "Won",
    "lost": "Lost",
    "no_show": "No-show",
    "disqualified": "Disqualified",
}
PAYMENT_STATUSES = {"succeeded": "Paid", "failed": "Failed"}
CHANGE_STATUSES = {"ready": "Ready", "blocked": "Blocked", "applied": "Applied"}
# The stages of the funnels the service knows; any other stage is named from its key.
STAGES = {
    "optin": "Opt-in",
    "opt_in": "Opt-in",
    "vsl": "Watched the VSL",
    "vsl_view": "Watched the VSL",
    "application": "Applied",
    "applied": "Applied",
    "booked": "Booked a call",
    "call_booked": "Booked a call",
    "showed": "Showed up",
    "closed": "Closed",
    "won": "Won",
}
PAYMENT_PLANS = {"paid_in_full": "Paid in full", "split": "Split", "financed": "Financed"}
COMMISSION_BASES = {"cash_collected": "Cash collected", "revenue_booked": "Revenue booked"}
SLOTS = {"closer": "Closer", "setter": "Setter"}
INVITATION_STATES = {
    "proposed": "Waiting for an owner",
    "pending": "Sent",
    "sent": "Sent",
    "accepted": "Accepted",
    "declined": "Declined",
    "expired": "Expired",
    "revoked": "Withdrawn",
    "refused": "Declined by an owner",
}
PLAN_STATES = {
    "drafted": "Draft",
    "waiting_for_approval": "Waiting for approval",
    "approved": "Approved, being applied",
    "refused": "Refused",
    "applied": "Applied",
}

KINDS = {
    "role": ROLES,
    "outcome": OUTCOMES,
    "attendance": ATTENDANCE,
    "call_status": CALL_STATUSES,
    "sale_status": SALE_STATUSES,
    "payment_plan": PAYMENT_PLANS,
    "basis": COMMISSION_BASES,
    "slot": SLOTS,
    "invitation_state": INVITATION_STATES,
    "plan_state": PLAN_STATES,
    "lead_status": LEAD_STATUSES,
    "payment_status": PAYMENT_STATUSES,
    "change_status": CHANGE_STATUSES,
    "stage": STAGES,
}


def code_words(code) -> str:
    """A code no list names, written as words: "follow_up" -> "Follow up"."""
    text = str(code or "").replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


def word(kind: str, code) -> str:
    """The display name of a code of that kind ("role", "sdr" -> "SDR")."""
    if code is None or code == "":
        return ""
    return KINDS[kind].get(str(code), code_words(code))


def choices(kind: str) -> list[tuple[str, str]]:
    """A select's options of that kind: each code with its display name."""
    return list(KINDS[kind].items())


def money_refusal(error: MoneyInvalid, *, exponent: int, example: str = "1234.50") -> str:
    """Why an amount typed in a page's form is refused, in words."""
    if error.code == "negative":
        return "Enter an amount of 0 or more."
    if error.code == "decimals":
        if exponent == 0:
            return "Enter a whole amount, without cents."
        return f"Enter an amount with at most {exponent} decimals, like {example}."
    if error.code == "too_large":
        return "That amount is too large."
    return f"Enter an amount as a number, like {example}."
