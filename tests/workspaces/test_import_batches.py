"""The import writes a run of one type's new records at once: the same records, kept values
and events as writing them line by line, in a number of statements that does not grow with
the file."""

import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Event
from workspaces import importer
from workspaces.importer import ImportLineError, records_check, records_import
from workspaces.models import (
    Call,
    Instalment,
    Lead,
    Member,
    Outcome,
    Payment,
    Refund,
    Sale,
    UtmTags,
)

AT = "2026-10-{:02d}T{:02d}:00:00Z"


def history(leads: int) -> list[str]:
    """A team's file: members, leads (three UTM combinations, a setter named by email),
    touches, calls (one replacing a later call, one cancelled, offers made), outcomes of
    calls and of a past call, sales with and without a call and instalments, payments and
    a refund."""
    lines = [
        {"type": "member", "id": "m-c", "email": "closer@x.io", "role": "closer"},
        {"type": "member", "id": "m-s", "email": "setter@x.io", "role": "setter"},
    ]
    for n in range(leads):
        day = 1 + n % 27
        lines.append(
            {
                "type": "lead",
                "id": f"l{n}",
                "name": f"Lead {n}",
                "email": f"l{n}@x.io",
                "created_at": AT.format(day, 9),
                "utm_source": ("yt", "ig", "fb")[n % 3],
                "utm_campaign": "spring" if n % 2 else "",
                "setter": "setter@x.io" if n % 5 == 0 else "m-s",
            }
        )
        lines.append(
            {
                "type": "touch",
                "id": f"t{n}",
                "lead": f"l{n}",
                "at": AT.format(day, 10),
                "member": "m-s",
            }
        )
        call = {
            "type": "call",
            "id": f"c{n}",
            "lead": f"l{n}",
            "scheduled_for": AT.format(day, 15),
            "closer": "m-c",
            "attendance": "showed" if n % 3 else "no_show",
        }
        if n % 7 == 3:
            call["status"] = "cancelled"
        if n % 4 == 1:
            call["offer_made"] = True
        if n % 9 == 2 and n + 1 < leads:
            call["rescheduled_from"] = f"c{n + 1}"
        lines.append(call)
        if n % 2 == 0:
            lines.append(
                {
                    "type": "outcome",
                    "id": f"o{n}",
                    "call": f"c{n}",
                    "result": "closed" if n % 4 == 0 else "no_sale",
                    "at": AT.format(day, 16),
                    "reason": "" if n % 4 == 0 else "price",
                }
            )
        if n % 4 == 0:
            sale = {
                "type": "sale",
                "id": f"s{n}",
                "closed_at": AT.format(day, 16),
                "contract_value": "3000.00",
            }
            if n % 8 == 0:
                sale.update(
                    call=f"c{n}", instalments=[{"due_date": "2026-11-01", "amount": "1500.00"}]
                )
            else:
                sale.update(lead=f"l{n}", payment_plan="paid_in_full")
            lines.append(sale)
            lines.append(
                {
                    "type": "payment",
                    "id": f"p{n}",
                    "sale": f"s{n}",
                    "paid_at": AT.format(day, 17),
                    "amount": "1500.00",
                }
            )
    lines.append(
        {
            "type": "outcome",
            "id": "o-past",
            "lead": "l1",
            "result": "closed",
            "at": AT.format(2, 18),
        }
    )
    lines.append(
        {"type": "refund", "id": "r0", "payment": "p0", "at": AT.format(3, 9), "amount": "100.00"}
    )
    return [json.dumps(line) for line in lines]


MODELS = (Lead, Call, Outcome, Sale, Payment, Refund)


def snapshot(workspace) -> dict:
    """Every record, kept value and event of the workspace, with each record's id written
    as its external id (a member's as their email), so two imports compare."""
    names = {m.pk: m.email for m in Member.objects.filter(workspace=workspace)}
    for model in MODELS:
        names.update(model.objects.filter(workspace=workspace).values_list("pk", "external_id"))

    def named(value):
        if isinstance(value, uuid.UUID):
            return names.get(value, "?")
        if isinstance(value, str) and len(value) == 36:
            try:
                return names.get(uuid.UUID(value), value)
            except ValueError:
                return value
        if isinstance(value, dict):
            return {key: named(item) for key, item in value.items()}
        return value

    tags = {
        row[0]: row[1:]
        for row in UtmTags.objects.filter(workspace=workspace).values_list(
            "pk", "source", "medium", "campaign", "content"
        )
    }
    state = {}
    for model in MODELS:
        rows = model.objects.filter(workspace=workspace).values()
        state[model.__name__] = sorted(
            (
                {
                    key: tags[value] if key == "utm_tags_id" else named(value)
                    for key, value in row.items()
                    if key not in ("id", "workspace_id")
                }
                for row in rows
            ),
            key=lambda row: row["external_id"],
        )
    state["Instalment"] = sorted(
        (named(sale), due, amount)
        for sale, due, amount in Instalment.objects.filter(sale__workspace=workspace).values_list(
            "sale_id", "due_date", "amount"
        )
    )
    state["events"] = [
        (event.type, named(event.data))
        for event in Event.objects.filter(workspace_id=workspace.pk).order_by("seq")
    ]
    return state


