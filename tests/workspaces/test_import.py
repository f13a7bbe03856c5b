from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.models import AuditEvent
from tests.conftest import aware
from workspaces.models import (
    AdSpend,
    Call,
    CommissionRule,
    EodReport,
    Funnel,
    FunnelEvent,
    FunnelProgress,
    Instalment,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Registration,
    Sale,
    Touch,
    WebinarEvent,
)

pytestmark = pytest.mark.django_db

MODELS = (
    Member,
    Lead,
    Touch,
    Call,
    Outcome,
    Sale,
    Payment,
    Refund,
    EodReport,
    WebinarEvent,
    Registration,
    FunnelEvent,
    CommissionRule,
)


def counts(workspace):
    return {model.__name__: model.objects.filter(workspace=workspace).count() for model in MODELS}


def full_file():
    """One record of every type (two of some), in an order that names later records."""
    return [
        {
            "type": "member",
            "id": "m-closer",
            "name": "Cleo Closer",
            "email": "cleo@example.test",
            "role": "closer",
            "joined_at": "2026-01-05",
        },
        {
            "type": "member",
            "id": "m-setter",
            "name": "Sam Setter",
            "email": "sam@example.test",
            "role": "setter",
        },
        {
            "type": "lead",
            "id": "l-1",
            "name": "Lee Lead",
            "email": "lee@example.test",
            "created_at": "2026-03-01T09:00:00-05:00",
            "status": "new",
            "setter": "m-setter",
            "utm_source": "facebook",
            "utm_medium": "paid",
            "utm_campaign": "spring",
            "utm_content": "video-a",
        },
        {"type": "lead", "id": "l-2", "name": "No Utm", "created_at": "2026-03-02T10:00:00Z"},
        {
            "type": "touch",
            "id": "t-auto",
            "lead": "l-1",
            "at": "2026-03-01T09:01:00-05:00",
            "channel": "email",
        },
        {
            "type": "touch",
            "id": "t-2",
            "lead": "l-1",
            "member": "m-setter",
            "at": "2026-03-01T11:00:00-05:00",
            "channel": "phone",
        },
        {
            "type": "touch",
            "id": "t-1",
            "lead": "l-1",
            "member": "m-setter",
            "at": "2026-03-01T09:20:00-05:00",
            "channel": "sms",
        },
        # The replacing call comes before the call it replaces.
        {
            "type": "call",
            "id": "c-2",
            "lead": "l-1",
            "booked_at": "2026-03-03T09:00:00-05:00",
            "scheduled_for": "2026-03-06T14:00:00-05:00",
            "closer": "m-closer",
            "setter": "m-setter",
            "status": "scheduled",
            "rescheduled_from": "c-1",
            "attendance": "showed",
        },
        {
            "type": "call",
            "id": "c-1",
            "lead": "l-1",
            "booked_at": "2026-03-01T12:00:00-05:00",
            "scheduled_for": "2026-03-04T14:00:00-05:00",
            "closer": "m-closer",
            "setter": "m-setter",
        },
        {
            "type": "outcome",
            "id": "o-2",
            "call": "c-2",
            "result": "closed",
            "offer_made": True,
            "at": "2026-03-09T10:00:00-05:00",
        },
        {
            "type": "outcome",
            "id": "o-1",
            "call": "c-2",
            "result": "follow_up",
            "offer_made": True,
            "at": "2026-03-06T15:00:00-05:00",
        },
        {
            "type": "outcome",
            "id": "o-past",
            "lead": "l-2",
            "member": "m-closer",
            "result": "no_sale",
            "reason": "price",
            "at": "2026-03-05T10:00:00Z",
        },
        {
            "type": "sale",
            "id": "s-1",
            "lead": "l-1",
            "call": "c-2",
            "origin": "call",
            "closed_at": "2026-03-09T10:00:00-05:00",
            "closer": "m-closer",
            "setter": "m-setter",
            "contract_value": "4500.00",
            "payment_plan": "split",
            "instalments": [
                {"due_date": "2026-03-09", "amount": "1500"},
                {"due_date": "2026-04-09", "amount": 3000},
            ],
        },
        {
            "type": "payment",
            "id": "p-1",
            "sale": "s-1",
            "paid_at": "2026-03-09T10:05:00-05:00",
            "amount": "1500.50",
            "status": "succeeded",
        },
        {
            "type": "payment",
            "id": "p-2",
            "sale": "s-1",
            "paid_at": "2026-03-10T10:05:00-05:00",
            "amount": 99.99,
            "status": "failed",
        },
        {
            "type": "refund",
            "id": "r-1",
            "payment": "p-1",
            "at": "2026-03-20T12:00:00Z",
            "amount": "100",
        },
        {
            "type": "eod",
            "id": "e-1",
            "member": "m-closer",
            "date": "2026-03-09",
            "submitted_at": "2026-03-09T18:00:00-05:00",
            "fields": {"calls_taken": 3},
        },
        {
            "type": "webinar_event",
            "id": "w-1",
            "name": "Masterclass",
            "starts_at": "2026-03-02T18:00:00Z",
            "pitch_at": "2026-03-02T18:45:00Z",
        },
        {
            "type": "registration",
            "id": "reg-1",
            "event": "w-1",
            "lead": "l-1",
            "registered_at": "2026-03-01T10:00:00Z",
            "joined_at": "2026-03-02T18:01:00Z",
            "left_at": "2026-03-02T19:00:00Z",
        },
        {
            "type": "funnel_event",
            "id": "f-1",
            "lead": "l-1",
            "funnel": "vsl",
            "stage": "opt-in",
            "at": "2026-03-01T09:00:00-05:00",
        },
        {
            "type": "funnel_event",
            "id": "f-2",
            "lead": "l-1",
            "funnel": "vsl",
            "stage": "booked",
            "at": "2026-03-01T12:00:00-05:00",
        },
        {
            "type": "funnel_event",
            "id": "f-3",
            "lead": "l-1",
            "funnel": "vsl",
            "stage": "closed",
            "at": "2026-03-09T10:00:00-05:00",
        },
        {
            "type": "commission_rule",
            "id": "cr-1",
            "member": "m-closer",
            "basis": "cash_collected",
            "slot": "closer",
            "rate": "0.1",
        },
    ]


