"""Change log: record, list by period, and compare the key figures around an entry."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from agentapi.models import ChangeLogEntry
from audit.models import AuditEvent
from tests.conftest import aware
from workspaces.models import Call, Lead, Payment, Sale

from .conftest import new_key, snapshot

pytestmark = pytest.mark.django_db

BODY = {
    "effective_at": "2026-03-01T09:00:00-05:00",
    "kind": "price",
    "title": "Mastermind price up",
    "what": "From 5000 to 6000.",
    "why": "Waitlist.",
}


def _post(api, token, path, body, key=None):
    return api(token, HTTP_IDEMPOTENCY_KEY=key or new_key()).post(path, body, format="json")


def test_create_records_the_entry_and_its_audit_event(team, api):
    response = _post(api, team.write_token, "/api/v1/change-log", BODY)
    assert response.status_code == 201, response.json()
    entry = ChangeLogEntry.objects.get()
    assert entry.workspace_id == team.workspace.pk
    assert entry.effective_at == datetime(2026, 3, 1, 14, 0, tzinfo=UTC)
    assert (entry.kind, entry.title, entry.what, entry.why) == (
        "price",
        "Mastermind price up",
        "From 5000 to 6000.",
        "Waitlist.",
    )
    answer = response.json()
    assert answer["id"] == str(entry.pk)
    assert answer["effective_at"] == "2026-03-01T14:00:00Z"
    assert answer["created_by"] == {
        "kind": "workspace_token",
        "id": str(entry.created_by_id),
        "label": "writer",
    }
    event = AuditEvent.objects.get(action="change_log.created")
    assert (event.workspace_id, event.target_type, event.target_id, event.reason) == (
        team.workspace.pk,
        "change_log_entry",
        str(entry.pk),
        "Waitlist.",
    )
    assert (event.actor_kind, event.actor_label) == ("workspace_token", "writer")


def test_agency_token_writes_through_the_workspace_named_route(team, api):
    path = f"/api/v1/workspaces/{team.workspace.pk}/change-log"
    response = _post(api, team.agency_plan, path, {**BODY, "why": ""})
    assert response.status_code == 201, response.json()
    entry = ChangeLogEntry.objects.get()
    assert entry.workspace_id == team.workspace.pk
    assert (entry.created_by_kind, entry.created_by_label) == ("agency_token", "agency plan")
    event = AuditEvent.objects.get(action="change_log.created")
    assert (event.actor_kind, event.workspace_id) == ("agency_token", team.workspace.pk)


def test_owner_session_writes_as_the_member(team, api):
    response = _post(api, team.sessions["owner"], "/api/v1/change-log", BODY)
    assert response.status_code == 201
    assert response.json()["created_by"]["kind"] == "member"
    assert response.json()["created_by"]["id"] == str(team.members["owner"].pk)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"effective_at": "2026-03-01T09:00:00"}, "effective_at"),
        ({"effective_at": "March 1st"}, "effective_at"),
        # An offset's minutes run 00 to 59 and its hours 00 to 23.
        ({"effective_at": "2026-01-01T10:00:00+05:60"}, "effective_at"),
        ({"effective_at": "2026-01-01T10:00:00+23:60"}, "effective_at"),
        ({"effective_at": "2026-01-01T10:00:00-24:00"}, "effective_at"),
        ({"effective_at": "2026-01-01T10:00:00+9900"}, "effective_at"),
        ({"effective_at": "2026-01-01T10:00:60+00:00"}, "effective_at"),
        ({"effective_at": "2026-01-01T1\uff10:00:00+00:00"}, "effective_at"),
        ({"kind": "mood"}, "kind"),
        ({"title": ""}, "title"),
        ({"title": "x" * 201}, "title"),
        ({"author": "me"}, "author"),
    ],
)
def test_create_refuses_a_bad_body_naming_the_field(team, api, change, field):
    before = snapshot()
    response = _post(api, team.write_token, "/api/v1/change-log", {**BODY, **change})
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_field"
    assert response.json()["field"] == field
    after = snapshot()
    after["counts"]["IdempotencyRecord"] -= 1
    assert after == before


@pytest.mark.parametrize(
    ("effective_at", "message"),
    [
        (
            "9999-12-31T23:30:00-05:00",
            "'9999-12-31T23:30:00-05:00' is outside the times this service holds: from "
            "0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z.",
        ),
        (
            "0001-01-01T00:30:00+01:00",
            "'0001-01-01T00:30:00+01:00' is outside the times this service holds: from "
            "0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z.",
        ),
        (
            "9999-12-31T12:00:00Z",
            "'9999-12-31T12:00:00Z' is outside the times this service holds: from "
            "0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z.",
        ),
        (
            "2026-03-01T09:00:00",
            "'2026-03-01T09:00:00' has no offset: give it as e.g. 2026-03-01T09:30:00+01:00 "
            "or ...Z.",
        ),
    ],
)
def test_a_time_the_service_cannot_hold_is_400_naming_the_field(team, api, effective_at, message):
    """The API reads instants with the import's parser: the same texts, the same words."""
    response = _post(
        api, team.write_token, "/api/v1/change-log", {**BODY, "effective_at": effective_at}
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": {"reason": "invalid_field", "message": f"effective_at: {message}"},
        "field": "effective_at",
    }
    assert not ChangeLogEntry.objects.exists()


