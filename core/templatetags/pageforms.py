"""How every page form shows what is wrong, in one place.

{% field form.email %} writes a field: its label, its help, its error beside it (red, with
the id `<field id>_error`) and the input, which Django marks `aria-invalid="true"` and
points at its help and error with `aria-describedby`. {% field_error form.percent %} is
the error alone, for a field laid out by hand (a table cell). {% error_summary form %} sums
up every error of the forms given at the top of the page, each linking to its field;
static/js/forms.js moves the focus to the first field in error when the page loads.
"""

from django import template
from django.template.loader import render_to_string

register = template.Library()


def _target(bound) -> str:
    """The id a summary's link moves to: the input itself, or a group's first choice."""
    if bound.id_for_label:
        return bound.id_for_label
    for sub in bound.subwidgets:
        if sub.id_for_label:
            return sub.id_for_label
    return bound.auto_id or ""


def _forms(values):
    for value in values:
        if isinstance(value, list | tuple):
            yield from _forms(value)
        elif value is not None and hasattr(value, "non_field_errors"):
            yield value


def summary_items(*forms) -> list[dict]:
    """Each error of the forms (or lists of forms), in the order of their fields: its text
    and where it is."""
    items = []
    for form in _forms(forms):
        for message in form.non_field_errors():
            items.append({"target": "", "label": "", "message": message})
        for bound in form:
            for message in bound.errors:
                items.append({"target": _target(bound), "label": bound.label, "message": message})
    return items


@register.simple_tag
def error_summary(*forms):
    return render_to_string("forms/_summary.html", {"items": summary_items(*forms)})


@register.simple_tag
def field(bound, label=None, hidden_label=False):
    return render_to_string(
        "forms/_field.html",
        {"field": bound, "label": label or bound.label, "hidden_label": hidden_label},
    )


@register.simple_tag
def field_error(bound):
    return render_to_string("forms/_error.html", {"field": bound})


@register.simple_tag
def errors_summary(errors, fields, prefix="field-"):
    """The summary of a page that checks its fields by hand: `errors` by field name (and
    "form" or a name no field has, for the form as a whole), `fields` with .name and .label;
    each links to the input `<prefix><name>`."""
    errors = errors or {}
    labels = {field.name: field.label for field in fields or []}
    items = [
        {"target": f"{prefix}{name}", "label": labels[name], "message": errors[name]}
        for name in labels
        if name in errors
    ]
    items[:0] = [
        {"target": "", "label": "", "message": message}
        for name, message in errors.items()
        if name not in labels
    ]
    return render_to_string("forms/_summary.html", {"items": items})