def test_imports_every_type_and_keeps_the_invariants(make_workspace, import_file):
    ws = make_workspace(currency="USD", timezone="America/New_York")
    output = import_file(ws, full_file())
    assert counts(ws) == {
        "Member": 2,
        "Lead": 2,
        "Touch": 3,
        "Call": 2,
        "Outcome": 3,
        "Sale": 1,
        "Payment": 2,
        "Refund": 1,
        "EodReport": 1,
        "WebinarEvent": 1,
        "Registration": 1,
        "FunnelEvent": 3,
        "CommissionRule": 1,
    }
    assert output.startswith("Imported 23 records into ")
    c1 = Call.objects.get(external_id="c-1")
    c2 = Call.objects.get(external_id="c-2")
    assert (c1.replaced, c2.replaced, c2.rescheduled_from_id) == (True, False, c1.pk)
    assert (c2.outcome, c2.offer_made, c1.outcome) == ("closed", True, "")
    lead = Lead.objects.get(external_id="l-1")
    assert lead.first_contact_at == aware("2026-03-01 09:20", "America/New_York")
    # The succeeded payment only (the refund is the refunds' figure, not the lead's cash).
    assert (lead.has_sale, lead.cash_collected) == (True, 150050)
    no_sale = Lead.objects.get(external_id="l-2")
    assert (no_sale.has_sale, no_sale.cash_collected) == (False, 0)
    # c-2 was booked the day after the webinar l-1 registered for.
    assert Registration.objects.get(external_id="reg-1").booked_after is True
    assert list(FunnelProgress.objects.values_list("lead__external_id", "entered_at", "depth")) == [
        ("l-1", aware("2026-03-01 09:00", "America/New_York"), 3)
    ]
    assert lead.setter == Member.objects.get(external_id="m-setter")
    assert Lead.objects.get(external_id="l-2").first_contact_at is None
    past = Outcome.objects.get(external_id="o-past")
    assert (past.call, past.lead.external_id, past.member.external_id) == (None, "l-2", "m-closer")
    sale = Sale.objects.get()
    assert sale.contract_value == 450000
    assert list(Instalment.objects.filter(sale=sale).values_list("due_date", "amount")) == [
        (date(2026, 3, 9), 150000),
        (date(2026, 4, 9), 300000),
    ]
    assert dict(Payment.objects.values_list("external_id", "amount")) == {
        "p-1": 150050,
        "p-2": 9999,
    }
    refund = Refund.objects.get()
    assert (refund.amount, refund.sale_id) == (10000, sale.pk)
    assert Member.objects.get(external_id="m-closer").joined_at == date(2026, 1, 5)
    assert CommissionRule.objects.get().rate == Decimal("0.1")
    funnel = Funnel.objects.get(workspace=ws)
    assert (funnel.key, list(funnel.stages.values_list("key", "position"))) == (
        "vsl",
        [("opt-in", 0), ("booked", 1), ("closed", 2)],
    )
    event = AuditEvent.objects.get(action="records.imported")
    assert event.workspace_id == ws.pk
    assert event.actor_kind == "command"
    assert event.detail["records"] == 23
    assert event.detail["counts"]["outcome"] == {"created": 3, "updated": 0}


