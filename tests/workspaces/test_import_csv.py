"""The CSV converter of the Import page: each record type's template as the importer's
lines, times in the workspace's zone, amounts, and a bad cell named by line and column."""

import json

import pytest

from workspaces.import_csv import COLUMNS, columns_of, csv_to_lines, template_csv
from workspaces.importer import IMPORT_TYPES, ImportLineError, records_import
from workspaces.models import Lead, Member, Payment

# Each template's example row, converted in a workspace in Europe/Berlin (CEST in October).
EXPECTED = {
    "member": {
        "type": "member",
        "id": "m-1",
        "name": "Cleo Closer",
        "email": "cleo@example.test",
        "role": "closer",
        "joined_at": "2026-01-05",
    },
    "lead": {
        "type": "lead",
        "id": "l-1",
        "name": "Lee Lead",
        "email": "lee@example.test",
        "created_at": "2026-10-01T09:00:00+02:00",
        "status": "new",
        "utm_source": "youtube",
        "utm_medium": "video",
        "utm_campaign": "autumn",
        "utm_content": "ep-12",
        "phone": "+44 20 7946 0958",
    },
    "touch": {
        "type": "touch",
        "id": "t-1",
        "lead": "l-1",
        "member": "m-2",
        "channel": "phone",
        "at": "2026-10-01T09:07:00+02:00",
    },
    "webinar_event": {
        "type": "webinar_event",
        "id": "w-1",
        "name": "October masterclass",
        "starts_at": "2026-10-10T17:00:00+02:00",
        "pitch_at": "2026-10-10T17:45:00+02:00",
    },
    "registration": {
        "type": "registration",
        "id": "g-1",
        "event": "w-1",
        "lead": "l-1",
        "registered_at": "2026-10-02T08:00:00+02:00",
        "joined_at": "2026-10-10T17:01:00+02:00",
        "left_at": "2026-10-10T18:00:00+02:00",
    },
    "call": {
        "type": "call",
        "id": "c-1",
        "lead": "l-1",
        "booked_at": "2026-10-01T09:10:00+02:00",
        "scheduled_for": "2026-10-03T15:00:00+02:00",
        "closer": "m-1",
        "setter": "m-2",
        "status": "scheduled",
        "attendance": "showed",
    },
    "outcome": {
        "type": "outcome",
        "id": "o-1",
        "call": "c-1",
        "result": "closed",
        "offer_made": True,
        "at": "2026-10-03T16:00:00+02:00",
    },
    "sale": {
        "type": "sale",
        "id": "s-1",
        "lead": "l-1",
        "call": "c-1",
        "origin": "call",
        "closed_at": "2026-10-03T16:00:00+02:00",
        "closer": "m-1",
        "setter": "m-2",
        "contract_value": "3000.00",
    },
    "payment": {
        "type": "payment",
        "id": "p-1",
        "sale": "s-1",
        "paid_at": "2026-10-03T16:05:00+02:00",
        "amount": "1000.00",
        "status": "succeeded",
    },
    "refund": {
        "type": "refund",
        "id": "r-1",
        "payment": "p-1",
        "at": "2026-10-20T10:00:00+02:00",
        "amount": "250.00",
        "kind": "refund",
    },
    "eod": {
        "type": "eod",
        "id": "e-1",
        "member": "m-1",
        "date": "2026-10-03",
        "submitted_at": "2026-10-03T18:00:00+02:00",
        "fields": {"calls_taken": 4, "notes": "good day"},
    },
    "funnel_event": {
        "type": "funnel_event",
        "id": "f-1",
        "lead": "l-1",
        "funnel": "vsl",
        "stage": "opt-in",
        "at": "2026-10-01T09:00:00+02:00",
    },
    "commission_rule": {
        "type": "commission_rule",
        "id": "k-1",
        "member": "m-1",
        "basis": "cash_collected",
        "slot": "closer",
        "rate": "0.1",
    },
    "ad_spend": {
        "type": "ad_spend",
        "id": "yt-autumn-2026-10-01",
        "date": "2026-10-01",
        "platform": "google",
        "amount": "84.20",
        "utm_source": "youtube",
        "utm_medium": "video",
        "utm_campaign": "autumn",
        "clicks": 61,
    },
    "goal": {
        "type": "goal",
        "id": "goal-2026-10-m-1-taken",
        "month": "2026-10",
        "metric": "calls.taken",
        "member": "m-1",
        "target": "20",
    },
}


