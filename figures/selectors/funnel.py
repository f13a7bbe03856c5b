"""/funnel: how many of the leads that entered a funnel's first stage in the period
reached each stage."""

from __future__ import annotations

from django.db.models import BigIntegerField, Count, Q, Sum
from django.db.models.functions import Coalesce

from core.compiled import Aggregate, CompiledQuery
from core.errors import InvalidParameter
from workspaces.models import Funnel, FunnelProgress, FunnelStage

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import NO_DATA_SOURCE, NO_DENOMINATOR
from . import days as rollups
from .base import FIGURES_PARAMS, Figures, Span, added, figures_params, funnel_entered_in

DEFAULT_FUNNEL = "vsl"


def _funnel_query(*, part: str, workspace, funnel, member, start, end, stages: int, rolled=False):
    """One of the /funnel queries: the workspace's funnels ("funnels"), one funnel's
    stages in order ("stages"), or how many of the cohort reached each of its `stages`
    stages, every earlier stage first ("counts").

    The cohort is the leads whose earliest event at the first stage is in the period
    [start, end); the services keep, per lead, that time and how many stages it reached
    in order (FunnelProgress), so the counts are one conditional count over the indexed
    range (workspace, funnel, entered_at); `rolled`: over the funnels' daily roll-up (whole
    local days before today, of the whole workspace).
    """
    if part == "funnels":
        return Funnel.objects.filter(workspace=workspace)
    if part == "stages":
        # As funnel.stages.all() reads them: by position (the model's ordering).
        return FunnelStage.objects.filter(funnel=funnel)
    if rolled:
        days = rollups.days_of(rollups.FUNNELS, workspace=workspace, span=Span(start, end))
        return Aggregate(
            days.filter(funnel_id=funnel),
            **{
                f"s{index}": Coalesce(Sum("n", filter=Q(depth__gt=index)), 0)
                for index in range(stages)
            },
        )
    progress = funnel_entered_in(
        workspace=workspace, period=Span(start, end), member=member, funnel=funnel
    )
    return Aggregate(
        progress,
        **{f"s{index}": Count("depth", filter=Q(depth__gt=index)) for index in range(stages)},
    )


funnel_query = CompiledQuery(
    _funnel_query, params={**FIGURES_PARAMS, "funnel": BigIntegerField()}, model=FunnelProgress
)


def _funnel_stage_counts(*, workspace, funnel, stages, period: Period, member=None) -> list:
    """How many of the cohort reached each stage, every earlier stage first: one query per
    run of days (the roll-up's, or the records')."""
    counts = added(
        [
            funnel_query(
                part="counts",
                **figures_params(workspace=workspace, period=span, member=member),
                funnel=funnel.pk,
                stages=len(stages),
                rolled=rolled,
            )
            for rolled, span in rollups.cut(
                rollups.FUNNELS, workspace=workspace, period=period, member=member
            )
        ]
    )
    return [counts[f"s{index}"] for index in range(len(stages))]


def funnel_figures(
    *, workspace, period: Period, funnel_key: str | None = None, member=None
) -> Figures:
    """One funnel's stages for the cohort of leads that entered its first stage in the period.

    An unknown funnel name answers 400 naming the existing ones.
    """
    key = funnel_key or DEFAULT_FUNNEL
    none = {"funnel": None, "member": None, "start": None, "end": None, "stages": 0}
    found = funnel_query(part="funnels", **{**none, "workspace": workspace.pk})
    funnels = {f.key: f for f in found}
    funnel = funnels.get(key)
    if funnel is None:
        if funnel_key is None and not funnels:
            return Figures(
                {"funnel": key, "stages": []},
                (Note("funnel", NO_DATA_SOURCE, "This workspace has no funnel yet."),),
            )
        raise InvalidParameter(
            "funnel",
            f"No funnel named {key!r} in this workspace.",
            funnels=sorted(funnels),
        )
    stages = funnel_query(part="stages", **{**none, "workspace": None, "funnel": funnel.pk})
    if not stages:
        return Figures(
            {"funnel": key, "stages": []},
            (Note("funnel", NO_DATA_SOURCE, f"The funnel {key} has no stages."),),
        )
    counts = _funnel_stage_counts(
        workspace=workspace, funnel=funnel, stages=stages, period=period, member=member
    )
    ws = workspace
    rows = []
    previous = None
    for index, stage in enumerate(stages):
        n = counts[index]
        if previous is None:
            stage_rate = fields.rate(
                "funnel.stage_rate",
                n,
                None,
                workspace=ws,
                unavailable=NO_DENOMINATOR,
                reason="The first stage has no previous stage.",
            )
        else:
            stage_rate = fields.rate("funnel.stage_rate", n, previous, workspace=ws)
        rows.append(
            {
                "name": stage.key,
                "count": fields.count("funnel.stage_count", n, workspace=ws),
                "rate": stage_rate,
            }
        )
        previous = n
    return Figures({"funnel": key, "stages": rows})