def test_importing_again_updates_instead_of_duplicating(make_workspace, import_file):
    ws = make_workspace(currency="USD")
    import_file(ws, full_file())
    before = counts(ws)
    records = full_file()
    records[2] = {**records[2], "name": "Lee Renamed", "status": "won"}
    records[13] = {**records[13], "amount": "1600"}
    # The later outcome now comes first: the call's outcome follows the latest by time.
    records[9] = {**records[9], "at": "2026-03-05T10:00:00-05:00"}
    output = import_file(ws, records)
    assert counts(ws) == before
    assert "lead 0 created, 2 updated" in output
    assert Lead.objects.get(external_id="l-1").name == "Lee Renamed"
    assert Payment.objects.get(external_id="p-1").amount == 160000
    assert Call.objects.get(external_id="c-2").outcome == "follow_up"
    assert AuditEvent.objects.filter(action="records.imported").count() == 2


def test_money_in_major_units_with_the_currency_exponent(make_workspace, import_file):
    yen = make_workspace(currency="JPY")
    dinar = make_workspace(currency="KWD")
    base = [
        {"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00+09:00"},
        {
            "type": "sale",
            "id": "s",
            "lead": "l",
            "closed_at": "2026-03-01T10:00:00+09:00",
            "contract_value": "150000",
        },
    ]
    import_file(
        yen,
        [
            *base,
            {
                "type": "payment",
                "id": "p",
                "sale": "s",
                "paid_at": "2026-03-01T10:00:00+09:00",
                "amount": 1500,
            },
        ],
    )
    assert Payment.objects.get(workspace=yen).amount == 1500
    assert Sale.objects.get(workspace=yen).contract_value == 150000
    import_file(
        dinar,
        [
            *base,
            {
                "type": "payment",
                "id": "p",
                "sale": "s",
                "paid_at": "2026-03-01T10:00:00+03:00",
                "amount": "12.345",
            },
        ],
    )
    assert Payment.objects.get(workspace=dinar).amount == 12345
    with pytest.raises(CommandError) as refused:
        import_file(
            yen,
            [
                *base,
                {
                    "type": "payment",
                    "id": "p2",
                    "sale": "s",
                    "paid_at": "2026-03-01T10:00:00+09:00",
                    "amount": "10.5",
                },
            ],
        )
    assert "line 3, field 'amount'" in str(refused.value)
    assert "JPY" in str(refused.value)


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"amount": "12.345"}, "amount"),
        ({"amount": 0.001}, "amount"),
        ({"amount": "-5"}, "amount"),
        ({"amount": "twelve"}, "amount"),
        ({"paid_at": "2026-03-09T10:05:00"}, "paid_at"),
        ({"paid_at": "yesterday"}, "paid_at"),
        ({"currency": "EUR"}, "currency"),
        ({"sale": "s-unknown"}, "sale"),
        ({"status": "pending"}, "status"),
    ],
)
def test_a_bad_last_line_writes_nothing(make_workspace, import_file, bad, field):
    ws = make_workspace(currency="USD")
    records = [
        {"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00Z"},
        {
            "type": "sale",
            "id": "s",
            "lead": "l",
            "closed_at": "2026-03-01T10:00:00Z",
            "contract_value": "100",
        },
        "",
        {
            "type": "payment",
            "id": "p",
            "sale": "s",
            "paid_at": "2026-03-09T10:05:00Z",
            "amount": "10",
            "currency": "USD",
            **bad,
        },
    ]
    with pytest.raises(CommandError) as refused:
        import_file(ws, records)
    assert f"line 4, field '{field}'" in str(refused.value)
    assert "Nothing was imported" in str(refused.value)
    assert set(counts(ws).values()) == {0}
    assert not AuditEvent.objects.filter(action="records.imported").exists()


