"""The four sales forms write real records, once per submission_id."""

import uuid
from datetime import date, timedelta

import pytest
from django.utils import timezone

from agentapi.models import Draft, FormSubmission
from audit.models import AuditEvent
from workspaces.models import Call, EodReport, Instalment, Lead, Outcome, Payment, Sale

from .conftest import snapshot

pytestmark = pytest.mark.django_db

POST_CALL = "/api/v1/forms/post-call"
PAST_CALL = "/api/v1/forms/past-call"
DM_CLOSE = "/api/v1/forms/dm-close"
EOD = "/api/v1/forms/eod"


def _closed_body(call, **extra):
    return {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "closed",
        "offer_made": True,
        "notes": "Paid the deposit on the call.",
        "contract_value": "6000.00",
        "cash_collected": 2000,
        "payment_plan": "split",
        "instalments": [
            {"due_date": "2026-04-01", "amount": "2000.00"},
            {"due_date": "2026-05-01", "amount": 2000.5},
        ],
        **extra,
    }


# --- post-call -------------------------------------------------------------------------------


def test_post_call_closed_writes_call_outcome_sale_instalments_and_payment(team, make_call, write):
    closer = team.members["closer"]
    setter = team.members["setter"]
    call = make_call(team.workspace, closer=closer, setter=setter)
    body = _closed_body(call)

    response = write(team.sessions["closer"], POST_CALL, body)

    assert response.status_code == 201, response.json()
    answer = response.json()
    call.refresh_from_db()
    assert (call.attendance, call.offer_made, call.outcome) == ("showed", True, "closed")
    outcome = Outcome.objects.get()
    assert (outcome.call_id, outcome.lead_id, outcome.member_id) == (
        call.pk,
        call.lead_id,
        closer.pk,
    )
    assert (outcome.result, outcome.offer_made, outcome.notes) == (
        "closed",
        True,
        "Paid the deposit on the call.",
    )
    sale = Sale.objects.get()
    assert (sale.origin, sale.call_id, sale.lead_id) == ("call", call.pk, call.lead_id)
    assert (sale.closer_id, sale.setter_id) == (closer.pk, setter.pk)
    assert (sale.contract_value, sale.payment_plan) == (600000, "split")
    assert sorted(Instalment.objects.values_list("due_date", "amount")) == [
        (date(2026, 4, 1), 200000),
        (date(2026, 5, 1), 200050),
    ]
    payment = Payment.objects.get()
    assert (payment.sale_id, payment.amount, payment.status) == (sale.pk, 200000, "succeeded")
    assert answer["form"] == "post-call"
    assert answer["submission_id"] == body["submission_id"]
    assert answer["call"] == {
        "id": str(call.pk),
        "attendance": "showed",
        "offer_made": True,
        "outcome": "closed",
    }
    assert answer["outcome"]["id"] == str(outcome.pk)
    assert answer["sale"]["contract_value"] == 6000.0
    assert answer["sale"]["cash_collected"] == 2000.0
    assert answer["sale"]["payment_id"] == str(payment.pk)
    assert answer["sale"]["instalments"] == [
        {"due_date": "2026-04-01", "amount": 2000.0},
        {"due_date": "2026-05-01", "amount": 2000.5},
    ]
    event = AuditEvent.objects.get(action="form.post_call.filed")
    assert (event.actor_kind, event.actor_id, event.target_type, event.target_id) == (
        "member",
        str(closer.pk),
        "call",
        str(call.pk),
    )
    assert event.workspace_id == team.workspace.pk


def test_post_call_by_the_setter_slot_holder_is_accepted(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"], setter=team.members["setter"])
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "no_show",
    }
    response = write(team.sessions["setter"], POST_CALL, body)
    assert response.status_code == 201, response.json()
    call.refresh_from_db()
    assert (call.attendance, call.outcome) == ("no_show", "")
    assert Outcome.objects.count() == 0
    assert response.json()["outcome"] is None
    assert response.json()["sale"] is None


def test_call_outcome_follows_the_latest_outcome(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"])
    first = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "follow_up",
        "reason": "Partner decides",
    }
    assert write(team.sessions["closer"], POST_CALL, first).status_code == 201
    call.refresh_from_db()
    assert call.outcome == "follow_up"
    second = _closed_body(call)
    assert write(team.sessions["closer"], POST_CALL, second).status_code == 201
    call.refresh_from_db()
    assert call.outcome == "closed"
    assert list(Outcome.objects.order_by("at").values_list("result", flat=True)) == [
        "follow_up",
        "closed",
    ]