def test_there_is_a_template_for_each_type_the_importer_reads():
    assert tuple(COLUMNS) == IMPORT_TYPES
    assert template_csv("payment") == (
        "id,sale,paid_at,amount,status\r\np-1,s-1,2026-10-03 16:05,1000.00,succeeded\r\n"
    )


@pytest.mark.parametrize("record_type", IMPORT_TYPES)
def test_each_template_converts_to_the_importers_line(record_type):
    converted = csv_to_lines(
        template_csv(record_type), record_type=record_type, timezone="Europe/Berlin"
    )
    assert converted.errors == []
    assert converted.columns == columns_of(record_type)
    # The header's line is empty: the record keeps its line number, 2.
    assert converted.lines[0] == ""
    assert [json.loads(line) for line in converted.lines[1:]] == [EXPECTED[record_type]]
    assert converted.rows[0][0] == 2


def test_a_time_without_an_offset_is_one_of_the_workspaces_zone_on_that_day():
    text = (
        "id,created_at\n"
        "l-1,2026-10-01 09:00\n"  # summer time in Berlin: +02:00
        "l-2,2026-12-01T09:00\n"  # winter time: +01:00
        "l-3,2026-12-01 09:00:30\n"
        "l-4,2026-12-01T09:00:00Z\n"  # an offset is kept as written
        "l-5,2026-10-25 02:30\n"  # the hour the clocks go back: its first time, summer's
    )
    converted = csv_to_lines(text, record_type="lead", timezone="Europe/Berlin")
    assert converted.errors == []
    assert [json.loads(line)["created_at"] for line in converted.lines[1:]] == [
        "2026-10-01T09:00:00+02:00",
        "2026-12-01T09:00:00+01:00",
        "2026-12-01T09:00:30+01:00",
        "2026-12-01T09:00:00Z",
        "2026-10-25T02:30:00+02:00",
    ]
    new_york = csv_to_lines(text, record_type="lead", timezone="America/New_York")
    assert json.loads(new_york.lines[1])["created_at"] == "2026-10-01T09:00:00-04:00"


def test_money_is_kept_as_the_decimal_written_and_anything_else_is_refused_by_column():
    text = (
        "id,sale,paid_at,amount\n"
        "p-1,s-1,2026-10-03 16:05,1000.00\n"
        "p-2,s-1,2026-10-03 16:05,1000\n"
        'p-3,s-1,2026-10-03 16:05,"1,000.00"\n'
        "p-4,s-1,2026-10-03 16:05,$12\n"
    )
    converted = csv_to_lines(text, record_type="payment", timezone="UTC")
    assert [json.loads(line)["amount"] for line in converted.lines if line] == ["1000.00", "1000"]
    assert [str(error) for error in converted.errors] == [
        "line 4, field 'amount': '1,000.00' is not an amount: write it as 1234.50, with no "
        "currency sign or thousands separator.",
        "line 5, field 'amount': '$12' is not an amount: write it as 1234.50, with no "
        "currency sign or thousands separator.",
    ]


def test_a_bad_cell_is_named_by_its_line_and_column():
    text = (
        "id,lead,booked_at,scheduled_for,offer_made\n"
        "c-1,l-1,2026-03-29 02:30,2026-03-30 10:00,\n"  # skipped by the clocks in Berlin
        "c-2,l-1,2026-03-28,2026-03-30 10:00,\n"
        "c-3,l-1,tomorrow,2026-03-30 10:00,\n"
        "c-4,l-1,2026-03-28 10:00,2026-03-30 10:00,perhaps\n"
        "c-5,l-1,2026-03-28 10:00,2026-03-30 10:00,no,extra\n"
        "c-6,l-1,2026-03-28 10:00,2026-03-30 10:00,yes\n"
    )
    converted = csv_to_lines(text, record_type="call", timezone="Europe/Berlin")
    assert [(e.line, e.field, e.message) for e in converted.errors] == [
        (
            2,
            "booked_at",
            "'2026-03-29 02:30' does not happen in Europe/Berlin: the clocks move forward "
            "past it that day.",
        ),
        (3, "booked_at", "'2026-03-28' is a date: give the time of day too, as 2026-10-01 09:30."),
        (
            4,
            "booked_at",
            "'tomorrow' is not a time: write it as 2026-10-01 09:30 (a time in Europe/Berlin), "
            "or with its offset, 2026-10-01T09:30:00+01:00.",
        ),
        (5, "offer_made", "'perhaps' is not yes or no: write true or false."),
        (6, None, "6 cells, but the header names 5 columns."),
    ]
    # Only the good row is passed on, on its own line; the others are left empty.
    assert converted.lines[:6] == ["", "", "", "", "", ""]
    assert json.loads(converted.lines[6]) == {
        "type": "call",
        "id": "c-6",
        "lead": "l-1",
        "booked_at": "2026-03-28T10:00:00+01:00",
        "scheduled_for": "2026-03-30T10:00:00+02:00",
        "offer_made": True,
    }