def test_a_bad_line_keeps_an_earlier_import_as_it_was(make_workspace, import_file):
    ws = make_workspace(currency="USD")
    import_file(ws, full_file())
    before = counts(ws)
    records = full_file()
    records[2] = {**records[2], "name": "Changed"}
    records.append({"type": "touch", "id": "t-9", "lead": "l-1", "at": "2026-03-01 09:00"})
    with pytest.raises(CommandError) as refused:
        import_file(ws, records)
    assert "line 24, field 'at'" in str(refused.value)
    assert counts(ws) == before
    assert Lead.objects.get(external_id="l-1").name == "Lee Lead"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 1: not valid JSON"),
        ("[1, 2]", "line 1: each line must be one JSON object"),
        ('{"type": "widget", "id": "x"}', "line 1, field 'type'"),
        ('{"type": "lead", "created_at": "2026-03-01T09:00:00Z"}', "line 1, field 'id'"),
        ('{"type": "lead", "id": "x"}', "line 1, field 'created_at'"),
        (
            '{"type": "member", "id": "x", "email": "a@b.test", "role": "boss"}',
            "line 1, field 'role'",
        ),
        (
            '{"type": "call", "id": "x", "lead": "nope", "scheduled_for": "2026-03-01T09:00:00Z"}',
            "line 1, field 'lead'",
        ),
        (
            '{"type": "commission_rule", "id": "x", "member": "m", "basis": "cash_collected", "slot": "closer", "rate": 2}',
            "line 1, field 'member'",
        ),
    ],
)
def test_bad_lines_are_named(make_workspace, import_file, line, message):
    ws = make_workspace()
    with pytest.raises(CommandError) as refused:
        import_file(ws, [line])
    assert message in str(refused.value)


def test_a_past_call_outcome_without_its_lead_is_refused(make_workspace, import_file):
    """An outcome with no call is a past call's: it must name its lead (docs/import.md)."""
    ws = make_workspace()
    records = [
        {"type": "lead", "id": "l-1", "name": "Lee", "created_at": "2026-03-01T09:00:00Z"},
        {
            "type": "outcome",
            "id": "o-past",
            "result": "no_sale",
            "reason": "price",
            "at": "2026-03-05T10:00:00Z",
        },
    ]
    with pytest.raises(CommandError) as refused:
        import_file(ws, records)
    message = str(refused.value)
    assert "line 2, field 'lead'" in message
    assert "Nothing was imported" in message
    assert set(counts(ws).values()) == {0}
    records[1]["lead"] = "l-1"
    import_file(ws, records)
    past = Outcome.objects.get(workspace=ws, external_id="o-past")
    assert (past.call, past.lead.external_id, past.result) == (None, "l-1", "no_sale")


def test_the_example_file_of_the_docs_imports(make_workspace, import_file):
    text = (Path(__file__).resolve().parents[2] / "docs" / "import.md").read_text()
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    ws = make_workspace(currency="USD")
    import_file(ws, example.strip().splitlines())
    past = Outcome.objects.get(workspace=ws, external_id="o-2")
    assert (past.call, past.lead.external_id, past.member.external_id) == (None, "l-1", "m-1")
    assert Outcome.objects.get(workspace=ws, external_id="o-1").call.external_id == "c-1"


