"""POST /api/v1/ad-spend: one ad spend record written (201) or replaced (200), audited, with
its event; the import writing the same record."""

import json
from datetime import date

import pytest
from django.core.management import call_command

from audit.models import AuditEvent
from events.models import Event
from workspaces.models import AdSpend

from .conftest import new_key

pytestmark = pytest.mark.django_db

PATH = "/api/v1/ad-spend"
DAY = {
    "id": "23851234567890-2026-03-04",
    "date": "2026-03-04",
    "platform": "meta",
    "utm_source": "facebook",
    "utm_medium": "paid_social",
    "utm_campaign": "spring-webinar",
    "campaign_id": "23851234567890",
    "campaign_name": "Spring webinar",
    "impressions": 18250,
    "clicks": 412,
    "amount": "412.37",
}


def _post(api, token, body, key=None):
    return api(token, HTTP_IDEMPOTENCY_KEY=key or new_key()).post(PATH, body, format="json")


def test_made_then_replaced_with_its_audit_events_and_events(team, api):
    made = _post(api, team.write_token, DAY)
    assert made.status_code == 201
    assert made.json() == {
        "id": "23851234567890-2026-03-04",
        "date": "2026-03-04",
        "platform": "meta",
        "utm_source": "facebook",
        "utm_medium": "paid_social",
        "utm_campaign": "spring-webinar",
        "utm_content": None,
        "campaign_id": "23851234567890",
        "campaign_name": "Spring webinar",
        "impressions": 18250,
        "clicks": 412,
        "currency": "USD",
        "amount": 412.37,
    }
    # The platform revises the day: the same id replaces the record.
    revised = _post(api, team.write_token, {**DAY, "amount": 430, "clicks": 420})
    assert revised.status_code == 200
    assert (revised.json()["amount"], revised.json()["clicks"]) == (430, 420)
    (record,) = AdSpend.objects.filter(workspace=team.workspace)
    assert (record.external_id, record.date, record.amount) == (DAY["id"], date(2026, 3, 4), 43000)
    audits = AuditEvent.objects.filter(workspace=team.workspace, target_type="ad_spend")
    assert sorted(a.action for a in audits) == ["ad_spend.created", "ad_spend.replaced"]
    assert {a.actor_kind for a in audits} == {"workspace_token"}
    events = Event.objects.filter(workspace=team.workspace, type="ad_spend.updated").order_by("seq")
    assert [e.data["amount"] for e in events] == [412.37, 430]
    assert events[1].data == revised.json()
    # The same write again changes nothing: audited, no event.
    assert _post(api, team.write_token, {**DAY, "amount": 430, "clicks": 420}).status_code == 200
    assert Event.objects.filter(type="ad_spend.updated").count() == 2


def test_a_retry_with_the_key_answers_the_first_answer(team, api):
    key = new_key()
    first = _post(api, team.write_token, DAY, key=key)
    again = _post(api, team.write_token, DAY, key=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert AuditEvent.objects.filter(target_type="ad_spend").count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"platform": "Meta Ads"}, "platform"),
        ({"platform": "x" * 33}, "platform"),
        ({"amount": "-1"}, "amount"),
        ({"amount": "10.555"}, "amount"),
        ({"amount": None}, "amount"),
        ({"date": "2026-03-04T10:00:00Z"}, "date"),
        ({"date": "4 March"}, "date"),
        ({"clicks": -1}, "clicks"),
        ({"impressions": "12"}, "impressions"),
        ({"currency": "EUR"}, "currency"),
        ({"id": ""}, "id"),
        ({"id": "x" * 201}, "id"),
        ({"utm_campaign": "c" * 201}, "utm_campaign"),
        ({"spend": 10}, "spend"),
    ],
)
def test_a_bad_or_unknown_member_is_400_naming_it(team, api, change, field):
    answer = _post(api, team.write_token, {**DAY, **change})
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == field
    assert answer.json()["error"]["message"].startswith(f"{field}: ")
    assert not AdSpend.objects.exists()
    assert not AuditEvent.objects.filter(target_type="ad_spend").exists()


@pytest.mark.parametrize("missing", ["id", "date", "platform", "amount"])
def test_a_missing_member_is_400_naming_it(team, api, missing):
    body = {key: value for key, value in DAY.items() if key != missing}
    answer = _post(api, team.write_token, body)
    assert (answer.status_code, answer.json()["field"]) == (400, missing)


def test_the_workspace_currency_and_absent_values(team, api):
    body = {
        "id": "g-1",
        "date": "2026-03-05",
        "platform": "google",
        "amount": 0,
        "currency": "usd",
        "utm_source": None,
    }
    answer = _post(api, team.write_token, body)
    assert answer.status_code == 201
    shown = answer.json()
    assert (shown["amount"], shown["utm_source"], shown["impressions"]) == (0, None, None)


def test_who_may_write(team, api):
    assert _post(api, team.read_token, DAY).status_code == 403
    manager = _post(api, team.sessions["manager"], DAY)
    assert (manager.status_code, manager.json()["error"]["reason"]) == (
        403,
        "refused.member_scope",
    )
    assert _post(api, team.sessions["closer"], DAY).status_code == 403
    assert _post(api, team.sessions["owner"], DAY).status_code == 201
    audit = AuditEvent.objects.get(target_type="ad_spend")
    assert (audit.actor_kind, audit.actor_id) == ("member", str(team.members["owner"].pk))
    # Reads need `read` only; a manager reads.
    assert api(team.sessions["manager"]).get(PATH).status_code == 200
    assert api(team.write_only_token).get(PATH).status_code == 403
    assert _post(api, team.agency_full, DAY).status_code == 401


def test_the_import_and_the_api_write_the_same_record(team, api, tmp_path):
    line = {"type": "ad_spend", **DAY, "amount": "400.00", "currency": "USD"}
    path = tmp_path / "spend.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    call_command("import_records", "--workspace", str(team.workspace.pk), str(path))
    (record,) = AdSpend.objects.filter(workspace=team.workspace)
    assert (record.amount, record.clicks, record.campaign_name) == (40000, 412, "Spring webinar")
    # The API's write of the same id replaces what the import wrote.
    answer = _post(api, team.write_token, {**DAY, "clicks": None})
    assert answer.status_code == 200
    record.refresh_from_db()
    assert (record.amount, record.clicks) == (41237, None)
    # And the import again replaces what the API wrote.
    call_command("import_records", "--workspace", str(team.workspace.pk), str(path))
    record.refresh_from_db()
    assert (AdSpend.objects.count(), record.amount, record.clicks) == (1, 40000, 412)


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_method_neither_description_declares_is_405(team, api, method):
    """GET is the figures description's and POST the agent description's, at one path:
    any other method is refused as not allowed."""
    client = api(team.write_token, HTTP_IDEMPOTENCY_KEY=new_key())
    answer = getattr(client, method)(PATH, DAY, format="json")
    assert answer.status_code == 405
    assert answer.json()["error"]["reason"] == "method_not_allowed"