def test_create_refuses_a_missing_member(team, api):
    body = dict(BODY)
    del body["what"]
    response = _post(api, team.write_token, "/api/v1/change-log", body)
    assert response.status_code == 400
    assert response.json()["field"] == "what"


def _entry(workspace, at, title):
    return ChangeLogEntry.objects.create(
        workspace=workspace,
        effective_at=at,
        kind="rule",
        title=title,
        what="-",
        created_by_kind="t",
    )


def test_list_uses_local_days_of_the_workspace_both_included(
    make_workspace, workspace_token, api, django_assert_max_num_queries
):
    workspace = make_workspace(timezone="America/New_York")
    tz = "America/New_York"
    _entry(workspace, aware("2026-02-28 23:59", tz), "before")
    _entry(workspace, aware("2026-03-01 00:00", tz), "first minute")
    _entry(workspace, aware("2026-03-02 23:59", tz), "last minute")
    _entry(workspace, aware("2026-03-03 00:00", tz), "after")
    token = workspace_token(workspace)
    with django_assert_max_num_queries(4):
        response = api(token).get("/api/v1/change-log?from=2026-03-01&to=2026-03-02")
    assert response.status_code == 200
    body = response.json()
    assert body["period"] == {"from": "2026-03-01", "to": "2026-03-02", "timezone": tz}
    assert [change["title"] for change in body["changes"]] == ["last minute", "first minute"]
    assert body["changes"][0]["effective_at"] == "2026-03-03T04:59:00Z"


def test_list_defaults_to_the_last_30_days(team, api):
    now = timezone.now()
    _entry(team.workspace, now - timedelta(days=1), "recent")
    _entry(team.workspace, now - timedelta(days=31), "old")
    _entry(team.other, now - timedelta(days=1), "other workspace")
    response = api(team.read_token).get("/api/v1/change-log")
    body = response.json()
    today = now.date()
    assert body["period"]["to"] == today.isoformat()
    assert body["period"]["from"] == (today - timedelta(days=29)).isoformat()
    assert [change["title"] for change in body["changes"]] == ["recent"]