def test_a_rate_outside_zero_to_one_is_refused(make_workspace, import_file):
    ws = make_workspace()
    member = {"type": "member", "id": "m", "email": "m@example.test", "role": "closer", "name": "M"}
    rule = {
        "type": "commission_rule",
        "id": "r",
        "member": "m",
        "basis": "cash_collected",
        "slot": "closer",
        "rate": 1.5,
    }
    with pytest.raises(CommandError) as refused:
        import_file(ws, [member, rule])
    assert "line 2, field 'rate'" in str(refused.value)
    assert Member.objects.count() == 0


def test_a_funnel_that_exists_keeps_its_stages_and_appends_new_ones(make_workspace, import_file):
    ws = make_workspace()
    funnel = Funnel.objects.create(workspace=ws, key="vsl", name="VSL")
    funnel.stages.create(key="opt-in", position=0)
    funnel.stages.create(key="application", position=1)
    import_file(
        ws,
        [
            {"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00Z"},
            {
                "type": "funnel_event",
                "id": "f1",
                "lead": "l",
                "funnel": "vsl",
                "stage": "closed",
                "at": "2026-03-03T09:00:00Z",
            },
            {
                "type": "funnel_event",
                "id": "f2",
                "lead": "l",
                "funnel": "vsl",
                "stage": "application",
                "at": "2026-03-02T09:00:00Z",
            },
            {
                "type": "funnel_event",
                "id": "f3",
                "lead": "l",
                "funnel": "webinar",
                "stage": "registered",
                "at": "2026-03-02T09:00:00Z",
            },
        ],
    )
    assert list(funnel.stages.values_list("key", "position")) == [
        ("opt-in", 0),
        ("application", 1),
        ("closed", 2),
    ]
    assert list(Funnel.objects.get(key="webinar").stages.values_list("key", flat=True)) == [
        "registered"
    ]


def test_members_of_the_app_are_adopted_by_email_and_named_by_id(
    make_workspace, make_member, import_file
):
    ws = make_workspace()
    existing = make_member(ws, "closer", email="cleo@example.test")
    import_file(
        ws,
        [
            {
                "type": "member",
                "id": "m-closer",
                "name": "Cleo",
                "email": "cleo@example.test",
                "role": "closer",
            },
            {
                "type": "lead",
                "id": "l",
                "created_at": "2026-03-01T09:00:00Z",
                "setter": str(existing.pk),
            },
        ],
    )
    existing.refresh_from_db()
    assert (existing.external_id, existing.name) == ("m-closer", "Cleo")
    assert Lead.objects.get().setter == existing
    assert Member.objects.filter(workspace=ws).count() == 1


def test_the_import_never_leaves_a_workspace_without_an_owner(
    make_workspace, make_member, import_file
):
    ws = make_workspace()
    owner = make_member(ws, "owner", email="olive@example.test")
    demote = {
        "type": "member",
        "id": "m-olive",
        "name": "Olive",
        "email": "olive@example.test",
        "role": "closer",
    }
    lead = {"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00Z"}
    with pytest.raises(CommandError) as refused:
        import_file(ws, [lead, demote])
    assert str(refused.value).endswith(
        "records.jsonl: line 2, field 'role': The workspace needs an owner: make someone else "
        "an owner first. Nothing was imported."
    )
    owner.refresh_from_db()
    assert (owner.role, owner.external_id) == ("owner", None)
    assert not Lead.objects.filter(workspace=ws).exists()
    # With another active owner, the import may change the role, audited.
    make_member(ws, "owner", email="otto@example.test")
    name_before = owner.name
    import_file(ws, [demote], "--operator", "Dana Ops")
    owner.refresh_from_db()
    assert (owner.role, owner.external_id, owner.name) == ("closer", "m-olive", "Olive")
    changed = AuditEvent.objects.filter(target_id=str(owner.pk)).order_by("at")
    assert [(e.action, e.actor_label) for e in changed] == [
        ("member.role_changed", "manage.py import_records (Dana Ops)"),
        ("member.changed", "manage.py import_records (Dana Ops)"),
    ]
    assert changed[0].detail == {
        "email": "olive@example.test",
        "before": "owner",
        "after": "closer",
    }
    assert changed[1].detail["changes"] == {
        "external_id": [None, "m-olive"],
        "name": [name_before, "Olive"],
    }


