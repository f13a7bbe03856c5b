"""One parser and one formatter of instants, one "today" of a workspace, one id parser:
`core/times.py` reads instants given as text (`instant_parse`, `parse_iso`, a form's
datetime-local value) and writes them for the answers (`utc_iso`), and holds the
workspace's today (`local_today`); `core/display.py` writes them for the pages; `core/ids.py`
reads ids (`parse_uuid`). No other module of the project does any of it by hand.
"""

import ast
from pathlib import Path

from tests.apps import PROJECT_APPS

ROOT = Path(__file__).resolve().parents[2]
APPS = PROJECT_APPS
TIMES, DISPLAY, IDS = "core/times.py", "core/display.py", "core/ids.py"
# Each form, the modules that own it.
OWNERS = {
    "datetime.fromisoformat": {TIMES},
    "parse_datetime": {TIMES},
    # A date-time field's own formats: its own parser of the instant a person typed.
    "input_formats": set(),
    "strptime": {TIMES},
    "strftime": {TIMES, DISPLAY},
    "isoformat() rewritten": {TIMES},
    "a today": {TIMES},
    "uuid.UUID": {IDS},
}
EXCEPTIONS = {
    # Calendly's API takes its own form of a time (microseconds always written).
    ("integrations/calendly/backfill.py", "strftime"),
    # The records pages' cursor and member filters read their ids by hand.
    ("dashboard/records.py", "uuid.UUID"),
    ("dashboard/lists.py", "uuid.UUID"),
    # A connect link's connection id is derived from the link's (uuid5), and an allocated
    # id read back from its signed text.
    ("integrations/connections.py", "uuid.UUID"),
}


def _name(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _is_now(node: ast.AST) -> bool:
    """`now`, or a call of something's `now()`."""
    if _name(node) == "now":
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "now"
    )


def _method(node: ast.AST) -> tuple[str | None, ast.AST | None]:
    """(method, receiver) of a call `receiver.method(...)`; (None, None) otherwise."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr, node.func.value
    return None, None


def _a_today(node: ast.AST) -> bool:
    """A function named for a today, or now.astimezone(zone).date() for a zone not UTC."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return "today" in node.name
    method, receiver = _method(node)
    inner, moment = _method(receiver)
    return (
        method == "date"
        and inner == "astimezone"
        and _is_now(moment)
        and not (receiver.args and _name(receiver.args[0]) == "UTC")
    )


def _isoformat_rewritten(node: ast.AST) -> bool:
    """moment.isoformat().replace(...) or moment.isoformat() + "Z": utc_iso by hand."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _method(node.left)[0] == "isoformat"
    method, receiver = _method(node)
    return method == "replace" and _method(receiver)[0] == "isoformat"


def _form(node: ast.AST) -> str | None:
    """Which of the owned forms a node is, if any."""
    if _a_today(node):
        return "a today"
    if _isoformat_rewritten(node):
        return "isoformat() rewritten"
    if isinstance(node, ast.Call) and _name(node.func) == "UUID":
        return "uuid.UUID"
    if (
        isinstance(node, ast.Call)
        and (_name(node.func) or getattr(node.func, "attr", "")) == "DateTimeField"
        and any(k.arg == "input_formats" for k in node.keywords)
    ):
        return "input_formats"
    if isinstance(node, ast.Call) and _name(node.func) == "parse_datetime":
        return "parse_datetime"  # Django's dateparse: its own reading of an instant
    method, receiver = _method(node)
    if method == "fromisoformat" and _name(receiver) == "datetime":
        return "datetime.fromisoformat"
    if method == "parse_datetime":
        return "parse_datetime"
    if method in ("strptime", "strftime"):
        return method
    if method == "UUID" and _name(receiver) == "uuid":
        return "uuid.UUID"
    return None


def forms_outside_their_owners(root: Path = ROOT) -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = str(path.relative_to(root))
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), relative)):
                form = _form(node)
                if form is None or relative in OWNERS[form] or (relative, form) in EXCEPTIONS:
                    continue
                found.append(f"{relative}:{node.lineno} {form}")
    return sorted(found)


def test_instants_todays_and_ids_are_read_and_written_by_their_owners():
    assert forms_outside_their_owners() == []


def test_the_exceptions_are_still_needed():
    for relative, form in EXCEPTIONS:
        tree = ast.parse((ROOT / relative).read_text())
        assert any(_form(node) == form for node in ast.walk(tree)), (relative, form)


def test_the_check_sees_each_form(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "probe.py").write_text(
        "import uuid\n"
        "from datetime import UTC, date, datetime\n"
        "from uuid import UUID\n"
        "a = datetime.fromisoformat(text)\n"
        "b = datetime.strptime(text, '%Y')\n"
        "c = moment.strftime('%H:%M')\n"
        "d = moment.isoformat().replace('+00:00', 'Z')\n"
        "e = moment.isoformat() + 'Z'\n"
        "def workspace_today(w):\n"
        "    return timezone.now().astimezone(zone).date()\n"
        "f = uuid.UUID(text)\n"
        "g = UUID(text)\n"
        "# what the owners' callers write instead, and what is no instant:\n"
        "h = date.fromisoformat(text)\n"
        "i = day.isoformat()\n"
        "j = now.astimezone(UTC).date()\n"
        "k = uuid.uuid4()\n"
        "m = parse_datetime(text)\n"
        "n = dateparse.parse_datetime(text)\n"
        "o = forms.DateTimeField(input_formats=['%Y-%m-%dT%H:%M'])\n"
    )
    assert forms_outside_their_owners(tmp_path) == [
        "figures/probe.py:10 a today",
        "figures/probe.py:11 uuid.UUID",
        "figures/probe.py:12 uuid.UUID",
        "figures/probe.py:18 parse_datetime",
        "figures/probe.py:19 parse_datetime",
        "figures/probe.py:20 input_formats",
        "figures/probe.py:4 datetime.fromisoformat",
        "figures/probe.py:5 strptime",
        "figures/probe.py:6 strftime",
        "figures/probe.py:7 isoformat() rewritten",
        "figures/probe.py:8 isoformat() rewritten",
        "figures/probe.py:9 a today",
    ]