def test_list_of_a_named_workspace_for_an_agency_token(team, api):
    _entry(team.workspace, timezone.now(), "ours")
    _entry(team.other, timezone.now(), "theirs")
    response = api(team.agency_read).get(f"/api/v1/workspaces/{team.other.pk}/change-log")
    assert response.status_code == 200
    assert [change["title"] for change in response.json()["changes"]] == ["theirs"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("from=2026-13-01", "from"),
        ("to=yesterday", "to"),
        ("from=2026-03-05&to=2026-03-01", "from"),
    ],
)
def test_list_refuses_a_bad_period(team, api, query, field):
    response = api(team.read_token).get(f"/api/v1/change-log?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == field


# --- compareAroundChange ---------------------------------------------------------------------


def _lead(workspace, at):
    return Lead.objects.create(workspace=workspace, name="L", email="l@x.test", created_at=at)


def _call(workspace, lead, at, attendance="", outcome=""):
    return Call.objects.create(
        workspace=workspace,
        lead=lead,
        booked_at=at - timedelta(days=1),
        scheduled_for=at,
        attendance=attendance,
        outcome=outcome,
    )


def _sale(workspace, lead, at, contract, paid):
    sale = Sale.objects.create(
        workspace=workspace, lead=lead, closed_at=at, contract_value=contract
    )
    Payment.objects.create(workspace=workspace, sale=sale, paid_at=at, amount=paid)


def test_compare_puts_the_key_figures_side_by_side_with_the_difference(
    team, api, django_assert_max_num_queries
):
    ws = team.workspace
    pivot = (timezone.now() - timedelta(days=20)).replace(microsecond=0)
    change = _entry(ws, pivot, "Price up")
    day = timedelta(days=1)
    # Before: [pivot - 7d, pivot): 2 leads, 2 calls (1 closed, 1 no-show), 1 sale 1000 / 400 paid.
    a = _lead(ws, pivot - 6 * day)
    b = _lead(ws, pivot - 2 * day)
    _call(ws, a, pivot - 5 * day, "showed", "closed")
    _call(ws, b, pivot - 1 * day, "no_show")
    _sale(ws, a, pivot - 5 * day, 100000, 40000)
    # After: [pivot, pivot + 7d): 3 leads, 3 calls showed (2 closed), 2 sales 1500, paid 1500 + 500.
    c, d, e = (_lead(ws, pivot + n * day) for n in (0, 1, 2))
    _call(ws, c, pivot + day, "showed", "closed")
    _call(ws, d, pivot + 2 * day, "showed", "deposit")
    _call(ws, e, pivot + 3 * day, "showed", "no_sale")
    _sale(ws, c, pivot + day, 150000, 150000)
    _sale(ws, d, pivot + 2 * day, 150000, 50000)
    # Outside both windows: counts nowhere.
    _call(ws, _lead(ws, pivot + 8 * day), pivot + 8 * day, "showed", "closed")

    with django_assert_max_num_queries(30):
        response = api(team.read_token).get(f"/api/v1/change-log/{change.pk}/compare?days=7")
    assert response.status_code == 200, response.json()
    body = response.json()
    data = body["data"]
    assert data["change"]["id"] == str(change.pk)
    assert data["days"] == 7
    assert data["before"]["to"] == data["after"]["from"]
    figures = data["figures"]

    def side(metric):
        row = figures[metric]
        return row["before"]["value"], row["after"]["value"], row["difference"]

    assert side("calls.booked") == (2, 3, 1)
    assert side("calls.show_rate") == (0.5, 1.0, 0.5)
    assert side("calls.close_rate") == (1.0, 0.6667, -0.3333)
    assert side("payments.cash_collected") == (400, 2000, 1600)
    assert side("payments.revenue_booked") == (1000, 3000, 2000)
    assert side("leads.created") == (2, 3, 1)
    assert figures["payments.cash_collected"]["after"]["currency"] == "USD"
    assert body["workspace"]["id"] == str(ws.pk)


@pytest.mark.parametrize(
    ("zone", "effective_at", "days", "period", "before", "after"),
    [
        # New York, UTC-5: the windows are whole UTC hours that end at 22:00 local, and the
        # after window ends an hour before daylight saving time starts there (2026-03-08).
        (
            "America/New_York",
            "2026-03-01T03:00:00+00:00",
            "7",
            {"from": "2026-02-21", "to": "2026-03-07"},
            {"from": "2026-02-22T03:00:00Z", "to": "2026-03-01T03:00:00Z"},
            {"from": "2026-03-01T03:00:00Z", "to": "2026-03-08T03:00:00Z"},
        ),
        # Kolkata, UTC+05:30, a change at local midnight: the after window ends at the next
        # local midnight (excluded), so its last day is the change's own day.
        (
            "Asia/Kolkata",
            "2026-03-01T00:00:00+05:30",
            "1",
            {"from": "2026-02-28", "to": "2026-03-01"},
            {"from": "2026-02-27T18:30:00Z", "to": "2026-02-28T18:30:00Z"},
            {"from": "2026-02-28T18:30:00Z", "to": "2026-03-01T18:30:00Z"},
        ),
    ],
)
def test_compare_period_is_the_local_days_the_windows_touch_and_the_windows_are_utc(
    make_workspace, workspace_token, api, zone, effective_at, days, period, before, after
):
    workspace = make_workspace(timezone=zone)
    change = _entry(workspace, datetime.fromisoformat(effective_at), "Price up")
    token = workspace_token(workspace)
    response = api(token).get(f"/api/v1/change-log/{change.pk}/compare?days={days}")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["period"] == period
    assert (body["data"]["before"], body["data"]["after"]) == (before, after)
    assert body["data"]["days"] == int(days)


@pytest.mark.parametrize(
    ("zone", "effective_at"),
    [
        ("UTC", datetime(1, 1, 1, tzinfo=UTC)),
        ("Asia/Tokyo", datetime(1, 1, 2, tzinfo=UTC)),
        ("UTC", datetime(9999, 12, 31, 23, tzinfo=UTC)),
        ("America/New_York", datetime(9999, 12, 30, tzinfo=UTC)),
    ],
)
def test_compare_near_the_ends_of_the_calendar_answers_400_naming_days(
    make_workspace, workspace_token, api, zone, effective_at
):
    workspace = make_workspace(timezone=zone)
    change = _entry(workspace, effective_at, "Far away")
    response = api(workspace_token(workspace)).get(f"/api/v1/change-log/{change.pk}/compare?days=3")
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "reason": "invalid_parameter",
            "message": "3 days before or after this entry's effective_at fall outside the dates "
            "this service can read.",
        },
        "field": "days",
    }