def test_members_made_by_the_import_are_audited(make_workspace, import_file):
    ws = make_workspace()
    import_file(
        ws,
        [{"type": "member", "id": "m", "name": "M", "email": "m@example.test", "role": "closer"}],
        "--operator",
        "Dana Ops",
    )
    member = Member.objects.get(workspace=ws)
    assert member.joined_at is None
    [added] = AuditEvent.objects.filter(action="member.added", target_id=str(member.pk))
    assert (added.actor_label, added.detail) == (
        "manage.py import_records (Dana Ops)",
        {"email": "m@example.test", "role": "closer"},
    )


def test_records_of_another_workspace_cannot_be_named(make_workspace, import_file):
    ours, theirs = make_workspace(), make_workspace()
    import_file(theirs, [{"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00Z"}])
    with pytest.raises(CommandError) as refused:
        import_file(ours, [{"type": "touch", "id": "t", "lead": "l", "at": "2026-03-01T09:00:00Z"}])
    assert "line 1, field 'lead'" in str(refused.value)


def test_unknown_workspace_and_missing_file(make_workspace, tmp_path):
    ws = make_workspace()
    with pytest.raises(CommandError, match="No active workspace"):
        call_command(
            "import_records",
            "--workspace",
            "00000000-0000-0000-0000-000000000000",
            str(tmp_path / "x"),
        )
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_records", "--workspace", str(ws.pk), str(tmp_path / "missing.jsonl"))


def test_progress_bar_on_request(make_workspace, import_file):
    ws = make_workspace()
    records = [
        {"type": "lead", "id": f"l{i}", "created_at": "2026-03-01T09:00:00Z"} for i in range(40)
    ]
    import_file(ws, records)
    assert import_file.stderr == ""
    import_file(ws, records, "--progress")
    assert import_file.stderr.endswith("40/40 records\n")


def test_the_import_reads_each_named_record_once(
    make_workspace, import_file, django_assert_max_num_queries
):
    ws = make_workspace()
    records = [
        {"type": "member", "id": "m", "name": "M", "email": "m@example.test", "role": "setter"}
    ]
    for i in range(20):
        records += [
            {"type": "lead", "id": f"l{i}", "created_at": "2026-03-01T09:00:00Z", "setter": "m"},
            {
                "type": "touch",
                "id": f"t{i}",
                "lead": f"l{i}",
                "member": "m",
                "at": "2026-03-01T09:10:00Z",
            },
            {
                "type": "call",
                "id": f"c{i}",
                "lead": f"l{i}",
                "scheduled_for": "2026-03-03T10:00:00Z",
                "closer": "m",
            },
            {
                "type": "outcome",
                "id": f"o{i}",
                "call": f"c{i}",
                "result": "no_sale",
                "at": "2026-03-03T11:00:00Z",
            },
        ]
    # Per record: its own lookup and its write (what it named before comes from that
    # lookup), and the one insert of its event for the 61 records that announce one (a
    # touch announces none), and once the workspace's webhook endpoints (then cached);
    # once the leads' combination of UTM tags (looked up, made, read back: then known for
    # the run); the invariants are refreshed once, not per record (the leads' bookings: the
    # calls whose replacement changed looked up, then the booked leads locked and updated).
    # The member is written by tenancy's writer: its audit event, and its writer's
    # savepoints.
    with django_assert_max_num_queries(3 + 2 * 81 + 61 + 1 + 3 + 10 + 5 + 3):
        import_file(ws, records)
    assert Lead.objects.filter(workspace=ws, first_contact_at__isnull=False).count() == 20
    assert Call.objects.filter(workspace=ws, outcome="no_sale").count() == 20