def test_same_submission_id_answers_the_first_answer_and_writes_once(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"])
    body = _closed_body(call)
    first = write(team.sessions["closer"], POST_CALL, body)
    # Another key, even another body: the submission_id identifies the filing.
    again = write(team.sessions["closer"], POST_CALL, {**body, "notes": "typo fixed"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert (Outcome.objects.count(), Sale.objects.count(), Payment.objects.count()) == (1, 1, 1)
    assert FormSubmission.objects.get().submission_id == uuid.UUID(body["submission_id"])


def test_submission_id_of_another_member_is_refused(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"], setter=team.members["setter"])
    body = _closed_body(call)
    assert write(team.sessions["closer"], POST_CALL, body).status_code == 201
    before = snapshot()
    response = write(team.sessions["setter"], POST_CALL, body)
    assert response.status_code == 422
    assert response.json()["error"]["reason"] == "refused.submission_id_reused"
    after = snapshot()
    # Only the stored answer of the refusal under its own key is new.
    assert after["counts"]["IdempotencyRecord"] == before["counts"]["IdempotencyRecord"] + 1
    after["counts"]["IdempotencyRecord"] -= 1
    assert after == before


def test_post_call_on_a_call_without_the_members_slot_is_member_scope(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"])
    before = snapshot()
    for role in ("setter", "sdr", "owner"):
        response = write(team.sessions[role], POST_CALL, _closed_body(call))
        assert response.status_code == 403
        assert response.json()["error"]["reason"] == "refused.member_scope"
    assert snapshot() == before


def test_post_call_unknown_call_is_not_found(team, write):
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(uuid.uuid4()),
        "attendance": "no_show",
    }
    before = snapshot()
    response = write(team.sessions["closer"], POST_CALL, body)
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "not_found"
    assert snapshot() == before


@pytest.mark.parametrize("call_id", ["not-a-call", None], ids=["malformed", "missing"])
def test_post_call_without_a_usable_call_id_is_a_400(team, write, call_id):
    body = {"submission_id": str(uuid.uuid4()), "attendance": "no_show"}
    if call_id is not None:
        body["call_id"] = call_id
    response = write(team.sessions["closer"], POST_CALL, body)
    assert response.status_code == 400
    assert response.json()["field"] == "call_id"


def test_post_call_on_another_workspaces_call_is_not_found(team, make_call, write):
    call = make_call(team.other, closer=team.other_closer)
    before = snapshot()
    response = write(team.sessions["closer"], POST_CALL, _closed_body(call))
    assert response.status_code == 404
    assert response.json()["error"]["reason"] == "not_found"
    assert snapshot() == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"contract_value": "6000.001"}, "contract_value"),
        ({"contract_value": "6,000"}, "contract_value"),
        ({"contract_value": -5}, "contract_value"),
        ({"contract_value": True}, "contract_value"),
        ({"contract_value": "0"}, "contract_value"),
        ({"cash_collected": 12.345}, "cash_collected"),
        (
            {"instalments": [{"due_date": "2026-04-01", "amount": "1.00"}, {"due_date": "x"}]},
            "instalments.1.due_date",
        ),
        ({"instalments": [{"due_date": "2026-04-01", "amount": "1.001"}]}, "instalments.0.amount"),
        (
            {"instalments": [{"due_date": "2026-04-01", "amount": "1", "memo": "x"}]},
            "instalments.0.memo",
        ),
        ({"colour": "blue"}, "colour"),
        ({"payment_plan": "weekly"}, "payment_plan"),
        ({"attendance": "late"}, "attendance"),
        ({"outcome": None}, "outcome"),
        ({"offer_made": "yes"}, "offer_made"),
        ({"submission_id": "abc"}, "submission_id"),
    ],
)
def test_post_call_bad_fields_are_named(team, make_call, write, change, field):
    call = make_call(team.workspace, closer=team.members["closer"])
    before = snapshot()
    response = write(team.sessions["closer"], POST_CALL, {**_closed_body(call), **change})
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["error"]["reason"] == "invalid_field"
    assert body["field"] == field
    assert body["error"]["message"].startswith(field)
    after = snapshot()
    # A 400 is an answer like any other: stored under its key, nothing else written.
    after["counts"]["IdempotencyRecord"] -= 1
    assert after == before


