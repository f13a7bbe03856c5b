"""The import's reading of lines: values, members, and what a bad line is told."""

import json

import pytest

from tests.conftest import aware
from workspaces.importer import ImportLineError, money_to_minor, parse_time, records_import
from workspaces.services import RecordInvalid


@pytest.mark.parametrize(
    ("value", "exponent", "minor"),
    [
        ("1234.50", 2, 123450),
        ("1234.5", 2, 123450),
        (12, 2, 1200),
        ("0", 2, 0),
        ("1500", 0, 1500),
        ("1.234", 3, 1234),
    ],
)
def test_money_to_minor(value, exponent, minor):
    assert money_to_minor(value, exponent=exponent, currency="X", field="amount") == minor


@pytest.mark.parametrize("value", ["1.234", "1e3", "", "-1", True, None, [1]])
def test_money_to_minor_refuses(value):
    with pytest.raises(RecordInvalid):
        money_to_minor(value, exponent=2, currency="USD", field="amount")


def test_parse_time_needs_an_offset():
    assert parse_time("2026-03-01T09:30:00Z", field="at") == aware("2026-03-01 09:30")
    assert parse_time("2026-03-01T10:30:00+01:00", field="at") == aware("2026-03-01 09:30")
    with pytest.raises(RecordInvalid, match="no offset"):
        parse_time("2026-03-01T09:30:00", field="at")


def test_money_messages_name_the_currency():
    cases = [
        ("10.500", "10.500 has more decimals than USD allows (2)."),
        ("-5", "'-5' is not an amount of zero or more."),
        (True, "Give an amount in USD, as a decimal string or number."),
        ("1e3", "'1e3' is not an amount: give a decimal string such as \"1234.50\"."),
        ("100000000000.01", "The amount is more than the largest accepted."),
    ]
    for value, message in cases:
        with pytest.raises(RecordInvalid) as refused:
            money_to_minor(value, exponent=2, currency="USD", field="amount")
        assert (refused.value.field, refused.value.message) == ("amount", message)


