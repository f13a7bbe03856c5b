"""CSV exports of the pages' lists and tables, streamed as they are written.

Each column is written as the page writes it (dates and times in the workspace's zone,
a time to the second, money and numbers in its locale, core.display; a code in the
page's words, "cash collected" not cash_collected), and a time or an amount has beside it the
value a program reads: an instant in ISO 8601 UTC, an amount in minor units with its
currency, a count or a rate as a number (a rate as a fraction, 0.425 for 42.5%). A text
that would start a spreadsheet formula (=, +, -, @) is written after an apostrophe. The
file is UTF-8 with a byte-order mark, so that Excel opens it as UTF-8.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal

from django.http import StreamingHttpResponse

from core.display import display_activate_workspace, display_reset

from .templatetags.figure_display import figure_text

BOM = "\ufeff"
# A cell a spreadsheet would read as a formula begins with one of these.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value):
    """A text written by people or providers (a name, an email, a campaign), kept from
    being read as a formula by a spreadsheet: an apostrophe before a leading =, +, -, @."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value


class _Line:
    """What csv.writer writes to: each row comes back as its line."""

    def write(self, value: str) -> str:
        return value


def csv_response(*, workspace, name: str, headings: list[str], rows: Iterable[list]):
    """A streamed CSV download: the headings, then each row as the rows are read. The rows
    are written after the view has returned (and the request's display is reset), so the
    stream writes them in the workspace's zone and locale itself."""

    def lines():
        display_activate_workspace(workspace)
        try:
            writer = csv.writer(_Line())
            # UTF-8 with a byte-order mark: Excel then reads the file as UTF-8 (without
            # it, as the machine's legacy code page: "Zoë" becomes "ZoÃ«").
            yield BOM + writer.writerow(headings)
            for row in rows:
                yield writer.writerow(row)
        finally:
            display_reset()

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


def minor_of(value, exponent: int) -> int | None:
    """A money Field's value (major units, as the API answers it) in minor units."""
    if value is None:
        return None
    return int(Decimal(str(value)).scaleb(exponent).to_integral_value())


def field_headings(heading: str, unit: str) -> list[str]:
    """The CSV columns of a figure: as the page writes it, and its value for a program."""
    if unit == "money":
        return [heading, f"{heading} (minor units)", f"{heading} (currency)"]
    if unit == "rate":
        return [heading, f"{heading} (fraction)"]
    return [heading, f"{heading} (number)"]


def field_cells(field: dict | str, exponent: int, unit: str = "") -> list:
    """A figure's columns (field_headings); for words the page writes in its place (a
    str), the words, and no value for a program."""
    if isinstance(field, str):
        return [field, *([""] * (len(field_headings("", unit)) - 1))]
    text = figure_text(field)
    if field["value"] is None:
        reason = (field.get("unavailable") or {}).get("reason", "")
        text = f"— {reason}".strip()
    if field["unit"] == "money":
        return [text, minor_of(field["value"], exponent), field.get("currency") or ""]
    return [text, "" if field["value"] is None else field["value"]]


def table_headings(columns) -> list[str]:
    """columns: (heading, unit) pairs, unit None for a column of text."""
    headings = []
    for heading, unit in columns:
        headings.extend([heading] if unit is None else field_headings(heading, unit))
    return headings


def table_row(columns, cells, exponent: int) -> list:
    row = []
    for (_, unit), cell in zip(columns, cells, strict=True):
        row.extend([text_cell(cell)] if unit is None else field_cells(cell, exponent, unit))
    return row