@pytest.mark.django_db
def test_runs_written_at_once_equal_lines_written_one_by_one(make_workspace, monkeypatch):
    lines = history(40)
    at_once = make_workspace(currency="USD")
    records_import(workspace=at_once, lines=lines, by_role="owner")
    monkeypatch.setattr(importer, "CHUNK_LINES", 1)
    one_by_one = make_workspace(currency="USD")
    records_import(workspace=one_by_one, lines=lines, by_role="owner")

    expected = snapshot(one_by_one)
    assert snapshot(at_once) == expected
    # What the comparison covers is there: kept values and the events of every type.
    assert Lead.objects.filter(workspace=at_once, has_sale=True).count() == 10
    assert Call.objects.filter(workspace=at_once, replaced=True).count() == 5
    assert Call.objects.filter(workspace=at_once, outcome="closed").count() == 10
    assert Sale.objects.get(workspace=at_once, external_id="s0").cash_collected == 150000
    assert Lead.objects.get(workspace=at_once, external_id="l0").first_contact_at is not None
    assert {event_type for event_type, _data in expected["events"]} == {
        "member.added",
        "lead.created",
        "call.booked",
        "call.cancelled",
        "call.rescheduled",
        "call.outcome_recorded",
        "sale.closed",
        "payment.succeeded",
        "payment.refunded",
    }
    # 2 members, 40 leads; 34 calls booked, 6 cancelled, 5 replacing another; 21 outcomes; 10 sales,
    # 10 payments, a refund.
    assert len(expected["events"]) == 2 + 40 + 34 + 6 + 5 + 21 + 10 + 10 + 1


@pytest.mark.django_db
def test_the_statements_of_an_import_do_not_grow_with_its_records(make_workspace):
    def statements(leads: int) -> int:
        workspace = make_workspace(currency="USD")
        with CaptureQueriesContext(connection) as queries:
            records_import(workspace=workspace, lines=history(leads), by_role="owner")
        return len(queries)

    # Touches are written a line at a time (a look-up and an insert each), and a call is
    # pointed at the call it replaces with an update and its event (5 such calls in 40
    # leads, 2 in 20); the rest of a type's lines a run at a time. (Small runs: SQLite
    # splits an insert of more than 999 values.)
    small, large = statements(20), statements(40)
    assert large - small == 20 * 2 + (5 - 2) * 2


@pytest.mark.django_db
def test_a_file_imported_again_updates_its_records_and_adds_none(make_workspace):
    workspace = make_workspace(currency="USD")
    lines = history(12)
    records_import(workspace=workspace, lines=lines, by_role="owner")
    before = snapshot(workspace)
    changed = [line.replace('"Lead 3"', '"Lead three"') for line in lines]
    result = records_import(workspace=workspace, lines=changed, by_role="owner")

    assert result.counts["lead"] == {"created": 0, "updated": 12}
    after = snapshot(workspace)
    assert [row["name"] for row in after["Lead"] if row["external_id"] == "l3"] == ["Lead three"]
    assert len(after["Lead"]) == len(before["Lead"]) == 12
    assert after["events"][len(before["events"]) :] == [
        ("lead.updated", next(d for t, d in after["events"] if t == "lead.updated"))
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("chunk", [1, 3, 500])
def test_a_refused_line_in_a_run_is_named_as_line_by_line(make_workspace, monkeypatch, chunk):
    monkeypatch.setattr(importer, "CHUNK_LINES", chunk)
    workspace = make_workspace(currency="USD")
    lines = history(6)
    # The fifth call names a lead the file does not hold; the second outcome a bad result;
    # a sale's id is given twice (the second line updates the first record).
    lines = [
        line.replace('"lead": "l4", "scheduled_for"', '"lead": "l-none", "scheduled_for"')
        for line in lines
    ]
    lines = [line.replace('"result": "no_sale"', '"result": "maybe"') for line in lines]
    lines.append(
        json.dumps(
            {
                "type": "sale",
                "id": "s0",
                "lead": "l0",
                "closed_at": AT.format(1, 18),
                "contract_value": "10",
            }
        )
    )
    with pytest.raises(ImportLineError) as refused:
        records_import(workspace=workspace, lines=lines, by_role="owner")
    call_line = next(n for n, line in enumerate(lines, 1) if '"l-none"' in line)
    assert (refused.value.line, refused.value.field) == (call_line, "lead")
    assert not Lead.objects.filter(workspace=workspace).exists()

    found = records_check(workspace=workspace, lines=lines, by_role="owner")
    outcome_line = next(n for n, line in enumerate(lines, 1) if '"maybe"' in line)
    # The outcome of the refused call is refused too, naming its call.
    refused_outcome = next(
        n for n, line in enumerate(lines, 1) if '"call": "c4"' in line and '"outcome"' in line
    )
    assert sorted((error.line, error.field) for error in found) == sorted(
        [(call_line, "lead"), (outcome_line, "result"), (refused_outcome, "call")]
    )
    assert not Event.objects.filter(workspace_id=workspace.pk).exists()
