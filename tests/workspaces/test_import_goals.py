"""The import's goal lines: a month's goal by its own id, of the workspace or a member
(named by id or email), its target a count or money; refused naming the field."""

import json
from datetime import date

import pytest
from django.core.management.base import CommandError

from events.models import Event
from workspaces.import_csv import template_csv
from workspaces.models import Goal

pytestmark = pytest.mark.django_db

MEMBER = {"type": "member", "id": "m-1", "name": "Ada", "email": "ada@example.test"}


def test_goals_are_imported_and_imported_again(make_workspace, import_file):
    ws = make_workspace(currency="USD")
    lines = [
        {**MEMBER, "role": "closer"},
        {
            "type": "goal",
            "id": "g-1",
            "month": "2026-10",
            "metric": "calls.taken",
            "member": "m-1",
            "target": 20,
        },
        {
            "type": "goal",
            "id": "g-2",
            "month": "2026-10",
            "metric": "payments.cash_collected",
            "target": "15000.50",
        },
        {
            "type": "goal",
            "id": "g-3",
            "month": "2026-11",
            "metric": "leads.created",
            "member": "ada@example.test",
            "target": 40,
        },
    ]
    import_file(ws, lines)
    got = {
        goal.external_id: (goal.month, goal.metric, goal.member and goal.member.name, goal.target)
        for goal in Goal.objects.filter(workspace=ws).select_related("member")
    }
    assert got == {
        "g-1": (date(2026, 10, 1), "calls.taken", "Ada", 20),
        "g-2": (date(2026, 10, 1), "payments.cash_collected", None, 1500050),
        "g-3": (date(2026, 11, 1), "leads.created", "Ada", 40),
    }
    events = Event.objects.filter(workspace=ws, type="goal.updated")
    assert events.count() == 3
    # Again, with g-1 changed: one goal changed, one event more.
    lines[1] = {**lines[1], "target": 25}
    import_file(ws, lines)
    assert Goal.objects.get(external_id="g-1").target == 25
    assert Goal.objects.count() == 3
    assert events.count() == 4
    last = events.order_by("-seq").first().data
    assert last["month"] == "2026-10"
    assert [(g["metric"], g["target"]) for g in last["goals"]] == [
        ("payments.cash_collected", 15000.5),
        ("calls.taken", 25),
    ]


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"month": "2026-13"}, "month"),
        ({"metric": "calls.cancelled"}, "metric"),
        ({"target": 2.5}, "target"),
        ({"target": -1}, "target"),
        ({"member": "m-unknown"}, "member"),
    ],
)
def test_a_bad_goal_line_is_named_and_nothing_written(make_workspace, import_file, bad, field):
    ws = make_workspace()
    line = {"type": "goal", "id": "g-1", "month": "2026-10", "metric": "calls.taken", "target": 3}
    with pytest.raises(CommandError) as refused:
        import_file(ws, [json.dumps({**line, **bad})])
    assert f"line 1, field '{field}'" in str(refused.value)
    assert not Goal.objects.exists()


def test_the_csv_template_of_goals_imports(make_workspace, tmp_path):
    text = template_csv("goal")
    assert text.splitlines() == [
        "id,month,metric,member,target",
        "goal-2026-10-m-1-taken,2026-10,calls.taken,m-1,20",
    ]
