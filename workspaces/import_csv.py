"""CSV files of records, one record type a file, as the importer's JSON Lines.

The Import page offers a template per record type (`template_csv`): a header row of the
type's columns, which are the members of its JSON line (docs/import.md), and one example
row. `csv_to_lines` converts a filled one into the lines `records_import` reads, so the
same importer, with the same all-or-nothing rule, imports it. The converter only turns
cells into JSON values; what a value means (a known role, an amount with the currency's
decimals, a record an id names) is the importer's to check, with its messages.

- An empty cell leaves the member out (as an absent member in a JSON line).
- A time without an offset (`2026-10-01 09:30`) is a time of the workspace's zone, written
  with that zone's offset on that day; one with an offset (`...+01:00`, `...Z`) is kept as
  it is. A time that the zone's clocks skip (the hour they move forward) is refused.
- An amount is a plain decimal (`1234.50`): no currency sign, no thousands separators.
- Yes/no columns take `true`, `false`, `yes`, `no`, `1` or `0`; counts whole numbers.
- An EOD report's columns other than its own (`id`, `member`, `date`, `submitted_at`) are
  the report's fields: a whole number is a count, anything else text.

The lines keep the file's line numbers: the JSON line of the record on the CSV's line 7 is
line 7 (the header's and skipped rows' lines are empty, which the importer passes over), so
an error the importer names is on the line a spreadsheet shows.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC
from zoneinfo import ZoneInfo

from core.times import iso_parse

from .importer import IMPORT_TYPES, ImportLineError

TEXT, TIME, DATE, MONEY, YES_NO, COUNT, NUMBER = (
    "text",
    "time",
    "date",
    "money",
    "yes_no",
    "count",
    "number",
)

# Per record type: its columns (after `id`) with their kind, and the template's example.
COLUMNS: dict[str, list[tuple[str, str, str]]] = {
    "member": [
        ("name", TEXT, "Cleo Closer"),
        ("email", TEXT, "cleo@example.test"),
        ("role", TEXT, "closer"),
        ("joined_at", DATE, "2026-01-05"),
    ],
    "lead": [
        ("name", TEXT, "Lee Lead"),
        ("email", TEXT, "lee@example.test"),
        ("created_at", TIME, "2026-10-01 09:00"),
        ("status", TEXT, "new"),
        ("setter", TEXT, ""),
        ("utm_source", TEXT, "youtube"),
        ("utm_medium", TEXT, "video"),
        ("utm_campaign", TEXT, "autumn"),
        ("utm_content", TEXT, "ep-12"),
        ("phone", TEXT, "+44 20 7946 0958"),
        ("fbclid", TEXT, ""),
        ("fbc", TEXT, ""),
        ("fbp", TEXT, ""),
        ("gclid", TEXT, ""),
        ("gbraid", TEXT, ""),
        ("wbraid", TEXT, ""),
    ],
    "touch": [
        ("lead", TEXT, "l-1"),
        ("member", TEXT, "m-2"),
        ("channel", TEXT, "phone"),
        ("at", TIME, "2026-10-01 09:07"),
    ],
    "webinar_event": [
        ("name", TEXT, "October masterclass"),
        ("starts_at", TIME, "2026-10-10 17:00"),
        ("pitch_at", TIME, "2026-10-10 17:45"),
    ],
    "registration": [
        ("event", TEXT, "w-1"),
        ("lead", TEXT, "l-1"),
        ("registered_at", TIME, "2026-10-02 08:00"),
        ("joined_at", TIME, "2026-10-10 17:01"),
        ("left_at", TIME, "2026-10-10 18:00"),
    ],
    "call": [
        ("lead", TEXT, "l-1"),
        ("booked_at", TIME, "2026-10-01 09:10"),
        ("scheduled_for", TIME, "2026-10-03 15:00"),
        ("closer", TEXT, "m-1"),
        ("setter", TEXT, "m-2"),
        ("status", TEXT, "scheduled"),
        ("rescheduled_from", TEXT, ""),
        ("attendance", TEXT, "showed"),
        ("offer_made", YES_NO, ""),
    ],
    "outcome": [
        ("call", TEXT, "c-1"),
        ("lead", TEXT, ""),
        ("member", TEXT, ""),
        ("result", TEXT, "closed"),
        ("offer_made", YES_NO, "yes"),
        ("reason", TEXT, ""),
        ("notes", TEXT, ""),
        ("at", TIME, "2026-10-03 16:00"),
    ],
    "sale": [
        ("lead", TEXT, "l-1"),
        ("call", TEXT, "c-1"),
        ("origin", TEXT, "call"),
        ("closed_at", TIME, "2026-10-03 16:00"),
        ("closer", TEXT, "m-1"),
        ("setter", TEXT, "m-2"),
        ("contract_value", MONEY, "3000.00"),
        ("payment_plan", TEXT, ""),
    ],
    "payment": [
        ("sale", TEXT, "s-1"),
        ("paid_at", TIME, "2026-10-03 16:05"),
        ("amount", MONEY, "1000.00"),
        ("status", TEXT, "succeeded"),
    ],
    "refund": [
        ("payment", TEXT, "p-1"),
        ("at", TIME, "2026-10-20 10:00"),
        ("amount", MONEY, "250.00"),
        ("kind", TEXT, "refund"),
    ],
    "eod": [
        ("member", TEXT, "m-1"),
        ("date", DATE, "2026-10-03"),
        ("submitted_at", TIME, "2026-10-03 18:00"),
        ("calls_taken", NUMBER, "4"),
        ("notes", NUMBER, "good day"),
    ],
    "funnel_event": [
        ("lead", TEXT, "l-1"),
        ("funnel", TEXT, "vsl"),
        ("stage", TEXT, "opt-in"),
        ("at", TIME, "2026-10-01 09:00"),
    ],
    "commission_rule": [
        ("member", TEXT, "m-1"),
        ("basis", TEXT, "cash_collected"),
        ("slot", TEXT, "closer"),
        ("rate", TEXT, "0.1"),
    ],
    "ad_spend": [
        ("date", DATE, "2026-10-01"),
        ("platform", TEXT, "google"),
        ("amount", MONEY, "84.20"),
        ("utm_source", TEXT, "youtube"),
        ("utm_medium", TEXT, "video"),
        ("utm_campaign", TEXT, "autumn"),
        ("utm_content", TEXT, ""),
        ("campaign_id", TEXT, ""),
        ("campaign_name", TEXT, ""),
        ("impressions", COUNT, ""),
        ("clicks", COUNT, "61"),
    ],
    "goal": [
        ("month", TEXT, "2026-10"),
        ("metric", TEXT, "calls.taken"),
        ("member", TEXT, "m-1"),
        ("target", MONEY, "20"),
    ],
}
assert tuple(COLUMNS) == IMPORT_TYPES, "a template for each type the importer reads"

EXAMPLE_IDS = {
    "member": "m-1",
    "lead": "l-1",
    "touch": "t-1",
    "webinar_event": "w-1",
    "registration": "g-1",
    "call": "c-1",
    "outcome": "o-1",
    "sale": "s-1",
    "payment": "p-1",
    "refund": "r-1",
    "eod": "e-1",
    "funnel_event": "f-1",
    "commission_rule": "k-1",
    "ad_spend": "yt-autumn-2026-10-01",
    "goal": "goal-2026-10-m-1-taken",
}

# An EOD report's own columns; the others are its fields.
EOD_OWN = frozenset({"id", "member", "date", "submitted_at"})

_AMOUNT = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_WHOLE = re.compile(r"-?[0-9]+")
_YES = frozenset({"true", "yes", "1"})
_NO = frozenset({"false", "no", "0"})


def columns_of(record_type: str) -> list[str]:
    return ["id"] + [name for name, _kind, _example in COLUMNS[record_type]]


def template_csv(record_type: str) -> str:
    """The template of a record type: its header and one example row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns_of(record_type))
    writer.writerow(
        [EXAMPLE_IDS[record_type]] + [example for _name, _kind, example in COLUMNS[record_type]]
    )
    return out.getvalue()