def test_a_header_that_is_not_the_templates_is_refused_on_line_1():
    converted = csv_to_lines(
        "name,emial\nLee,lee@example.test\n", record_type="lead", timezone="UTC"
    )
    assert [(e.line, e.field, e.message) for e in converted.errors] == [
        (
            1,
            "emial",
            "not a column of the lead template; its columns are id, name, email, created_at, "
            "status, setter, utm_source, utm_medium, utm_campaign, utm_content, phone, fbclid, "
            "fbc, fbp, gclid, gbraid, wbraid.",
        ),
        (1, "id", "the id column is missing: every record has one."),
    ]
    assert converted.lines == []
    empty = csv_to_lines("\n\n", record_type="lead", timezone="UTC")
    assert [str(e) for e in empty.errors] == [
        "line 1: the file is empty: it needs the template's header row."
    ]


def test_rows_keep_their_line_numbers_across_blank_lines_and_quoted_line_breaks():
    text = (
        "\ufeffid;name;created_at\n"  # a spreadsheet's semicolons and byte-order mark
        "\n"
        'l-1;"Lee\nLead";2026-10-01 09:00\n'
        "l-2;Ann;2026-10-01 10:00\n"
    )
    converted = csv_to_lines(text, record_type="lead", timezone="UTC")
    assert converted.errors == []
    assert [number for number, _cells in converted.rows] == [3, 5]
    # Lines 1, 2 and 4 (the header, a blank line, the quoted cell's second line) are empty.
    assert [converted.lines[i] for i in (0, 1, 3)] == ["", "", ""]
    assert json.loads(converted.lines[2]) == {
        "type": "lead",
        "id": "l-1",
        "name": "Lee\nLead",
        "created_at": "2026-10-01T09:00:00+00:00",
    }
    assert json.loads(converted.lines[4])["id"] == "l-2"


def test_converted_lines_import_and_an_importer_error_names_the_csv_line(make_workspace):
    ws = make_workspace(currency="EUR", timezone="Europe/Berlin")
    members = csv_to_lines(template_csv("member"), record_type="member", timezone=ws.timezone)
    records_import(workspace=ws, by_role="owner", lines=members.lines)
    text = "id,lead,sale,paid_at,amount\np-1,,s-9,2026-10-03 16:05,10.00\n"
    payments = csv_to_lines(text, record_type="payment", timezone=ws.timezone)
    assert [str(e) for e in payments.errors] == [
        "line 1, field 'lead': not a column of the payment template; its columns are id, "
        "sale, paid_at, amount, status."
    ]
    leads = csv_to_lines(
        "id,name,created_at,setter\n\nl-1,Lee,2026-10-01 09:00,m-1\nl-2,Bo,2026-10-01 09:30,m-7\n",
        record_type="lead",
        timezone=ws.timezone,
    )
    with pytest.raises(ImportLineError) as refused:
        records_import(workspace=ws, by_role="owner", lines=leads.lines)
    assert str(refused.value) == (
        "line 4, field 'setter': No member with id 'm-7' in this workspace (import it first)."
    )
    assert Lead.objects.filter(workspace=ws).count() == 0
    assert list(Member.objects.filter(workspace=ws).values_list("external_id", "role")) == [
        ("m-1", "closer")
    ]
    assert Payment.objects.count() == 0
