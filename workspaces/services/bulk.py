"""Many new records at once (the demo, the benchmark): one insert per model."""

from __future__ import annotations

from ..kept import (
    utm_tags_ids,
    utm_tags_of,
    workspace_invariants_refresh,
)
from ..models import (
    AdSpend,
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelStage,
    Instalment,
    Lead,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
    Workspace,
)
from .base import RecordInvalid

# The order in which records that name each other are inserted.
BULK_ORDER = (
    Lead,
    Touch,
    WebinarEvent,
    Registration,
    Call,
    Outcome,
    Sale,
    Instalment,
    Payment,
    Refund,
    EodReport,
    Funnel,
    FunnelStage,
    FunnelEvent,
    CommissionRule,
    AdSpend,
)


_BULK_PARENTS = {Instalment: "sale", FunnelStage: "funnel"}


def records_bulk_create(*, workspace: Workspace, rows: dict[type, list]) -> dict[str, int]:
    """Insert many new records of one workspace at once (a seeded workspace), each checked
    by its model's field rules, then refresh every kept value of the workspace once.

    Returns the count written per record type. Every row must belong to the workspace.
    """
    unknown = set(rows) - set(BULK_ORDER)
    if unknown:
        raise ValueError(f"No bulk writer for {sorted(m.__name__ for m in unknown)}")
    counts = {}
    leads = rows.get(Lead, [])
    tags_ids = utm_tags_ids(workspace=workspace, combinations={utm_tags_of(v) for v in leads})
    for lead in leads:
        lead.utm_tags_id = tags_ids[utm_tags_of(lead)]
    for model in BULK_ORDER:
        batch = rows.get(model, [])
        for row in batch:
            # An instalment belongs to its sale, a stage to its funnel.
            parent = _BULK_PARENTS.get(model)
            owner = getattr(row, parent) if parent else row
            if owner.workspace_id != workspace.pk:
                raise RecordInvalid("workspace", "That record belongs to another workspace.")
            row.clean_fields(exclude=[f.name for f in model._meta.fields if f.is_relation])
        model.objects.bulk_create(batch, batch_size=500)
        counts[model.__name__] = len(batch)
    workspace_invariants_refresh(workspace=workspace)
    return counts