@dataclass
class Converted:
    """The lines for the importer (numbered as the file's lines), the rows as read (line
    number, cells) for a preview, and the cells that could not be converted."""

    columns: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    errors: list[ImportLineError] = field(default_factory=list)


class _CellInvalid(Exception):
    pass


def _time(text: str, tz: ZoneInfo) -> str:
    moment = iso_parse(text)
    if moment is None:
        raise _CellInvalid(
            f"{text!r} is not a time: write it as 2026-10-01 09:30 (a time in {tz.key}), "
            "or with its offset, 2026-10-01T09:30:00+01:00."
        )
    if len(text) <= 10:
        raise _CellInvalid(f"{text!r} is a date: give the time of day too, as 2026-10-01 09:30.")
    if moment.tzinfo is not None:
        return text
    local = moment.replace(tzinfo=tz)
    # A wall time the zone's clocks skip comes back from UTC as another wall time.
    if local.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != moment:
        raise _CellInvalid(
            f"{text!r} does not happen in {tz.key}: the clocks move forward past it that day."
        )
    return local.isoformat()


def _money(text: str) -> str:
    if not _AMOUNT.fullmatch(text):
        raise _CellInvalid(
            f"{text!r} is not an amount: write it as 1234.50, with no currency sign or "
            "thousands separator."
        )
    return text


