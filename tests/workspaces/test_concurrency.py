"""Writers of one lead's records at the same moment (PostgreSQL: real concurrency).

Each writer refreshes the values it keeps on the lead (its cash, its funnel progress,
whether it booked after a webinar) from the records committed when it looks: the last
one to look must see everybody's records, whatever the order.
"""

import pytest
from django.db import transaction

from tests.conftest import at_once, aware
from workspaces.models import FunnelProgress, Lead, Registration, Sale, UtmTags
from workspaces.services import (
    call_upsert,
    funnel_event_upsert,
    lead_upsert,
    payment_upsert,
    registration_upsert,
    sale_upsert,
    webinar_event_upsert,
)

pytestmark = pytest.mark.postgres

WRITERS = 8


def _together(write):
    """Run write(n) in WRITERS threads released at once, each in its own transaction."""

    def in_transaction(n):
        with transaction.atomic():
            write(n)

    at_once(WRITERS, in_transaction)


@pytest.fixture
def lead(transactional_db, make_workspace):
    ws = make_workspace()
    return lead_upsert(workspace=ws, external_id="l", created_at=aware("2026-03-01 09:00"))[0]


def test_payments_on_one_sale_at_once_all_count(lead):
    ws = lead.workspace
    when = aware("2026-03-02 10:00")
    sale, _ = sale_upsert(
        workspace=ws, external_id="s", lead=lead, closed_at=when, contract_value=10**6
    )

    def write(n):
        payment_upsert(workspace=ws, external_id=f"p{n}", sale=sale, paid_at=when, amount=100 + n)

    _together(write)
    expected = sum(100 + n for n in range(WRITERS))
    assert Sale.objects.get(pk=sale.pk).cash_collected == expected
    lead.refresh_from_db()
    assert (lead.has_sale, lead.cash_collected) == (True, expected)


def test_funnel_events_of_one_lead_at_once_make_one_progress_row(lead):
    ws = lead.workspace
    stages = ["opt-in", "application", "booked", "taken", "closed"]
    # The funnel and its stages exist first, in order.
    for position, stage in enumerate(stages):
        funnel_event_upsert(
            workspace=ws,
            external_id=f"setup-{stage}",
            lead=lead,
            funnel_key="vsl",
            stage_key=stage,
            at=aware(f"2026-03-0{position + 1} 09:00"),
        )
    # A second funnel, its stages made in order by another lead's events.
    for stage in stages:
        funnel_event_upsert(
            workspace=ws,
            external_id=f"setup-b-{stage}",
            lead=Lead.objects.create(workspace=ws, created_at=aware("2026-03-01 08:00")),
            funnel_key="webinar",
            stage_key=stage,
            at=aware("2026-03-01 10:00"),
        )

    def write(n):
        stage = stages[n % len(stages)]
        funnel_event_upsert(
            workspace=ws,
            external_id=f"e{n}",
            lead=lead,
            funnel_key="webinar",
            stage_key=stage,
            at=aware(f"2026-03-0{n % len(stages) + 2} 10:00"),
        )

    # The lead goes through the second funnel, one event per writer, all at once.
    _together(write)
    progress = FunnelProgress.objects.get(lead=lead, funnel__key="webinar")
    # opt-in on the 2nd, application the 3rd, booked the 4th, taken the 5th, closed the 6th.
    assert (progress.entered_at, progress.depth) == (aware("2026-03-02 10:00"), 5)


def test_a_call_booked_while_the_registration_is_written_is_seen(lead):
    ws = lead.workspace
    event, _ = webinar_event_upsert(
        workspace=ws, external_id="w", name="Live", starts_at=aware("2026-03-05 18:00")
    )

    def write(n):
        if n % 2:
            call_upsert(
                workspace=ws,
                external_id=f"c{n}",
                lead=lead,
                booked_at=aware("2026-03-05 19:00"),
                scheduled_for=aware("2026-03-09 10:00"),
            )
        else:
            registration_upsert(
                workspace=ws,
                external_id=f"r{n}",
                event=event,
                lead=lead,
                registered_at=aware("2026-03-02 10:00"),
                joined_at=aware("2026-03-05 18:01"),
            )

    _together(write)
    flags = list(Registration.objects.filter(lead=lead).values_list("booked_after", flat=True))
    assert flags == [True] * (WRITERS // 2)


def test_leads_with_a_new_utm_combination_at_once_share_one_row(lead):
    ws = lead.workspace

    def write(n):
        lead_upsert(
            workspace=ws,
            external_id=f"u{n}",
            created_at=aware("2026-03-01 10:00"),
            utm_source="news",
            utm_campaign="spring",
        )

    _together(write)
    kept = set(
        Lead.objects.filter(workspace=ws).exclude(pk=lead.pk).values_list("utm_tags", flat=True)
    )
    assert len(kept) == 1
    assert UtmTags.objects.filter(workspace=ws, source="news", campaign="spring").count() == 1
