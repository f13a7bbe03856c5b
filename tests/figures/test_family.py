"""A figure family is one declared object: what its aggregate counts, which counts each
figure reads, how each is built; /series and the metric figures read it and nothing
else."""

from datetime import date

import pytest

from figures import envelope as fields
from figures.period import Period
from figures.selectors import metric_figures, series_figures
from figures.selectors import series as series_module
from figures.selectors.base import Counts
from figures.selectors.calls import CALLS
from figures.selectors.family import Family
from figures.selectors.payments import PAYMENTS
from tests.conftest import aware
from workspaces.models import Call


def test_a_family_counts_only_what_its_figures_read():
    assert CALLS.keys_for(["show_rate"]) == ("taken", "no_show", "awaiting")
    assert CALLS.keys_for(["booked", "close_rate"]) == ("booked", "taken", "closed")
    assert PAYMENTS.keys_for(["net_cash"]) == ("cash", "refunded")
    assert PAYMENTS.keys_for(["average_sale"]) == (
        "sales",
        "revenue",
        "collected",
        "over_collected",
    )
    assert PAYMENTS.empty(["refunded"]) == {"refunded": 0}
    assert CALLS.figures_of(["calls.booked", "payments.sales", "calls.show_rate"]) == {
        "booked",
        "show_rate",
    }


@pytest.fixture
def dummy(monkeypatch):
    """A family declared as the recipe says: its keys, its figures and its counter (here the
    calls of the period, counted in Python per local day)."""
    asked = []

    def counter(*, workspace, period, member, buckets, now, keys):
        asked.append(keys)
        calls = list(
            Call.objects.filter(
                workspace=workspace, scheduled_for__gte=period.start, scheduled_for__lt=period.end
            ).values_list("scheduled_for", "attendance")
        )
        if buckets is None:
            return Counts({"all": len(calls), "showed": sum(a == "showed" for _, a in calls)})
        grouped = {}
        for at, attendance in calls:
            start = max(s for s, instant in buckets.starts if instant <= at)
            slot = grouped.setdefault(start, Counts({"all": 0, "showed": 0}))
            slot["all"] += 1
            slot["showed"] += attendance == "showed"
        return grouped

    family = Family(
        name="calls",  # the metric ids' prefix the registry knows
        count_keys=("all", "showed"),
        fields={
            "booked": lambda c, ws: fields.count("calls.booked", c["all"], workspace=ws),
            "taken": lambda c, ws: fields.count("calls.taken", c["showed"], workspace=ws),
        },
        counter=counter,
        counts_of={"booked": {"all"}, "taken": {"showed"}},
    )
    monkeypatch.setitem(series_module.FAMILIES, "calls", family)
    return asked


def test_a_family_declared_once_answers_the_series_and_the_metric_figures(ws, rec, dummy):
    rec.call("2026-03-02 10:00", attendance="showed")
    rec.call("2026-03-02 12:00", attendance="no_show")
    rec.call("2026-03-04 10:00", attendance="showed")
    period = Period.of_days(workspace=ws, first_day=date(2026, 3, 1), last_day=date(2026, 3, 4))
    now = aware("2026-03-20 12:00")

    points = series_figures(
        workspace=ws, period=period, metrics=["calls.booked"], interval="day", now=now
    ).data["calls.booked"]
    assert [(p["from"], p["field"].value) for p in points] == [
        ("2026-03-01", 0),
        ("2026-03-02", 2),
        ("2026-03-03", 0),
        ("2026-03-04", 1),
    ]
    shown = metric_figures(workspace=ws, period=period, metrics=["calls.taken"], now=now)
    assert shown["calls.taken"].value == 2
    # Each aggregate was asked for the keys its figures read, no more.
    assert dummy == [("all",), ("showed",)]