def _yes_no(text: str) -> bool:
    word = text.lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise _CellInvalid(f"{text!r} is not yes or no: write true or false.")


def _count(text: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise _CellInvalid(f"{text!r} is not a whole number.")
    return int(text)


def _number_or_text(text: str):
    return int(text) if _WHOLE.fullmatch(text) else text


def _cell(kind: str, text: str, tz: ZoneInfo):
    if kind == TIME:
        return _time(text, tz)
    if kind == MONEY:
        return _money(text)
    if kind == YES_NO:
        return _yes_no(text)
    if kind == COUNT:
        return _count(text)
    return text


def _header_check(record_type: str, header: list[str]) -> list[ImportLineError]:
    known = columns_of(record_type)
    errors = []
    seen = set()
    for name in header:
        if name in seen:
            errors.append(ImportLineError(1, name, "this column is named twice."))
        seen.add(name)
        if record_type != "eod" and name not in known:
            errors.append(
                ImportLineError(
                    1,
                    name,
                    f"not a column of the {record_type} template; its columns are "
                    f"{', '.join(known)}.",
                )
            )
    if "id" not in header:
        errors.append(ImportLineError(1, "id", "the id column is missing: every record has one."))
    return errors


def _record(record_type, header, cells, kinds, tz) -> tuple[dict, str | None, str | None]:
    """The row as a JSON line's members; or the first column that cannot be converted."""
    record = {"type": record_type}
    fields = {}
    for name, raw in zip(header, cells, strict=False):
        text = raw.strip()
        if not text:
            continue
        if record_type == "eod" and name not in EOD_OWN:
            fields[name] = _number_or_text(text)
            continue
        try:
            record[name] = _cell(kinds.get(name, TEXT), text, tz)
        except _CellInvalid as error:
            return record, name, str(error)
    if fields:
        record["fields"] = fields
    return record, None, None


def _rows_read(reader, converted: Converted):
    """The reader's rows; a row the csv module cannot read (a cell over its field limit)
    ends the file with an error naming its line, as nothing after it can be trusted."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            line = reader.line_num
            limit = csv.field_size_limit()
            said = (
                f"a cell holds more than {limit:,} characters; shorten it."
                if "field limit" in str(error)
                else f"this row cannot be read as CSV ({error})."
            )
            converted.errors.append(ImportLineError(line, None, said))
            return


def csv_to_lines(text: str, *, record_type: str, timezone: str) -> Converted:
    """A CSV file of one record type (its template's columns, in any order) as the
    importer's lines, each on the line number of its row."""
    if record_type not in COLUMNS:
        raise ValueError(f"no CSV template for {record_type!r}")
    tz = ZoneInfo(timezone)
    kinds = {"id": TEXT, **{name: kind for name, kind, _example in COLUMNS[record_type]}}
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    converted = Converted()
    header = None
    previous_end = 0
    for cells in _rows_read(reader, converted):
        start, previous_end = previous_end + 1, reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        if header is None:
            header = [cell.strip() for cell in cells]
            converted.columns = header
            converted.errors += _header_check(record_type, header)
            if converted.errors:
                return converted
            continue
        converted.rows.append((start, cells))
        if len(cells) > len(header):
            converted.errors.append(
                ImportLineError(
                    start,
                    None,
                    f"{len(cells)} cells, but the header names {len(header)} columns.",
                )
            )
            continue
        record, column, message = _record(record_type, header, cells, kinds, tz)
        if column is not None:
            converted.errors.append(ImportLineError(start, column, message))
            continue
        converted.lines += [""] * (start - 1 - len(converted.lines))
        converted.lines.append(json.dumps(record, ensure_ascii=False))
    if header is None:
        converted.errors.append(
            ImportLineError(1, None, "the file is empty: it needs the template's header row.")
        )
    return converted