def test_post_call_rules_between_fields(team, make_call, write):
    call = make_call(team.workspace, closer=team.members["closer"])
    session = team.sessions["closer"]
    base = {"submission_id": str(uuid.uuid4()), "call_id": str(call.pk)}
    cases = [
        ({"attendance": "showed"}, "outcome"),
        ({"attendance": "no_show", "outcome": "no_sale"}, "outcome"),
        ({"attendance": "no_show", "offer_made": True}, "offer_made"),
        ({"attendance": "showed", "outcome": "closed"}, "contract_value"),
        ({"attendance": "showed", "outcome": "no_sale", "cash_collected": "10"}, "cash_collected"),
    ]
    for change, field in cases:
        response = write(session, POST_CALL, {**base, **change})
        assert response.status_code == 400, change
        assert response.json()["field"] == field, change
    assert Outcome.objects.count() == 0


def test_zero_decimal_currency_refuses_decimals(
    make_workspace, make_member, session_token, make_call, write
):
    workspace = make_workspace(currency="JPY")
    closer = make_member(workspace, "closer")
    call = make_call(workspace, closer=closer)
    session = session_token(closer)
    refused = write(session, POST_CALL, _closed_body(call, contract_value="6000.0", instalments=[]))
    assert refused.status_code == 400
    assert refused.json()["field"] == "contract_value"
    accepted = write(
        session,
        POST_CALL,
        _closed_body(call, contract_value="600000", cash_collected=1000, instalments=[]),
    )
    assert accepted.status_code == 201
    assert Sale.objects.get().contract_value == 600000
    assert accepted.json()["sale"]["contract_value"] == 600000


def test_cancelled_or_rescheduled_call_is_refused(team, make_call, write):
    closer = team.members["closer"]
    cancelled = make_call(team.workspace, closer=closer, status="cancelled")
    replaced = make_call(team.workspace, closer=closer, replaced=True)
    for call in (cancelled, replaced):
        response = write(team.sessions["closer"], POST_CALL, _closed_body(call))
        assert response.status_code == 400
        assert response.json()["field"] == "call_id"
    assert Outcome.objects.count() == 0


def test_post_call_visible_in_the_calls_figures(team, make_call, write, api):
    call = make_call(team.workspace, closer=team.members["closer"])
    assert write(team.sessions["closer"], POST_CALL, _closed_body(call)).status_code == 201
    today = timezone.now().date()
    yesterday = today - timedelta(days=1)
    response = api(team.read_token).get(f"/api/v1/calls?from={yesterday}&to={today}")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["taken"]["value"] == 1
    assert data["closed"]["value"] == 1


# --- past-call -------------------------------------------------------------------------------


def test_past_call_with_a_new_lead_creates_it_and_the_outcome(team, write):
    occurred = (timezone.now() - timedelta(days=1)).replace(microsecond=0)
    body = {
        "submission_id": str(uuid.uuid4()),
        "lead": {"name": "Sam Ortiz", "email": "Sam@Example.test"},
        "occurred_at": occurred.isoformat(),
        "outcome": "deposit",
        "offer_made": True,
        "contract_value": "3000",
        "cash_collected": "500.50",
    }
    response = write(team.sessions["closer"], PAST_CALL, body)
    assert response.status_code == 201, response.json()
    lead = Lead.objects.get()
    assert (lead.name, lead.email, lead.created_at) == ("Sam Ortiz", "sam@example.test", occurred)
    outcome = Outcome.objects.get()
    assert (outcome.call_id, outcome.lead_id, outcome.member_id, outcome.result, outcome.at) == (
        None,
        lead.pk,
        team.members["closer"].pk,
        "deposit",
        occurred,
    )
    sale = Sale.objects.get()
    assert (sale.origin, sale.closer_id, sale.contract_value, sale.closed_at) == (
        "past_call",
        team.members["closer"].pk,
        300000,
        occurred,
    )
    assert Payment.objects.get().amount == 50050
    assert response.json()["lead"] == {
        "id": str(lead.pk),
        "name": "Sam Ortiz",
        "email": "sam@example.test",
        "created": True,
    }
    # The same email again finds that lead.
    again = write(
        team.sessions["closer"],
        PAST_CALL,
        {
            "submission_id": str(uuid.uuid4()),
            "lead": {"email": "sam@example.test"},
            "occurred_at": occurred.isoformat(),
            "outcome": "no_sale",
        },
    )
    assert again.status_code == 201
    assert again.json()["lead"]["created"] is False
    assert Lead.objects.count() == 1


