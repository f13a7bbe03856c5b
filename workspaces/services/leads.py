"""Writers of leads and their touches."""

from __future__ import annotations

from datetime import datetime

from core.transactions import in_transaction
from events.services import event_record, events_bulk_record

from ..identifiers import IDENTIFIERS, identifiers_read
from ..kept import (
    UTM_FIELDS,
    leads_first_contact_refresh,
    utm_tags_ids,
    utm_tags_of,
)
from ..models import (
    Lead,
    Member,
    Touch,
    Workspace,
)
from ..shapes import (
    lead_shape,
)
from .base import RecordInvalid, refresh_or_collect, same_workspace, upsert_changes


def _identifiers(workspace: Workspace, created_at: datetime, given: dict) -> dict:
    unknown = set(given) - {*IDENTIFIERS, "fbclid"}
    if unknown:
        raise TypeError(f"Unknown lead values: {sorted(unknown)}")
    return identifiers_read(workspace=workspace, created_at=created_at, values=given)


@in_transaction
def lead_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    created_at: datetime,
    name: str = "",
    email: str = "",
    status: str = "new",
    setter: Member | None = None,
    utm_source: str = "",
    utm_medium: str = "",
    utm_campaign: str = "",
    utm_content: str = "",
    tags_known: dict | None = None,
    **identifiers: str,
):
    """A lead. `tags_known` ({UTM tags: UtmTags id}), given by a caller that writes many
    leads in one transaction (the import), saves a look-up per lead: the lead's
    combination is read from it, or looked up and added to it. `identifiers`: its phone
    and click ids (workspaces.identifiers.IDENTIFIERS, or `fbclid`), normalised here."""
    same_workspace(workspace, "setter", setter)
    read = _identifiers(workspace, created_at, identifiers)
    tags = (utm_source, utm_medium, utm_campaign, utm_content)
    tags_id = None if tags_known is None else tags_known.get(tags)
    if tags_id is None:
        tags_id = utm_tags_ids(workspace=workspace, combinations=[tags])[tags]
        if tags_known is not None:
            tags_known[tags] = tags_id
    lead, created, before = upsert_changes(
        Lead,
        workspace=workspace,
        external_id=external_id,
        values={
            "created_at": created_at,
            "name": name,
            "email": email,
            "status": status or "new",
            "setter": setter,
            **dict(zip(UTM_FIELDS, tags, strict=True)),
            "utm_tags_id": tags_id,
            **read,
        },
    )
    if "created_at" in before:
        # Which of its touches count as a first contact depends on when it came in.
        leads_first_contact_refresh(workspace=workspace, lead_ids=[lead.pk])
        lead.refresh_from_db(fields=["first_contact_at"])
    if created or before:
        event_record(
            workspace=workspace,
            type="lead.created" if created else "lead.updated",
            data=lead_shape(lead),
        )
    return lead, created


@in_transaction
def leads_create(
    *, workspace: Workspace, leads: list[dict], tags_known: dict | None = None
) -> list[Lead]:
    """Many new leads at once, each a dict of lead_upsert's values (external_id,
    created_at, name, email, status, setter, utm_*), in one insert, each with the
    lead.created event lead_upsert records. Every external id must be new to the
    workspace (write an existing one with lead_upsert). `tags_known` is lead_upsert's.
    Returns the leads made."""
    ids = [values["external_id"] for values in leads]
    if len(set(ids)) != len(ids) or None in ids:
        raise RecordInvalid("external_id", "Each new lead needs an external id of its own.")
    for values in leads:
        same_workspace(workspace, "setter", values.get("setter"))
    if Lead.objects.filter(workspace=workspace, external_id__in=ids).exists():
        raise RecordInvalid("external_id", "A lead with one of these external ids exists.")
    combinations = {utm_tags_of(v) for v in leads}
    known = tags_known if tags_known is not None else {}
    unknown = combinations - set(known)
    if unknown:
        known.update(utm_tags_ids(workspace=workspace, combinations=unknown))
    tags_ids = known
    rows = []
    for values in leads:
        given = {key: values[key] for key in values if key in IDENTIFIERS or key == "fbclid"}
        plain = {key: value for key, value in values.items() if key not in given}
        rows.append(
            Lead(
                workspace=workspace,
                **{**plain, "status": values.get("status") or "new"},
                **_identifiers(workspace, values["created_at"], given),
                utm_tags_id=tags_ids[utm_tags_of(values)],
            )
        )
    made = Lead.objects.bulk_create(rows)
    events_bulk_record(
        workspace=workspace, events=[("lead.created", lead_shape(lead)) for lead in made]
    )
    return made


def touch_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    at: datetime,
    member: Member | None = None,
    channel: str = "",
    touched: set | None = None,
):
    """A touch. The leads whose first contact may change are refreshed, or added to
    `touched`."""
    same_workspace(workspace, "lead", lead)
    same_workspace(workspace, "member", member)
    touch, created, before = upsert_changes(
        Touch,
        workspace=workspace,
        external_id=external_id,
        values={"lead": lead, "at": at, "member": member, "channel": channel},
    )
    refresh_or_collect(
        {lead.pk, before.get("lead_id")},
        touched,
        lambda ids: leads_first_contact_refresh(workspace=workspace, lead_ids=ids),
    )
    return touch, created
