"""The app's lists of records, one view each: the calls, leads, payments, refunds, sales,
EOD reports and spend a figure counts, with the filters a person adds in the address
(closer, setter, outcome, kind, UTM) and their chips. Each builds a Listing of
dashboard/records.py, which pages, sorts, searches and exports it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.http import Http404

from figures import selectors as figures_selectors
from workspaces.access import page
from workspaces.models import CommissionRule, Member, Outcome, Refund

from .periods import period_pick
from .records import (
    CALL_LIST_NOTES,
    CALL_LISTS,
    Column,
    Listing,
    amount_sort,
    count_column,
    day_column,
    lead_name,
    list_page,
    moment_column,
    money_column,
    name_sort,
    outcome_text,
    person_name,
    text_column,
    text_sort,
    time_sort,
    wide_role,
)

# --- The lists -------------------------------------------------------------------------


def _holder(request, workspace) -> Member | None:
    """The member ?member= names, or None; the 404 page for an id of no member here."""
    if not request.GET.get("member"):
        return None
    try:
        holder = Member.objects.filter(
            workspace=workspace, pk=uuid.UUID(request.GET["member"])
        ).first()
    except ValueError:
        holder = None
    if holder is None:
        raise Http404("No member of this workspace has that id.")
    return holder


# --- Filters kept in the address ------------------------------------------------------

UTM_WORDS = {
    "utm_source": "Source",
    "utm_medium": "Medium",
    "utm_campaign": "Campaign",
    "utm_content": "Content",
}
# The (source, campaign) pairs of the period's rows the filter form offers, at most.
UTM_CHOICES_MAX = 200
SLOT_WORDS = {"closer": "Closer", "setter": "Setter"}


def utm_params(params) -> dict:
    """The lead's UTM values ?utm_source=&utm_medium=&utm_campaign=&utm_content= name, as an
    attribution row answers them (`(none)` for empty); a parameter left empty (the filter
    form's "Any") filters nothing."""
    return {
        name: params[name] for name in figures_selectors.UTM_FIELDS if params.get(name, "") != ""
    }


def utm_filter(records, prefix: str, utm: dict):
    """The records whose lead (at `prefix`) has the UTM values, as leads_of_period reads
    them."""
    none = figures_selectors.NONE_LABEL
    return records.filter(
        **{f"{prefix}{name}": "" if label == none else label for name, label in utm.items()}
    )


@dataclass(frozen=True)
class Offers:
    """The filters a list offers besides its figure's: the paths from its records to the
    closer and setter slots and to the lead (for its UTM values), and a choice field
    (`choice`: the field, its label and its values)."""

    closer: str = ""
    setter: str = ""
    lead: str | None = None
    utm_applied: bool = False  # the selector read the UTM values already (the leads)
    choice: tuple | None = None


def _members_by_role(members, first_role: str) -> list:
    """The members as a select's groups: those of `first_role` first, then the others by
    role."""
    order = [first_role, *(role for role in Member.Role.values if role != first_role)]
    labels = dict(Member.Role.choices)
    groups = []
    for role in order:
        found = [(str(m.pk), person_name(m)) for m in members if m.role == role]
        if found:
            groups.append((f"{labels[role]}s", found))
    return groups


def _present(records, prefix: str, utm: dict) -> dict:
    """The sources and campaigns of the leads of the list's rows, as the rows answer them
    (`(none)` for empty), from one grouped read: the filter form's choices."""
    pairs = (
        records.order_by()
        .values_list(f"{prefix}utm_source", f"{prefix}utm_campaign")
        .distinct()[:UTM_CHOICES_MAX]
    )
    found = {"utm_source": set(), "utm_campaign": set()}
    for source, campaign in pairs:
        found["utm_source"].add(source or figures_selectors.NONE_LABEL)
        found["utm_campaign"].add(campaign or figures_selectors.NONE_LABEL)
    for name, labels in found.items():
        if utm.get(name):
            labels.add(utm[name])
    # A few dozen labels at most: their order is the select's, in words.
    return {name: [("", [(v, v) for v in sorted(labels)])] for name, labels in found.items()}


def _slot_filters(params, workspace, listing: Listing, offers: Offers, records):
    """?closer= and ?setter=: a member of this workspace, by id."""
    members = list(
        Member.objects.filter(workspace=workspace)
        .order_by("name", "pk")
        .only("pk", "name", "email", "role")
    )
    by_id = {m.pk: m for m in members}
    for slot, path in (("closer", offers.closer), ("setter", offers.setter)):
        if not path:
            continue
        given = params.get(slot, "").strip()
        try:
            found = by_id.get(uuid.UUID(given)) if given else None
        except ValueError:
            found = None
        if given and found is None:
            listing.refused.append(
                f"No member of this workspace has the {slot} id “{given[:80]}”: "
                f"the list is not filtered by {slot}."
            )
        if found is not None:
            records = records.filter(**{path: found})
            listing.keep[slot] = str(found.pk)
            listing.chips.append((f"{SLOT_WORDS[slot]}: {person_name(found)}", (slot,)))
        chosen = str(found.pk) if found else ""
        listing.selects.append((slot, SLOT_WORDS[slot], _members_by_role(members, slot), chosen))
    return records


def _choice_filter(params, listing: Listing, choice: tuple, records):
    """?outcome= (a call's) or ?kind= (a refund's): one of the values the list knows."""
    name, label, values = choice
    given = params.get(name, "").strip()
    chosen = given if given in values else ""
    if given and not chosen:
        listing.refused.append(
            f"“{given[:80]}” is not one of the {label.lower()}s the list knows: "
            f"the list is not filtered by {label.lower()}."
        )
    if chosen:
        records = records.filter(**{name: chosen})
        listing.keep[name] = chosen
        listing.chips.append((f"{label}: {values[chosen]}", (name,)))
    listing.selects.append((name, label, [("", list(values.items()))], chosen))
    return records


def filters_apply(
    request, workspace, listing: Listing, offers: Offers, utm: dict, unfiltered=None
) -> Listing:
    """The list with the filters of the address it offers applied (closer, setter, its
    choice field, the lead's UTM values), their chips and the filter form's selects; a
    value that names nothing here is left out, and the page says so."""
    records = listing.records
    # The rows the form's UTM choices are read from: those of the figure, unfiltered.
    base_records = records if unfiltered is None else unfiltered
    if offers.closer or offers.setter:
        records = _slot_filters(request.GET, workspace, listing, offers, records)
    if offers.choice is not None:
        records = _choice_filter(request.GET, listing, offers.choice, records)
    if offers.lead is not None:
        if not offers.utm_applied:
            records = utm_filter(records, offers.lead, utm)
        listing.keep.update(utm)
        listing.chips.extend(
            (f"{UTM_WORDS[name]}: {utm[name]}", (name,))
            for name in figures_selectors.UTM_FIELDS
            if name in utm
        )
        present = _present(base_records, offers.lead, utm)
        for name in ("utm_source", "utm_campaign"):
            listing.selects.append((name, UTM_WORDS[name], present[name], utm.get(name, "")))
    listing.records = records
    return listing


def _lead_columns(workspace, lead_of) -> list[Column]:
    return [
        Column("Lead", lambda r: lead_name(lead_of(r))),
        text_column("Email", lambda r: lead_of(r).email),
    ]


def _holder_chip(holder, slot: str | None = None) -> list:
    if holder is None:
        return []
    removes = ("member", "slot") if slot else ("member",)
    return [(f"{SLOT_WORDS.get(slot, 'Member')}: {person_name(holder)}", removes)]


OUTCOME_CHOICE = (
    "outcome",
    "Outcome",
    {value: label.lower() for value, label in Outcome.Result.choices},
)
KIND_CHOICE = ("kind", "Kind", {value: label.lower() for value, label in Refund.Kind.choices})


@page
def calls_list(request, workspace_id):
    """?figure=taken|awaiting_outcome|show_rate|...&member=<id>: the calls a /calls figure
    counts (or a rate is taken over), of the whole workspace or of one member; and
    ?closer=&setter=&outcome=&utm_...= of the calls'."""
    workspace, member = wide_role(request, workspace_id)
    figure = request.GET.get("figure", "booked")
    if figure not in CALL_LISTS:
        figure = "booked"
    picked = period_pick(workspace=workspace, params=request.GET)
    keep = {"figure": figure}
    chips = [] if figure == "booked" else [(f"Figure: {CALL_LISTS[figure].lower()}", ("figure",))]
    title = CALL_LISTS[figure]
    holder = _holder(request, workspace)
    if holder is not None:
        keep["member"] = str(holder.pk)
        title = f"{title} with {holder.name}"
    calls = figures_selectors.calls_of_figure(
        workspace=workspace, period=picked.period, figure=figure, member=holder
    )
    listing = Listing(
        name="calls",
        title=title,
        noun=("call", "calls"),
        records=calls,
        time_field="scheduled_for",
        columns=[
            *_lead_columns(workspace, lambda call: call.lead),
            moment_column("Scheduled", lambda call: call.scheduled_for),
            Column("Closer", lambda call: person_name(call.closer)),
            Column("Setter", lambda call: person_name(call.setter)),
            Column("Outcome", outcome_text),
        ],
        search=("lead__name", "lead__email"),
        sorts=(
            time_sort("scheduled", "Scheduled", "scheduled_for"),
            name_sort("lead", "Lead", "lead__"),
        ),
        lead_of=lambda call: call.lead,
        keep=keep,
        note=CALL_LIST_NOTES.get(figure, ""),
        chips=[*chips, *_holder_chip(holder)],
    )
    offers = Offers(closer="closer", setter="setter", lead="lead__", choice=OUTCOME_CHOICE)
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def leads_list(request, workspace_id):
    """?waiting=1 (never contacted) and ?utm_source=...&utm_medium=... (an attribution
    row): the leads created in the period; and ?setter= of the leads'."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = utm_params(request.GET)
    waiting = request.GET.get("waiting") == "1"
    sold = request.GET.get("sold") == "1"
    keep = {**({"waiting": "1"} if waiting else {}), **({"sold": "1"} if sold else {})}
    leads = figures_selectors.leads_of_period(
        workspace=workspace,
        period=picked.period,
        utm=utm,
        never_contacted=waiting,
        with_sale=sold,
    )
    title = "Leads never contacted" if waiting else "Leads created"
    if sold:
        title = "Leads created with a sale"
    if utm:
        title += " from " + " / ".join(
            utm[name] for name in figures_selectors.UTM_FIELDS if name in utm
        )
    listing = Listing(
        name="leads",
        title=title,
        noun=("lead", "leads"),
        records=leads,
        time_field="created_at",
        columns=[
            *_lead_columns(workspace, lambda lead: lead),
            moment_column("Created", lambda lead: lead.created_at),
            text_column("Source", lambda lead: lead.utm_source, "(none)"),
            Column("Setter", lambda lead: person_name(lead.setter)),
            moment_column("First contact", lambda lead: lead.first_contact_at, "not yet"),
            *(
                [
                    money_column(
                        "Cash collected to date", lambda lead: lead.cash_collected, workspace
                    )
                ]
                if sold
                else []
            ),
        ],
        search=("name", "email"),
        sorts=(
            time_sort("created", "Created", "created_at"),
            name_sort("lead", "Lead", ""),
            time_sort("first_contact", "First contact", "first_contact_at", nullable=True),
        ),
        lead_of=lambda lead: lead,
        keep=keep,
        note=(
            "Created in the period and never contacted."
            if waiting
            else "Created in the period, with a sale to date: the closes of attribution, "
            "whose cash collected is the sum of their cash to date."
            if sold
            else ""
        ),
        chips=[
            *([("Not yet contacted", ("waiting",))] if waiting else []),
            *([("With a sale", ("sold",))] if sold else []),
        ],
    )
    offers = Offers(setter="setter", lead="", utm_applied=True)
    unfiltered = figures_selectors.leads_of_period(
        workspace=workspace, period=picked.period, never_contacted=waiting, with_sale=sold
    )
    listing = filters_apply(request, workspace, listing, offers, utm, unfiltered)
    return list_page(request, workspace, member, picked, listing)


def _commission_slot(request, workspace, holder) -> str | None:
    """?slot=closer|setter with a member: the records of their commission (the rule's
    slot), as /commission adds them up."""
    slot = request.GET.get("slot")
    if holder is None or slot not in CommissionRule.Slot.values:
        return None
    return slot


def _money_records(request, workspace, picked, part: str):
    """The part's records of /payments, or with ?member=&slot= those of the member's
    commission; the title's suffix, what the page keeps and the filter's chip."""
    holder = _holder(request, workspace)
    slot = _commission_slot(request, workspace, holder)
    if slot is not None:
        records, time_field = figures_selectors.commission_records(
            workspace=workspace, period=picked.period, part=part, member=holder, slot=slot
        )
        keep = {"member": str(holder.pk), "slot": slot}
        suffix = f" with {holder.name} as {slot}"
        return records, time_field, suffix, keep, _holder_chip(holder, slot)
    records, time_field = figures_selectors.payments_of_figure(
        workspace=workspace, period=picked.period, part=part, member=holder
    )
    if holder is None:
        return records, time_field, "", {}, []
    return (
        records,
        time_field,
        f" with {holder.name}",
        {"member": str(holder.pk)},
        (_holder_chip(holder)),
    )


@page
def payments_list(request, workspace_id):
    """The succeeded payments cash collected adds up (?member=&slot=: those of a member's
    commission; ?closer=&setter=&utm_...=: of the payments' closer, setter and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "cash")
    listing = Listing(
        name="payments",
        title="Payments" + suffix,
        noun=("payment", "payments"),
        records=records.select_related("sale__lead", "closer", "setter"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda payment: payment.sale.lead),
            moment_column("Paid", lambda payment: payment.paid_at),
            money_column("Amount", lambda payment: payment.amount, workspace),
            Column("Closer", lambda payment: person_name(payment.closer)),
            Column("Setter", lambda payment: person_name(payment.setter)),
        ],
        search=("sale__lead__name", "sale__lead__email"),
        sorts=(
            time_sort("paid", "Paid", time_field),
            amount_sort("amount", "Amount", "amount"),
            name_sort("lead", "Lead", "sale__lead__"),
        ),
        lead_of=lambda payment: payment.sale.lead,
        keep=keep,
        note="The succeeded payments made in the period: cash collected is their sum.",
        chips=chips,
    )
    offers = Offers(closer="closer", setter="setter", lead="sale__lead__")
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def refunds_list(request, workspace_id):
    """The refunds and chargebacks refunded adds up (?kind=, and the sale's closer, setter
    and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "refunds")
    listing = Listing(
        name="refunds",
        title="Refunds" + suffix,
        noun=("refund", "refunds"),
        records=records.select_related("sale__lead"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda refund: refund.sale.lead),
            moment_column("Refunded", lambda refund: refund.at),
            money_column("Amount", lambda refund: refund.amount, workspace),
            Column("Kind", lambda refund: refund.get_kind_display().lower()),
        ],
        search=("sale__lead__name", "sale__lead__email"),
        sorts=(
            time_sort("refunded", "Refunded", time_field),
            amount_sort("amount", "Amount", "amount"),
            name_sort("lead", "Lead", "sale__lead__"),
        ),
        lead_of=lambda refund: refund.sale.lead,
        keep=keep,
        note="The refunds and chargebacks dated in the period: refunded is their sum, and "
        "net cash is cash collected minus it.",
        chips=chips,
    )
    offers = Offers(
        closer="sale__closer", setter="sale__setter", lead="sale__lead__", choice=KIND_CHOICE
    )
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def sales_list(request, workspace_id):
    """The sales closed in the period, whose contract values revenue booked adds up
    (?closer=&setter=&utm_...=: of the sale's closer, setter and lead)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    records, time_field, suffix, keep, chips = _money_records(request, workspace, picked, "sales")
    listing = Listing(
        name="sales",
        title="Sales" + suffix,
        noun=("sale", "sales"),
        records=records.select_related("lead", "closer", "setter"),
        time_field=time_field,
        columns=[
            *_lead_columns(workspace, lambda sale: sale.lead),
            moment_column("Closed", lambda sale: sale.closed_at),
            money_column("Contract value", lambda sale: sale.contract_value, workspace),
            money_column("Cash collected to date", lambda sale: sale.cash_collected, workspace),
            Column("Closer", lambda sale: person_name(sale.closer)),
            Column("Setter", lambda sale: person_name(sale.setter)),
        ],
        search=("lead__name", "lead__email"),
        sorts=(
            time_sort("closed", "Closed", time_field),
            amount_sort("contract_value", "Contract value", "contract_value"),
            amount_sort("cash_collected", "Cash collected to date", "cash_collected"),
            name_sort("lead", "Lead", "lead__"),
        ),
        lead_of=lambda sale: sale.lead,
        keep=keep,
        note="The sales closed in the period: revenue booked is their contract values' sum.",
        chips=chips,
    )
    offers = Offers(closer="closer", setter="setter", lead="lead__")
    listing = filters_apply(request, workspace, listing, offers, utm_params(request.GET))
    return list_page(request, workspace, member, picked, listing)


@page
def eod_list(request, workspace_id):
    """The EOD reports of the period's days (?member=: one member's)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    holder = _holder(request, workspace)
    reports = figures_selectors.eod_reports_of_period(
        workspace=workspace, period=picked.period, member=holder
    )
    listing = Listing(
        name="eod-reports",
        title="EOD reports" + (f" of {holder.name}" if holder else ""),
        noun=("EOD report", "EOD reports"),
        records=reports,
        time_field="date",
        columns=[
            Column("Member", lambda report: person_name(report.member)),
            text_column("Email", lambda report: report.member.email),
            day_column("Day", lambda report: report.date),
            moment_column("Filed", lambda report: report.submitted_at),
        ],
        search=("member__name", "member__email"),
        sorts=(
            time_sort("day", "Day", "date", day=True),
            name_sort("member", "Member", "member__"),
            time_sort("filed", "Filed", "submitted_at"),
        ),
        keep={"member": str(holder.pk)} if holder else {},
        note="The reports filed for the period's days; EOD compliance counts those of the "
        "working days each member was due to report.",
        chips=_holder_chip(holder),
    )
    return list_page(request, workspace, member, picked, listing)


@page
def spend_list(request, workspace_id):
    """The ad spend records of the period's days (?utm_source=&utm_campaign=: one
    /acquisition row's)."""
    workspace, member = wide_role(request, workspace_id)
    picked = period_pick(workspace=workspace, params=request.GET)
    utm = {
        name: request.GET[name]
        for name in ("utm_source", "utm_campaign")
        if request.GET.get(name) is not None
    }
    records = figures_selectors.ad_spend_of_period(
        workspace=workspace, period=picked.period, utm=utm
    )
    title = "Ad spend"
    if utm:
        title += " of " + " / ".join(utm.values())
    listing = Listing(
        name="spend",
        title=title,
        noun=("spend record", "spend records"),
        records=records,
        time_field="date",
        columns=[
            day_column("Day", lambda spend: spend.date),
            text_column("Platform", lambda spend: spend.platform),
            text_column("Source", lambda spend: spend.utm_source, "(none)"),
            text_column("Campaign", lambda spend: spend.utm_campaign, "(none)"),
            text_column("Campaign name", lambda spend: spend.campaign_name),
            money_column("Spend", lambda spend: spend.amount, workspace),
            count_column("Impressions", lambda spend: spend.impressions),
            count_column("Clicks", lambda spend: spend.clicks),
        ],
        search=("campaign_name", "utm_campaign", "utm_source", "platform"),
        sorts=(
            time_sort("day", "Day", "date", day=True),
            amount_sort("spend", "Spend", "amount"),
            text_sort("campaign_name", "Campaign name", "campaign_name"),
        ),
        keep=utm,
        note="The spend dated on the period's days: acquisition spend is their sum.",
        chips=[
            (f"{UTM_WORDS[name]}: {value or figures_selectors.NONE_LABEL}", (name,))
            for name, value in utm.items()
        ],
    )
    return list_page(request, workspace, member, picked, listing)