SPEND = {
    "type": "ad_spend",
    "id": "fb-1-2026-03-04",
    "date": "2026-03-04",
    "platform": "meta",
    "utm_source": "facebook",
    "utm_campaign": "spring",
    "amount": "412.37",
    "impressions": 18250,
    "clicks": 412,
}


def test_ad_spend_lines_are_written_and_a_revision_replaces_the_amount(make_workspace, import_file):
    ws = make_workspace(currency="USD", timezone="America/New_York")
    out = import_file(
        ws,
        [
            SPEND,
            {
                **SPEND,
                "id": "g-1",
                "platform": "google",
                "amount": 12,
                "date": "2026-03-05T02:00:00Z",
                "utm_source": "google",
            },
        ],
    )
    assert "ad_spend" in out
    record = AdSpend.objects.get(workspace=ws, external_id="fb-1-2026-03-04")
    assert (record.date, record.amount, record.impressions, record.clicks, record.utm_medium) == (
        date(2026, 3, 4),
        41237,
        18250,
        412,
        "",
    )
    # A time with an offset is read as a day of the workspace (New York: 4 March).
    assert AdSpend.objects.get(workspace=ws, external_id="g-1").date == date(2026, 3, 4)
    import_file(ws, [{**SPEND, "amount": "430"}])
    record.refresh_from_db()
    assert (AdSpend.objects.filter(workspace=ws).count(), record.amount) == (2, 43000)


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"platform": "Meta"}, "platform"),
        ({"platform": None}, "platform"),
        ({"amount": "-1"}, "amount"),
        ({"amount": "1.005"}, "amount"),
        ({"currency": "EUR"}, "currency"),
        ({"date": "March 4"}, "date"),
        ({"date": None}, "date"),
        ({"clicks": -3}, "clicks"),
        ({"impressions": 1.5}, "impressions"),
        ({"impressions": "12"}, "impressions"),
    ],
)
def test_a_bad_ad_spend_line_is_named_and_nothing_is_written(
    make_workspace, import_file, bad, field
):
    ws = make_workspace(currency="USD")
    with pytest.raises(CommandError) as refused:
        import_file(ws, [{**SPEND, "id": "ok"}, {**SPEND, **bad}])
    assert f"line 2, field '{field}'" in str(refused.value)
    assert not AdSpend.objects.filter(workspace=ws).exists()


@pytest.mark.parametrize("email", ["not-an-email", "x@y", "a b@example.test"])
@pytest.mark.parametrize("type_", ["member", "lead"])
def test_an_email_that_is_not_one_is_refused_as_the_api_refuses_it(
    make_workspace, import_file, email, type_
):
    ws = make_workspace()
    line = {"type": type_, "id": "r-1", "name": "R", "email": email}
    line.update({"role": "closer"} if type_ == "member" else {"created_at": "2026-03-01T09:00:00Z"})
    with pytest.raises(CommandError) as refused:
        import_file(ws, [line])
    assert str(refused.value).endswith(
        f"line 1, field 'email': {email!r} is not an email address (name@example.com). "
        "Nothing was imported."
    )


def test_a_member_column_takes_the_members_email_as_well_as_their_id(
    make_workspace, make_member, import_file
):
    ws = make_workspace()
    setter = make_member(ws, "setter", email="Sam.Setter@example.test")
    import_file(
        ws,
        [
            {
                "type": "lead",
                "id": "l-1",
                "created_at": "2026-03-01T09:00:00Z",
                "setter": "sam.setter@EXAMPLE.test",
            },
            {
                "type": "lead",
                "id": "l-2",
                "created_at": "2026-03-01T09:00:00Z",
                "setter": str(setter.pk),
            },
        ],
    )
    assert set(Lead.objects.filter(workspace=ws).values_list("setter_id", flat=True)) == {setter.pk}
    with pytest.raises(CommandError) as refused:
        import_file(
            ws,
            [
                {
                    "type": "lead",
                    "id": "l-3",
                    "created_at": "2026-03-01T09:00:00Z",
                    "setter": "nobody@example.test",
                }
            ],
        )
    assert "line 1, field 'setter': No member with id 'nobody@example.test'" in str(refused.value)
