"""Only the writers write the workspaces app's models, and only the events app writes
`events.Event`.

The static half of the rule (tests/writers.py checks every save of a workspaces model
while the suite runs): no module outside the writers calls a writing method of a
workspaces model's manager or queryset, and no module outside the events app calls one of
`events.Event`'s or names its table for a statement of its own.
"""

import ast
from pathlib import Path

import pytest
from django.apps import apps

from tests import writers

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "config",
    "core",
    "workspaces",
    "tokens",
    "audit",
    "integrations",
    "figures",
    "agentapi",
    "agency",
    "dashboard",
    "mcpserver",
    "demo",
    "events",
    "webhooks",
)
WRITE_METHODS = frozenset(
    {
        "create",
        "bulk_create",
        "bulk_update",
        "get_or_create",
        "update_or_create",
        "update",
        "delete",
    }
)


def _model_names() -> set[str]:
    return {model.__name__ for model in apps.get_app_config("workspaces").get_models()}


def _root_name(node: ast.AST) -> str | None:
    """The name a chain of attribute reads and calls starts from (`Lead` in
    `Lead.objects.filter(...).update(...)`)."""
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _chain_has_manager(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute | ast.Call):
        if isinstance(node, ast.Attribute) and node.attr in {"objects", "active"}:
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def writes_outside_the_writers(root: Path = ROOT) -> list[str]:
    names = _model_names()
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = str(path.relative_to(root))
            if relative in writers.WRITERS or relative.startswith(writers.WRITER_PACKAGES):
                continue
            if "/migrations/" in relative:
                continue
            for node in ast.walk(ast.parse(path.read_text(), relative)):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                if node.func.attr not in WRITE_METHODS:
                    continue
                receiver = node.func.value
                if _root_name(receiver) in names and _chain_has_manager(receiver):
                    found.append(f"{relative}:{node.lineno} {node.func.attr}")
    return found


def _event_names(tree: ast.AST) -> set[str]:
    """The names a module binds to `events.models.Event` (`integrations` has an `Event` of
    its own, so the name alone does not say which)."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "events.models"
        for alias in node.names
        if alias.name == "Event"
    }


def _event_writes(tree: ast.AST, names: set[str], relative: str) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "_meta" and _root_name(node) in names:
            found.append(f"{relative}:{node.lineno} _meta")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in WRITE_METHODS
            and _root_name(node.func.value) in names
            and _chain_has_manager(node.func.value)
        ):
            found.append(f"{relative}:{node.lineno} {node.func.attr}")
    return found


def event_writes_outside_events(root: Path = ROOT) -> list[str]:
    found = []
    for app in APPS:
        if app == "events":
            continue
        for path in sorted((root / app).rglob("*.py")):
            relative = str(path.relative_to(root))
            if "/migrations/" in relative:
                continue
            tree = ast.parse(path.read_text(), relative)
            names = _event_names(tree)
            if names:
                found += _event_writes(tree, names, relative)
    return found


def test_only_the_events_app_writes_events():
    assert event_writes_outside_events() == []


def test_the_check_finds_a_write_of_an_event(tmp_path):
    (tmp_path / "webhooks").mkdir()
    (tmp_path / "webhooks" / "probe.py").write_text(
        "from events.models import Event as E\n"
        "E.objects.filter(seq=1).update(dispatched=True)\n"
        "table = E._meta.db_table\n"
    )
    # Another app's model of the same name is not the events app's.
    (tmp_path / "integrations").mkdir()
    (tmp_path / "integrations" / "probe.py").write_text(
        "from .models import Event\nEvent.objects.filter(pk=1).delete()\n"
    )
    assert event_writes_outside_events(tmp_path) == [
        "webhooks/probe.py:2 update",
        "webhooks/probe.py:3 _meta",
    ]


def test_no_module_outside_the_writers_writes_a_workspaces_model():
    assert writes_outside_the_writers() == []


def test_the_check_finds_a_write(tmp_path):
    # The check itself: a module that updates leads by hand is found.
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "probe.py").write_text(
        "from workspaces.models import Lead\nLead.objects.filter(pk=1).update(name='x')\n"
    )
    assert writes_outside_the_writers(tmp_path) == ["demo/probe.py:2 update"]


@pytest.mark.django_db
def test_a_save_outside_the_writers_is_refused_while_the_suite_runs(make_workspace):
    workspace = make_workspace()
    namespace = {"__name__": "probe"}
    code = compile(
        "def rename(w):\n    w.name = 'x'\n    w.save()\n", str(ROOT / "demo" / "probe.py"), "exec"
    )
    exec(code, namespace)
    with pytest.raises(writers.WriteOutsideTheWriters, match=r"demo/probe\.py writes a Workspace"):
        namespace["rename"](workspace)