def test_past_call_lead_by_id_and_unknown_lead(team, make_call, write):
    lead = make_call(team.workspace).lead
    occurred = (timezone.now() - timedelta(hours=2)).isoformat()
    body = {
        "submission_id": str(uuid.uuid4()),
        "lead": str(lead.pk),
        "occurred_at": occurred,
        "outcome": "follow_up",
    }
    assert write(team.sessions["sdr"], PAST_CALL, body).status_code == 201
    assert Outcome.objects.get().lead_id == lead.pk
    before = snapshot()
    unknown = write(
        team.sessions["sdr"],
        PAST_CALL,
        {**body, "submission_id": str(uuid.uuid4()), "lead": {"id": str(uuid.uuid4())}},
    )
    assert unknown.status_code == 404
    assert snapshot() == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"occurred_at": "2026-03-01T10:00:00"}, "occurred_at"),
        ({"occurred_at": "2999-03-01T10:00:00+00:00"}, "occurred_at"),
        ({"occurred_at": "2026-03-01T10:00:00+23:60"}, "occurred_at"),
        ({"occurred_at": "0001-01-01T00:30:00+01:00"}, "occurred_at"),
        ({"lead": {"name": "No email"}}, "lead.email"),
        ({"lead": {"email": "x@example.test", "phone": "1"}}, "lead.phone"),
        ({"attendance": "no_show"}, "attendance"),
        ({"call_id": str(uuid.uuid4())}, "call_id"),
    ],
)
def test_past_call_bad_fields(team, write, change, field):
    body = {
        "submission_id": str(uuid.uuid4()),
        "lead": {"name": "Sam", "email": "sam@example.test"},
        "occurred_at": (timezone.now() - timedelta(hours=1)).isoformat(),
        "outcome": "no_sale",
        **change,
    }
    response = write(team.sessions["closer"], PAST_CALL, body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert Lead.objects.count() == 0


# --- dm-close --------------------------------------------------------------------------------


def test_dm_close_creates_a_dm_sale_with_the_member_as_setter(team, write):
    closed_at = (timezone.now() - timedelta(hours=3)).replace(microsecond=0)
    body = {
        "submission_id": str(uuid.uuid4()),
        "lead": {"name": "Lee", "email": "lee@example.test"},
        "platform": "instagram",
        "closed_at": closed_at.isoformat(),
        "contract_value": 1500,
        "cash_collected": "1500.00",
        "payment_plan": "paid_in_full",
    }
    response = write(team.sessions["setter"], DM_CLOSE, body)
    assert response.status_code == 201, response.json()
    sale = Sale.objects.get()
    assert (sale.origin, sale.setter_id, sale.closer_id, sale.call_id) == (
        "dm",
        team.members["setter"].pk,
        None,
        None,
    )
    assert (sale.contract_value, sale.closed_at, sale.payment_plan) == (
        150000,
        closed_at,
        "paid_in_full",
    )
    payment = Payment.objects.get()
    assert (payment.amount, payment.paid_at) == (150000, closed_at)
    assert Lead.objects.get().setter_id == team.members["setter"].pk
    assert response.json()["platform"] == "instagram"
    event = AuditEvent.objects.get(action="form.dm_close.filed")
    assert (event.target_type, event.target_id) == ("sale", str(sale.pk))


def test_dm_close_needs_a_contract_value(team, write):
    body = {
        "submission_id": str(uuid.uuid4()),
        "lead": {"email": "lee@example.test"},
        "platform": "whatsapp",
        "closed_at": timezone.now().isoformat(),
    }
    response = write(team.sessions["setter"], DM_CLOSE, body)
    assert response.status_code == 400
    assert response.json()["field"] == "contract_value"
    assert Sale.objects.count() == 0


# --- eod -------------------------------------------------------------------------------------


def test_eod_filed_twice_the_same_day_keeps_one_report_with_the_second_values(team, write):
    session = team.sessions["setter"]
    first = write(session, EOD, {"date": "2026-03-02", "fields": {"dials": 80, "notes": "ok"}})
    assert first.status_code == 201, first.json()
    assert first.json()["edited"] is False
    second = write(
        session, EOD, {"date": "2026-03-02", "fields": {"dials": 95, "conversations": 12}}
    )
    assert second.status_code == 200
    assert second.json()["edited"] is True
    report = EodReport.objects.get()
    assert (report.member_id, report.date, report.fields) == (
        team.members["setter"].pk,
        date(2026, 3, 2),
        {"dials": 95, "conversations": 12},
    )
    assert second.json()["report"]["id"] == first.json()["report"]["id"] == str(report.pk)
    assert list(
        AuditEvent.objects.filter(action__startswith="form.eod")
        .order_by("at")
        .values_list("action", flat=True)
    ) == ["form.eod.filed", "form.eod.edited"]


def test_eod_date_defaults_to_today_in_the_workspace_timezone(
    make_workspace, make_member, session_token, write
):
    workspace = make_workspace(timezone="Pacific/Kiritimati")  # UTC+14
    sdr = make_member(workspace, "sdr")
    response = write(session_token(sdr), EOD, {"fields": {"dials": 3}})
    assert response.status_code == 201
    local_today = (
        timezone.now().astimezone(__import__("zoneinfo").ZoneInfo("Pacific/Kiritimati")).date()
    )
    assert EodReport.objects.get().date == local_today


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"fields": {"dials": -1}}, "fields.dials"),
        ({"fields": {"dials": 1.5}}, "fields.dials"),
        ({"fields": {"Bad Key": 1}}, "fields.Bad Key"),
        ({"fields": {"done": True}}, "fields.done"),
        ({"date": "2999-01-01", "fields": {"dials": 1}}, "date"),
        ({"date": "02/03/2026", "fields": {"dials": 1}}, "date"),
        ({}, "fields"),
        ({"fields": {}}, "fields"),
        ({"fields": {"notes": "   "}}, "fields"),
        ({"fields": {"dials": 1}, "mood": "great"}, "mood"),
    ],
)
def test_eod_bad_fields(team, write, body, field):
    response = write(team.sessions["closer"], EOD, body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert EodReport.objects.count() == 0


def test_an_empty_eod_report_is_refused_naming_its_fields(team, write):
    response = write(team.sessions["closer"], EOD, {"fields": {}})
    assert response.json() == {
        "error": {
            "reason": "invalid_field",
            "message": "fields: Fill in at least one of the report's fields (a count, even 0, "
            "or a text): an empty report is not filed.",
        },
        "field": "fields",
    }
    zero = write(team.sessions["closer"], EOD, {"fields": {"dials": 0}})
    assert zero.status_code == 201


def test_non_object_body_is_invalid_body(team, write):
    response = write(team.sessions["closer"], EOD, [1, 2])
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "invalid_body"


# --- drafts closing --------------------------------------------------------------------------


def test_filing_with_a_draft_closes_it_and_a_second_use_is_refused(team, make_call, write, api):
    closer = team.members["closer"]
    call = make_call(team.workspace, closer=closer)
    proposed = write(
        team.write_token,
        "/api/v1/forms/drafts",
        {
            "form": "post-call",
            "member_id": str(closer.pk),
            "fields": {"call_id": str(call.pk), "attendance": "showed", "outcome": "no_sale"},
        },
    )
    assert proposed.status_code == 201, proposed.json()
    draft_id = proposed.json()["id"]
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "showed",
        "outcome": "no_sale",
        "reason": "Budget",
        "draft_id": draft_id,
    }
    filed = write(team.sessions["closer"], POST_CALL, body)
    assert filed.status_code == 201, filed.json()
    assert filed.json()["draft_id"] == draft_id
    draft = Draft.objects.get()
    assert draft.status == "filed"
    listed = api(team.sessions["closer"]).get("/api/v1/forms/drafts")
    assert listed.json() == {"drafts": []}
    refused = write(
        team.sessions["closer"], POST_CALL, {**body, "submission_id": str(uuid.uuid4())}
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["reason"] == "refused.draft_closed"
    assert Outcome.objects.count() == 1


def test_a_draft_of_another_member_or_form_cannot_be_filed(team, make_call, write):
    setter = team.members["setter"]
    call = make_call(team.workspace, closer=team.members["closer"], setter=setter)
    draft = Draft.objects.create(
        workspace=team.workspace, member=setter, form="post-call", created_by_kind="test"
    )
    body = {
        "submission_id": str(uuid.uuid4()),
        "call_id": str(call.pk),
        "attendance": "no_show",
        "draft_id": str(draft.pk),
    }
    response = write(team.sessions["closer"], POST_CALL, body)
    assert response.status_code == 404
    eod_draft = Draft.objects.create(
        workspace=team.workspace, member=setter, form="eod", created_by_kind="test"
    )
    wrong_form = write(team.sessions["setter"], POST_CALL, {**body, "draft_id": str(eod_draft.pk)})
    assert wrong_form.status_code == 400
    assert wrong_form.json()["field"] == "draft_id"
    assert Call.objects.get(pk=call.pk).attendance == ""
    assert set(Draft.objects.values_list("status", flat=True)) == {"open"}