def test_compare_difference_is_null_when_a_side_is_null(team, api):
    change = _entry(team.workspace, timezone.now() - timedelta(days=30), "Script")
    response = api(team.read_token).get(f"/api/v1/change-log/{change.pk}/compare")
    data = response.json()["data"]
    assert data["days"] == 14
    assert data["figures"]["calls.show_rate"]["before"]["value"] is None
    assert data["figures"]["calls.show_rate"]["difference"] is None
    assert data["figures"]["calls.booked"]["difference"] == 0
    codes = {note["code"] for note in response.json()["notes"]}
    assert "figure-unavailable" in codes


# Superscript and other scripts' digits pass str.isdigit() (and some pass int()).
@pytest.mark.parametrize(
    "days", ["0", "91", "abc", "1.5", "-3", "\u00b2", "\u0661\u0664", "+5", "1_0", "\uff15"]
)
def test_compare_refuses_days_outside_1_to_90(team, api, days):
    change = _entry(team.workspace, timezone.now(), "x")
    response = api(team.read_token).get(f"/api/v1/change-log/{change.pk}/compare?days={days}")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_parameter"
    assert response.json()["field"] == "days"


@pytest.mark.parametrize("days", ["1", "90"])
def test_compare_accepts_the_bounds(team, api, days):
    change = _entry(team.workspace, timezone.now() - timedelta(days=100), "x")
    response = api(team.read_token).get(f"/api/v1/change-log/{change.pk}/compare?days={days}")
    assert response.status_code == 200
    assert response.json()["data"]["days"] == int(days)


def test_compare_days_of_5000_digits_is_400_naming_days(team, api):
    change = _entry(team.workspace, timezone.now() - timedelta(days=30), "Script")
    response = api(team.read_token).get(f"/api/v1/change-log/{change.pk}/compare?days={'9' * 5000}")
    assert response.status_code == 400
    assert response.json()["field"] == "days"
    assert response.json()["error"]["message"].endswith("(5000 characters).")
