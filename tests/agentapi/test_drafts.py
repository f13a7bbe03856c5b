"""Drafts: proposed by API tokens or members, never carrying money, listed per role."""

import uuid

import pytest

from agentapi.models import Draft
from audit.models import AuditEvent

from .conftest import new_key, snapshot

pytestmark = pytest.mark.django_db

DRAFTS = "/api/v1/forms/drafts"


def _propose(api, token, body, key=None):
    return api(token, HTTP_IDEMPOTENCY_KEY=key or new_key()).post(DRAFTS, body, format="json")


def _unchanged_but_the_stored_answer(before):
    after = snapshot()
    after["counts"]["IdempotencyRecord"] -= 1
    assert after == before


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"payment": {"amount": 100}}, "fields.payment"),
        ({"cash_collected": "10"}, "fields.cash_collected"),
        ({"contract_value": 10}, "fields.contract_value"),
        ({"payment_plan": "split"}, "fields.payment_plan"),
        ({"instalments": []}, "fields.instalments"),
        ({"notes": "ok", "totalRevenue": 5}, "fields.totalRevenue"),
        ({"extra": [{"ok": 1}, {"CashOnHand": 1}]}, "fields.extra.1.CashOnHand"),
        (
            {"deep": {"deeper": {"first_instalment_due": "2026-01-01"}}},
            "fields.deep.deeper.first_instalment_due",
        ),
    ],
)
def test_a_draft_with_money_is_refused_cash_figures(team, api, fields, path):
    before = snapshot()
    body = {"form": "post-call", "member_id": str(team.members["closer"].pk), "fields": fields}
    response = _propose(api, team.write_token, body)
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.cash_figures"
    assert response.json()["field"] == path
    _unchanged_but_the_stored_answer(before)


def test_the_money_check_comes_before_any_other_check_of_the_body(team, api):
    body = {"form": "nonsense", "member_id": "not-a-uuid", "fields": {"bogus": 1, "cash": 2}}
    response = _propose(api, team.write_token, body)
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.cash_figures"
    assert response.json()["field"] == "fields.cash"


def test_an_api_token_proposes_a_draft_for_a_member(team, api, make_call):
    closer = team.members["closer"]
    call = make_call(team.workspace, closer=closer)
    fields = {
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "follow_up",
        "notes": "Asked for a case study.",
    }
    response = _propose(
        api, team.write_token, {"form": "post-call", "member_id": str(closer.pk), "fields": fields}
    )
    assert response.status_code == 201, response.json()
    draft = Draft.objects.get()
    assert (draft.workspace_id, draft.member_id, draft.form, draft.status) == (
        team.workspace.pk,
        closer.pk,
        "post-call",
        "open",
    )
    assert draft.fields == fields
    assert response.json() == {
        "id": str(draft.pk),
        "form": "post-call",
        "member_id": str(closer.pk),
        "fields": fields,
        "status": "open",
        "created_at": draft.created_at.isoformat().replace("+00:00", "Z"),
        "created_by": {"kind": "workspace_token", "id": draft.created_by_id, "label": "writer"},
    }
    event = AuditEvent.objects.get(action="draft.created")
    assert (event.target_type, event.target_id, event.actor_kind) == (
        "draft",
        str(draft.pk),
        "workspace_token",
    )


def test_a_member_proposes_for_themselves_by_default(team, api):
    response = _propose(
        api, team.sessions["sdr"], {"form": "eod", "fields": {"fields": {"dials": 4}}}
    )
    assert response.status_code == 201, response.json()
    assert Draft.objects.get().member_id == team.members["sdr"].pk


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"form": "post-call", "fields": {"attendance": "late"}}, "fields.attendance"),
        ({"form": "post-call", "fields": {"mood": "good"}}, "fields.mood"),
        (
            {"form": "post-call", "fields": {"submission_id": str(uuid.uuid4())}},
            "fields.submission_id",
        ),
        ({"form": "post-call", "fields": {"call_id": str(uuid.uuid4())}}, "fields.call_id"),
        (
            {"form": "past-call", "fields": {"occurred_at": "2026-01-01T10:00:00"}},
            "fields.occurred_at",
        ),
        ({"form": "eod", "fields": {"fields": {"dials": -2}}}, "fields.fields.dials"),
        ({"form": "eod", "fields": []}, "fields"),
        ({"form": "quote", "fields": {}}, "form"),
        ({"form": "eod", "fields": {}, "due": "today"}, "due"),
    ],
)
def test_a_draft_with_bad_fields_is_refused_naming_the_field(team, api, body, field):
    body = {"member_id": str(team.members["closer"].pk), **body}
    before = snapshot()
    response = _propose(api, team.write_token, body)
    assert response.status_code == 400, response.json()
    assert response.json()["error"]["reason"] == "invalid_field"
    assert response.json()["field"] == field
    _unchanged_but_the_stored_answer(before)


def test_a_post_call_draft_must_name_a_call_of_its_member(team, api, make_call):
    call = make_call(team.workspace, closer=team.members["setter"])
    body = {
        "form": "post-call",
        "member_id": str(team.members["closer"].pk),
        "fields": {"call_id": str(call.pk)},
    }
    response = _propose(api, team.write_token, body)
    assert response.status_code == 400
    assert response.json()["field"] == "fields.call_id"


def test_an_api_token_must_name_the_member(team, api):
    response = _propose(api, team.write_token, {"form": "eod", "fields": {}})
    assert response.status_code == 400
    assert response.json()["field"] == "member_id"


def test_an_unknown_member_is_not_found(team, api):
    before = snapshot()
    response = _propose(api, team.write_token, {"form": "eod", "member_id": str(uuid.uuid4())})
    assert response.status_code == 404
    assert snapshot() == before


def test_a_draft_is_idempotent_on_the_header(team, api):
    body = {"form": "eod", "member_id": str(team.members["closer"].pk), "fields": {}}
    first = _propose(api, team.write_token, body, key="draft-key-1")
    again = _propose(api, team.write_token, body, key="draft-key-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Draft.objects.count() == 1


def _draft(team, role, form="eod", status="open"):
    return Draft.objects.create(
        workspace=team.workspace,
        member=team.members[role],
        form=form,
        status=status,
        created_by_kind="workspace_token",
    )


def test_list_shows_open_drafts_each_role_its_due(team, api, django_assert_max_num_queries):
    closers = _draft(team, "closer")
    setters = _draft(team, "setter", form="post-call")
    _draft(team, "closer", status="filed")
    Draft.objects.create(
        workspace=team.other, member=team.other_closer, form="eod", created_by_kind="x"
    )
    every = [str(closers.pk), str(setters.pk)]
    expected = {
        "read_token": every,
        "owner": every,
        "manager": every,
        "closer": [str(closers.pk)],
        "setter": [str(setters.pk)],
        "sdr": [],
    }
    for who, ids in expected.items():
        token = team.sessions[who] if who in team.sessions else getattr(team, who)
        with django_assert_max_num_queries(6):
            response = api(token).get(DRAFTS)
        assert response.status_code == 200
        assert [draft["id"] for draft in response.json()["drafts"]] == ids, who
