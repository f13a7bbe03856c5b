"""How the figure pages write a Field: its value, or a dash and the reason it is null.

Every shown figure carries the API address that answers it (data-api), where in that
answer it sits (data-path) and the answered value (data-value), so the number on the page
can be checked against the API.
"""

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


def _number(value) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


@register.filter
def figure_text(field: dict) -> str:
    """1,234 · 1,234.50 USD · 42.3%; a dash for null."""
    value = field["value"]
    if value is None:
        return "—"
    if field["unit"] == "rate":
        return f"{value * 100:.1f}%"
    if field["unit"] == "money":
        return f"{_number(value)} {field.get('currency', '')}".strip()
    return _number(value)


@register.simple_tag
def figure(field: dict, api: str = "", path: str = "", tag: str = "span"):
    """The figure as text with its source attributes; a null one shows its reason."""
    value = json.dumps(field["value"])
    if field["value"] is None:
        reason = (field.get("unavailable") or {}).get("reason", "")
        return format_html(
            '<{} class="figure null" data-metric="{}" data-api="{}" data-path="{}" '
            'data-value="{}"><span aria-hidden="true">—</span> '
            '<span class="why">{}</span></{}>',
            tag, field["metric"], api, path, value, reason, tag,
        )  # fmt: skip
    return format_html(
        '<{} class="figure" data-metric="{}" data-api="{}" data-path="{}" data-value="{}">'
        "{}</{}>",
        tag, field["metric"], api, path, value, figure_text(field), tag,
    )  # fmt: skip


@register.filter
def change_text(change) -> str:
    if change is None:
        return ""
    difference = change["difference"]
    sign = "+" if difference > 0 else ("−" if difference < 0 else "±")  # noqa: RUF001 (a minus sign)
    magnitude = abs(difference)
    if change["unit"] == "pp":
        return f"{sign}{magnitude:.1f} pp"
    text = f"{sign}{_number(magnitude)}"
    if change["relative"] is not None:
        minus = "−"  # noqa: RUF001 (the minus sign, U+2212, as pages print it)
        text += f" ({'+' if change['relative'] >= 0 else minus}{abs(change['relative']):.1f}%)"
    return text


@register.filter
def change_class(change) -> str:
    if change is None or change["difference"] == 0:
        return "flat"
    return "up" if change["difference"] > 0 else "down"


@register.simple_tag
def path_of(*parts) -> str:
    """A dotted path into an API answer: {% path_of "data.members" 2 "owed" as p %}."""
    return ".".join(str(part) for part in parts)


@register.filter
def words(value: str) -> str:
    """cash_collected -> cash collected."""
    return str(value).replace("_", " ")


def cells_html(cells) -> str:
    """<td> cells of (field, api, path) triples, built in Python: the long tables of the
    overview (a series per day, attribution, EOD) would cost a template tag per cell."""
    return mark_safe(  # every part is built by format_html
        "".join(f"<td>{figure(field, api, path)}</td>" for field, api, path in cells)
    )


@register.filter
def notes_for(notes, metric: str) -> list:
    """The notes whose subject is this figure's metric id."""
    return [note for note in notes or () if note["subject"] == metric]
