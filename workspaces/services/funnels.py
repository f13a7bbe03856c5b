"""Writers of funnel stages and funnel events."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Max

from ..kept import (
    funnels_progress_touch,
)
from ..models import (
    Funnel,
    FunnelEvent,
    FunnelStage,
    Lead,
    Workspace,
)
from .base import KEY, RecordInvalid, refresh_or_collect, same_workspace, upsert_changes


def funnel_stage_get_or_create(*, workspace: Workspace, funnel_key: str, stage_key: str):
    """The funnel and stage, made on first sight; a new stage goes after the last one."""
    if not KEY.match(funnel_key or ""):
        raise RecordInvalid("funnel", "A funnel key is 1 to 64 letters, digits, '-' or '_'.")
    if not KEY.match(stage_key or ""):
        raise RecordInvalid("stage", "A stage key is 1 to 64 letters, digits, '-' or '_'.")
    funnel, _ = Funnel.objects.get_or_create(
        workspace=workspace, key=funnel_key, defaults={"name": funnel_key}
    )
    stage = FunnelStage.objects.filter(funnel=funnel, key=stage_key).first()
    if stage is None:
        last = funnel.stages.aggregate(last=Max("position"))["last"]
        stage = FunnelStage.objects.create(
            funnel=funnel, key=stage_key, position=0 if last is None else last + 1
        )
    return funnel, stage


def funnel_event_upsert(
    *,
    workspace: Workspace,
    external_id: str | None,
    lead: Lead,
    funnel_key: str,
    stage_key: str,
    at: datetime,
    touched: set | None = None,
):
    """A funnel event. The (funnel, lead) pairs whose progress changed are refreshed,
    or added to `touched`."""
    same_workspace(workspace, "lead", lead)
    funnel, stage = funnel_stage_get_or_create(
        workspace=workspace, funnel_key=funnel_key, stage_key=stage_key
    )
    event, created, before = upsert_changes(
        FunnelEvent,
        workspace=workspace,
        external_id=external_id,
        values={"lead": lead, "funnel": funnel, "stage": stage, "at": at},
    )
    # The (funnel, lead) pair the event counted for before, when it moved.
    previous = (before.get("funnel_id", funnel.pk), before.get("lead_id", lead.pk))
    refresh_or_collect(
        {(funnel.pk, lead.pk), previous},
        touched,
        lambda pairs: funnels_progress_touch(workspace=workspace, pairs=pairs),
    )
    return event, created