BASE = [
    {"type": "member", "id": "m", "email": "a@x.io", "role": "closer"},
    {"type": "lead", "id": "l", "created_at": "2026-03-01T09:00:00Z"},
    {"type": "call", "id": "c", "lead": "l", "scheduled_for": "2026-03-02T09:00:00Z"},
]
SALE = {"type": "sale", "id": "s", "lead": "l", "closed_at": "2026-03-01T10:00:00Z"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            {"type": "member", "id": "m2", "email": "b@x.io"},
            "line 4, field 'role': This member is required.",
        ),
        (
            {"type": "lead", "id": "l2", "created_at": "2026-03-01T09:00:00Z", "status": "x" * 41},
            "line 4, field 'status': At most 40 characters.",
        ),
        (
            {"type": "lead", "id": "l2", "created_at": "2026-03-01T09:00:00Z", "setter": "zz"},
            "line 4, field 'setter': No member with id 'zz' in this workspace (import it first).",
        ),
        (
            {"type": "touch", "id": "t", "lead": "l"},
            "line 4, field 'at': This member is required (ISO 8601 with an offset).",
        ),
        (
            {"type": "outcome", "id": "o", "result": "closed", "at": "2026-03-02T09:00:00Z"},
            "line 4, field 'lead': This member is required.",
        ),
        # Instants at the calendar's edges are refused, not an OverflowError.
        (
            {**SALE, "closed_at": "9999-12-31T23:30:00-05:00"},
            "line 4, field 'closed_at': '9999-12-31T23:30:00-05:00' is outside the times this "
            "service holds: from 0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z.",
        ),
        (
            {"type": "lead", "id": "l2", "created_at": "0001-01-01T00:30:00+01:00"},
            "line 4, field 'created_at': '0001-01-01T00:30:00+01:00' is outside the times this "
            "service holds: from 0001-01-03T00:00:00Z to 9999-12-29T00:00:00Z.",
        ),
        (
            {"type": "touch", "id": "t", "lead": "l", "at": "2026-03-01T09:00:00+24:00"},
            "line 4, field 'at': '+24:00' is not an offset: hours 00 to 23 and minutes 00 to "
            "59, e.g. 2026-03-01T09:30:00+01:00, or Z.",
        ),
        (
            {
                "type": "call",
                "id": "c2",
                "lead": "l",
                "scheduled_for": "2026-03-02T09:00:00Z",
                "rescheduled_from": [1],
            },
            "line 4, field 'rescheduled_from': Give the id of the call it replaces.",
        ),
        (
            {
                "type": "call",
                "id": "c2",
                "lead": "l",
                "scheduled_for": "2026-03-02T09:00:00Z",
                "rescheduled_from": "zz",
            },
            "line 4, field 'rescheduled_from': No call with id 'zz' in this workspace "
            "(import it first).",
        ),
        (
            {**SALE, "contract_value": "1", "instalments": {}},
            "line 4, field 'instalments': Give a list of {due_date, amount}.",
        ),
        (
            {**SALE, "contract_value": "1", "instalments": [5]},
            "line 4, field 'instalments.0': Give {due_date, amount}.",
        ),
        (
            {
                **SALE,
                "contract_value": "1",
                "instalments": [
                    {"due_date": "2026-04-01", "amount": "1"},
                    {"due_date": "2026-04-01"},
                ],
            },
            "line 4, field 'instalments.1.amount': This member is required.",
        ),
        (
            {
                **SALE,
                "contract_value": "1",
                "instalments": [{"due_date": "2026-04-01", "amount": "0.001"}],
            },
            "line 4, field 'instalments.0.amount': 0.001 has more decimals than USD allows (2).",
        ),
        (
            {
                "type": "eod",
                "id": "e",
                "member": "m",
                "date": "2026-03-01",
                "submitted_at": "2026-03-01T10:00:00Z",
                "fields": [1],
            },
            "line 4, field 'fields': Give the report's counts and text as an object.",
        ),
        (
            {
                "type": "funnel_event",
                "id": "f",
                "lead": "l",
                "funnel": "a",
                "stage": "x" * 65,
                "at": "2026-03-01T10:00:00Z",
            },
            "line 4, field 'stage': At most 64 characters.",
        ),
        (
            {"type": "commission_rule", "id": "k", "rate": "NaN"},
            "line 4, field 'rate': 'NaN' is not a number.",
        ),
        (
            {"type": "commission_rule", "id": "k", "rate": True},
            "line 4, field 'rate': Give the rate as a fraction, e.g. 0.1.",
        ),
    ],
)
def test_a_bad_line_is_named_with_its_member_and_why(make_workspace, line, error):
    workspace = make_workspace(currency="USD")
    lines = [json.dumps(record) for record in [*BASE, line]]
    with pytest.raises(ImportLineError) as refused:
        records_import(workspace=workspace, by_role="owner", lines=lines)
    assert str(refused.value) == error


@pytest.mark.parametrize("batch", [1, 2, 3, 500])
def test_the_check_finds_the_same_refusals_whatever_its_batches(make_workspace, monkeypatch, batch):
    from audit.models import AuditEvent  # noqa: PLC0415
    from workspaces import importer  # noqa: PLC0415
    from workspaces.models import Lead  # noqa: PLC0415

    monkeypatch.setattr(importer, "CHUNK_LINES", batch)
    ws = make_workspace(currency="USD")
    at = "2026-10-01T09:00:00+00:00"
    lines = [
        json.dumps({"type": "lead", "id": "l-1", "created_at": at}),
        json.dumps({"type": "lead", "id": "l-2", "created_at": "yesterday"}),
        json.dumps({"type": "lead", "id": "l-3", "created_at": at}),
        json.dumps({"type": "touch", "id": "t-1", "lead": "l-1", "at": at}),
        json.dumps({"type": "touch", "id": "t-2", "lead": "l-2", "at": at}),
        json.dumps({"type": "touch", "id": "t-3", "lead": "l-3", "at": at}),
        json.dumps({"type": "call", "id": "c-1", "lead": "l-9", "scheduled_for": at}),
    ]
    found = importer.records_check(workspace=ws, lines=lines, by_role="owner")
    assert [(error.line, error.field) for error in found] == [
        (2, "created_at"),
        (5, "lead"),
        (7, "lead"),
    ]
    assert "No lead with id 'l-2'" in found[1].message
    # Nothing was written, and nothing audited.
    assert not Lead.objects.filter(workspace=ws).exists()
    assert not AuditEvent.objects.filter(workspace=ws).exists()
