"""A lead's first contact: which touches count, said once.

A touch is a first contact of its lead when a member of the lead's workspace made it (the
writers refuse another workspace's member) and it is dated at or after the lead's
creation. A touch without a member (an automated sequence, a mail a provider sent) is not
the team answering the lead; a touch dated before the lead came in does not answer it
either, and would make the time to a first contact negative. The lead's first contact is
the earliest touch that counts; a lead with none is waiting, whatever else it holds.

The first contact is kept on Lead.first_contact_at (workspaces.kept
.leads_first_contact_refresh reads the touches through `counted_touches`); the figures,
the pages and the alerts ask about leads through `contacted` and `never_contacted`, and
the journey says of each touch whether it counts and, when not, why
(`not_counted_reason`).
"""

from __future__ import annotations

from django.db.models import Case, CharField, F, Q, Value, When

# A touch's lead's creation, from a query of touches.
LEAD_CREATED_AT = F("lead__created_at")

# The definition in words, for the figures' registry and the API's description.
DEFINITION = (
    "A lead's first contact is its earliest touch made by a member of the workspace and "
    "dated at or after the lead's creation; touches without a member (automated sequences, "
    "mails a provider sent) and touches dated before the lead was created do not count."
)


def _not_counted(created_at) -> tuple[tuple[Q, str], ...]:
    """What keeps a touch from being a first contact, each with the words that say so, in
    the order the journey names the first that applies. created_at: the lead's creation
    as the touches' query reaches it."""
    return (
        (Q(member__isnull=True), "sent without a member (automated)"),
        (Q(at__lt=created_at), "dated before the lead was created"),
    )


def counted_touches(*, created_at=LEAD_CREATED_AT) -> Q:
    """The condition on Touch rows that count as a first contact. created_at: the lead's
    creation (an OuterRef("created_at") from a query of leads)."""
    condition = Q()
    for reason, _words in _not_counted(created_at):
        condition &= ~reason
    return condition


def not_counted_reason(*, created_at=LEAD_CREATED_AT) -> Case:
    """On Touch rows: why the touch is not a first contact, in words; null for a touch
    that counts."""
    return Case(
        *(When(reason, then=Value(words)) for reason, words in _not_counted(created_at)),
        default=Value(None),
        output_field=CharField(),
    )


def contacted(*, by=None) -> Q:
    """The condition on Lead rows that have had a first contact, by the moment `by` when
    given (a touch dated later counts from its moment on)."""
    condition = Q(first_contact_at__isnull=False)
    if by is not None:
        condition &= Q(first_contact_at__lte=by)
    return condition


def never_contacted() -> Q:
    """The condition on Lead rows with no first contact: the condition of the partial
    indexes lead_ws_created_uncontacted and lead_uncontacted_created."""
    return Q(first_contact_at__isnull=True)
