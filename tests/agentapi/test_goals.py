"""PUT /api/v1/goals/{month}: a month's goals replaced, audited, announced; refused naming
the field and the item's index, with nothing written; set by owners, admins and managers."""

from datetime import date

import pytest

from audit.models import AuditEvent
from events.models import Event
from workspaces.models import Goal

from .conftest import new_key

pytestmark = pytest.mark.django_db

PATH = "/api/v1/goals/2026-06"


def _put(api, token, body, path=PATH, key=None):
    return api(token, HTTP_IDEMPOTENCY_KEY=key or new_key()).put(path, body, format="json")


def test_a_month_is_replaced_with_its_audit_event_and_event(team, api):
    ada = team.members["closer"]
    first = _put(
        api,
        team.write_token,
        {
            "goals": [
                {"metric": "calls.taken", "member": str(ada.pk), "target": 20},
                {"metric": "payments.cash_collected", "target": "15000.50"},
                {"metric": "leads.created", "member": None, "target": 40.0},
            ]
        },
    )
    assert first.status_code == 200, first.json()
    assert first.json() == {
        "month": "2026-06",
        "goals": [
            {"metric": "leads.created", "member": None, "unit": "count", "target": 40},
            {
                "metric": "payments.cash_collected",
                "member": None,
                "unit": "money",
                "target": 15000.5,
                "currency": "USD",
            },
            {
                "metric": "calls.taken",
                "member": {"id": str(ada.pk), "name": ada.name},
                "unit": "count",
                "target": 20,
            },
        ],
    }
    cash = Goal.objects.get(workspace=team.workspace, metric="payments.cash_collected")
    assert (cash.month, cash.target, cash.member) == (date(2026, 6, 1), 1500050, None)
    # Named again with another target, the cash goal keeps its id; the others go.
    second = _put(
        api, team.write_token, {"goals": [{"metric": "payments.cash_collected", "target": 9000}]}
    )
    assert second.status_code == 200
    (kept,) = Goal.objects.filter(workspace=team.workspace)
    assert (kept.pk, kept.target) == (cash.pk, 900000)
    audits = AuditEvent.objects.filter(workspace=team.workspace, action="goals.replaced")
    assert sorted((a.target_id, a.detail["goals"], a.detail["removed"]) for a in audits) == [
        ("2026-06", 1, 2),
        ("2026-06", 3, 0),
    ]
    events = Event.objects.filter(workspace=team.workspace, type="goal.updated").order_by("seq")
    assert [event.data for event in events][-1] == second.json()
    # Another month is left alone; an empty list clears one.
    assert _put(api, team.write_token, {"goals": []}, path="/api/v1/goals/2026-07").json() == {
        "month": "2026-07",
        "goals": [],
    }
    assert Goal.objects.filter(workspace=team.workspace).count() == 1


@pytest.mark.parametrize(
    ("goals", "field"),
    [
        ([{"metric": "calls.cancelled", "target": 1}], "goals.0.metric"),
        (
            [{"metric": "calls.taken", "target": 1}, {"metric": "calls.taken", "target": -1}],
            "goals.1.target",
        ),
        ([{"metric": "calls.taken", "target": 2.5}], "goals.0.target"),
        ([{"metric": "payments.revenue_booked", "target": "10.001"}], "goals.0.target"),
        ([{"metric": "calls.taken", "target": True}], "goals.0.target"),
        ([{"metric": "calls.taken", "target": 1, "owner": "x"}], "goals.0.owner"),
        (
            [{"metric": "calls.taken", "target": 1}, {"metric": "calls.taken", "target": 2}],
            "goals.1",
        ),
        ([{"metric": "calls.taken", "target": 1, "member": "not-a-uuid"}], "goals.0.member"),
    ],
)
def test_a_bad_item_is_named_and_nothing_is_written(team, api, goals, field):
    Goal.objects.create(
        workspace=team.workspace, month=date(2026, 6, 1), metric="calls.booked", target=5
    )
    answer = _put(api, team.write_token, {"goals": goals})
    assert answer.status_code == 400
    assert (answer.json()["error"]["reason"], answer.json()["field"]) == ("invalid_field", field)
    assert list(Goal.objects.values_list("metric", "target")) == [("calls.booked", 5)]


def test_a_member_of_another_workspace_and_a_bad_month(team, api):
    answer = _put(
        api,
        team.write_token,
        {"goals": [{"metric": "calls.taken", "member": str(team.other_closer.pk), "target": 3}]},
    )
    assert (answer.status_code, answer.json()["field"]) == (400, "goals.0.member")
    for month in ("2026-13", "2026-6", "june"):
        answer = _put(api, team.write_token, {"goals": []}, path=f"/api/v1/goals/{month}")
        assert (answer.status_code, answer.json()["field"]) == (400, "month"), month
    assert not Goal.objects.exists()


@pytest.mark.parametrize(
    ("role", "status"),
    [("owner", 200), ("admin", 200), ("manager", 200), ("closer", 403), ("setter", 403)],
)
def test_owners_admins_and_managers_set_goals(team, api, role, status):
    answer = _put(api, team.sessions[role], {"goals": [{"metric": "calls.taken", "target": 3}]})
    assert answer.status_code == status
    if status == 403:
        assert answer.json()["error"]["reason"] == "refused.member_scope"
    assert Goal.objects.filter(workspace=team.workspace).exists() == (status == 200)


def test_a_read_token_is_refused_and_a_repeated_key_replays(team, api):
    answer = _put(api, team.read_token, {"goals": []})
    assert (answer.status_code, answer.json()["error"]["reason"]) == (403, "insufficient_scope")
    key = new_key()
    body = {"goals": [{"metric": "calls.taken", "target": 3}]}
    first = _put(api, team.write_token, body, key=key)
    again = _put(api, team.write_token, body, key=key)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert AuditEvent.objects.filter(action="goals.replaced").count() == 1


def test_an_agency_token_and_no_token_are_401_and_another_workspaces_token_writes_its_own(
    team, api
):
    body = {"goals": [{"metric": "calls.taken", "target": 3}]}
    for token in (team.agency_full, None):
        answer = _put(api, token, body)
        assert answer.status_code == 401
    answer = _put(api, team.other_write_token, body)
    assert answer.status_code == 200
    assert list(Goal.objects.values_list("workspace_id", flat=True)) == [team.other.pk]
