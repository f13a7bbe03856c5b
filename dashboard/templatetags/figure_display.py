"""How the figure pages write a Field: its value, or a dash and the reason it is null.

Every shown figure carries the API address that answers it (data-api), where in that
answer it sits (data-path) and the answered value (data-value), so the number on the page
can be checked against the API.
"""

import json
from html import escape

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import ngettext

from core import display
from figures.registry import (
    AWAITING_OUTCOME,
    CLOSED_FIGURES_DIFFER,
    MULTIPLE_METRICS,
    NEITHER,
    PAGE_DEFINITIONS,
)

register = template.Library()


@register.filter
def figure_text(field: dict, locale: str | None = None) -> str:
    """1,234 · $1,234.50 · 42.3% as the page's locale writes them; a dash for null."""
    value = field["value"]
    if value is None:
        return "—"
    if field.get("metric") in MULTIPLE_METRICS:
        return display.multiple_text(value, locale)
    if field["unit"] == "rate":
        return display.rate_text(value, locale)
    if field["unit"] == "money" and field.get("currency"):
        return display.money_text(value, field["currency"], locale)
    return display.number_text(value, locale)


@register.simple_tag
def figure(field: dict, api: str = "", path: str = "", tag: str = "span", locale=None):
    """The figure as text with its source attributes; a null one shows its reason.

    A page shows a thousand of these: each part is escaped as Django's escape does
    (html.escape of its text), without format_html's per-argument lazy checks."""
    attributes = (
        f'data-metric="{escape(field["metric"])}" data-api="{escape(api)}" '
        f'data-path="{escape(path)}" data-value="{escape(json.dumps(field["value"]))}"'
    )
    tag = escape(tag)
    if field["value"] is None:
        reason = (field.get("unavailable") or {}).get("reason", "")
        return mark_safe(  # every part is escaped above or here
            f'<{tag} class="figure null" {attributes}><span aria-hidden="true">—</span> '
            f'<span class="why">{escape(reason)}</span></{tag}>'
        )
    title = ""
    if field["metric"] in MULTIPLE_METRICS and field.get("numerator") and field.get("denominator"):
        # The multiple's fraction and its sides, for a pointer or a screen reader.
        title = f' title="{escape(_sides_text(field, locale))}"'
    return mark_safe(  # every part is escaped above or here
        f'<{tag} class="figure" {attributes}{title}>{escape(figure_text(field, locale))}</{tag}>'
    )


def _sides_text(field: dict, locale) -> str:
    """The multiple, then "= Cash collected 16,500 / Ad spend 1,200 (a fraction of
    4.2857)": the sides in major units (a rate carries no currency of its own)."""
    currency = field.get("currency")
    numerator, denominator = field["numerator"], field["denominator"]

    def side(part):
        value = part["value"]
        if currency:
            return display.money_text(value, currency, locale)
        return display.number_text(value, locale)

    return (
        f"{figure_text(field, locale)} = {numerator['label']} {side(numerator)} / "
        f"{denominator['label']} {side(denominator)} (a fraction of {field['value']})"
    )


@register.filter
def change_text(change, locale: str | None = None) -> str:
    """+1,000 (+100.0%) for counts and money; +1.5 pp for rates."""
    if change is None:
        return ""
    difference = change["difference"]
    if change["unit"] == "pp":
        return display.points_text(difference, locale)
    if change["unit"] == "multiple":
        return display.multiple_text(difference, locale, signed=True)
    sign = "+" if difference > 0 else (display.MINUS if difference < 0 else "±")
    if change["unit"] == "money" and change.get("currency"):
        magnitude = display.money_text(abs(difference), change["currency"], locale)
    else:
        magnitude = display.number_text(abs(difference), locale)
    text = f"{sign}{magnitude}"
    if change["relative"] is not None:
        relative = change["relative"] / 100
        # The relative change takes the difference's sign, even when it rounds to 0.0%: a
        # fall never reads "+0.0%".
        signed = sign if difference != 0 else "±"
        text += f" ({signed}{display.rate_text(abs(relative), locale)})"
    return text


@register.filter
def change_class(change) -> str:
    """The way the figure moved (up, down, flat) and whether that is good or bad news by the
    metric's direction of better in the registry (neither, for a volume)."""
    if change is None or change["difference"] == 0:
        return "flat"
    moved = "up" if change["difference"] > 0 else "down"
    better = change.get("better", NEITHER)
    if better == NEITHER:
        return f"{moved} neither"
    return f"{moved} {'good' if moved == better else 'bad'}"


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
    return mark_safe(  # every part is escaped by figure()
        "".join(f"<td>{figure(field, api, path)}</td>" for field, api, path in cells)
    )


def linked_cells_html(cells) -> str:
    """<td> cells of (field, api, path, href) quadruples: the figure itself links to the
    records it counts when href is not empty."""
    return mark_safe(  # every part is escaped by figure() or here
        "".join(
            f'<td><a href="{escape(href)}" class="figure-link">{figure(field, api, path)}</a></td>'
            if href
            else f"<td>{figure(field, api, path)}</td>"
            for field, api, path, href in cells
        )
    )


@register.filter
def notes_for(notes, metric: str) -> list:
    """The notes whose subject is this figure's metric id."""
    return [note for note in notes or () if note["subject"] == metric]


# What a page says for a note whose API reason is written for a program (a UTC instant,
# a metric id): its sentence for a person. Other notes' reasons are already sentences.
NOTE_SENTENCES = {
    "period-in-future": "Part of this period is still to come, so its figures can still change.",
}
NOTE_NEXT_STEPS = {
    "no-data-source": "Nothing has fed this yet: connect an integration or import records.",
}


def _awaiting_sentence(reason: str) -> str:
    """The API's "3 call(s) past their start ..." with the count's own plural."""
    count = reason.split(" ", 1)[0]
    if not count.isdigit():
        return reason
    return ngettext(
        "%(count)s call past its start has no attendance recorded; the show rate leaves it out.",
        "%(count)s calls past their start have no attendance recorded; the show rate leaves "
        "them out.",
        int(count),
    ) % {"count": count}


NOTE_WRITERS = {AWAITING_OUTCOME: _awaiting_sentence}


@register.filter
def note_text(note: dict) -> str:
    """A note in words: never its code alone."""
    writer = NOTE_WRITERS.get(note["code"])
    sentence = (
        writer(note["reason"]) if writer else NOTE_SENTENCES.get(note["code"], note["reason"])
    )
    step = NOTE_NEXT_STEPS.get(note["code"])
    return f"{sentence} {step}" if step else sentence


@register.filter
def definition(metric: str) -> str:
    """What a figure counts, from the registry: for the figures that could be confused."""
    return PAGE_DEFINITIONS.get(metric, "")


@register.simple_tag
def closed_figures_differ() -> str:
    return CLOSED_FIGURES_DIFFER


@register.filter
def split(text: str) -> list[str]:
    """The words of a text: {% for key in "taken closed"|split %}."""
    return text.split()


@register.filter
def get(mapping: dict, key: str):
    """A member of a dict by a key held in a variable: {{ row|get:key }}."""
    return mapping[key]
