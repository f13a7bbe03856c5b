"""/funnel: how many of the leads that entered a funnel's first stage in the period
reached each stage."""

from __future__ import annotations

from django.db.models import Count, Q

from core.errors import InvalidParameter
from workspaces.models import Funnel, FunnelProgress

from .. import envelope as fields
from ..envelope import Note
from ..period import Period
from ..registry import NO_DATA_SOURCE, NO_DENOMINATOR
from .base import Figures, in_period

DEFAULT_FUNNEL = "vsl"


def _funnel_stage_counts(*, workspace, funnel, stages, period: Period, member=None) -> list:
    """How many of the cohort reached each stage, every earlier stage first, in one query.

    The cohort is the leads whose earliest event at the first stage is in the period;
    the services keep, per lead, that time and how many stages it reached in order
    (FunnelProgress), so this is one conditional count over the indexed range
    (workspace, funnel, entered_at).
    """
    progress = FunnelProgress.objects.filter(workspace=workspace, funnel=funnel).filter(
        in_period(period, "entered_at")
    )
    if member is not None:
        progress = progress.filter(lead__setter=member)
    counts = progress.aggregate(
        **{f"s{index}": Count("depth", filter=Q(depth__gt=index)) for index in range(len(stages))}
    )
    return [counts[f"s{index}"] for index in range(len(stages))]


def funnel_figures(
    *, workspace, period: Period, funnel_key: str | None = None, member=None
) -> Figures:
    """One funnel's stages for the cohort of leads that entered its first stage in the period.

    An unknown funnel name answers 400 naming the existing ones.
    """
    key = funnel_key or DEFAULT_FUNNEL
    funnels = {
        f.key: f for f in Funnel.objects.filter(workspace=workspace).prefetch_related("stages")
    }
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
    stages = list(funnel.stages.all())
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
