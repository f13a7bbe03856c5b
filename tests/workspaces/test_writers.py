"""Each table is written by its owner only (tests/writers.py names them): the workspaces
app's records by their writers, `events.Event` by the events app, and so on for every
table of the project.

The static half of the rule (tests/writers.py checks every write while the suite runs):
no module of any app calls a writing method on a table it does not own, whether through
the model's manager (`Lead.objects.filter(...).update(...)`), a queryset or row held in a
variable (`rows = Lead.objects.filter(...)`, then `rows.update(...)` or, for a row,
`row.save()`), a row made by calling its model and saved (`Lead(...).save()`, or
`lead = Lead(...)` then `lead.save()`; a model bound to a name, `User = get_user_model()`,
is followed too), or a related manager (`lead.calls.create(...)`), or a raw statement: a
`cursor.execute(...)` or `executemany(...)` whose text (a string, an f-string, a sum of
them, or a name bound to one in the function or the module) has an INSERT INTO, UPDATE or
DELETE FROM of a table (named in the text, or by a model's `_meta.db_table` in an
f-string; a table the check cannot tell is reported as "?"); and no module outside the
events app names `events.Event`'s table for a statement of its own.

Raw SQL out of the check: the migrations', and the triggers' definitions in
figures/triggers.py (what a trigger runs is the database's, in the transaction of the row's
own writer).
"""

import ast
import functools
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

from tests import writers
from tests.apps import PROJECT_APPS

ROOT = Path(__file__).resolve().parents[2]
APPS = PROJECT_APPS
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
# What else writes through a related manager, and through a row held in a variable.
RELATED_WRITES = frozenset({"add", "remove", "set", "clear"})
ROW_WRITES = frozenset({"save"})
MANAGERS = frozenset({"objects", "active", "_default_manager", "_base_manager"})
RAW_EXECUTES = frozenset({"execute", "executemany"})
# A raw statement's target: INSERT INTO t, UPDATE t, DELETE FROM t (a value the check puts
# in the text for a table it found named by a model's _meta is between ⟦ and ⟧).
RAW_WRITE = re.compile(
    r"\b(INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+(⟦[^⟧]*⟧|[\"`]?[\w.]+[\"`]?)",
    re.IGNORECASE,
)
# Raw SQL out of the static check: the migrations' and the triggers' definitions (the
# statements a trigger runs are the database's, written in the transaction of the row's
# own writer).
RAW_OUTSIDE = ("figures/triggers.py",)
# The functions that answer a swappable model (module, name) → the setting naming it.
MODEL_GETTERS = {
    ("django.contrib.auth", "get_user_model"): "AUTH_USER_MODEL",
    ("oauth2_provider.models", "get_application_model"): "OAUTH2_PROVIDER_APPLICATION_MODEL",
    ("oauth2_provider.models", "get_access_token_model"): "OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL",
    ("oauth2_provider.models", "get_refresh_token_model"): "OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL",
    ("oauth2_provider.models", "get_id_token_model"): "OAUTH2_PROVIDER_ID_TOKEN_MODEL",
    ("oauth2_provider.models", "get_grant_model"): "OAUTH2_PROVIDER_GRANT_MODEL",
}


def _models() -> dict[tuple[str, str], str]:
    """(module, class name) → label, for every table that has an owner."""
    return {
        (model.__module__, model.__name__): model._meta.label for model in writers.owned_models()
    }


@functools.cache
def _tables_by_name() -> dict[str, str]:
    """A table's name (lower case) → the label of its model, for every table that has an
    owner."""
    return {model._meta.db_table.lower(): model._meta.label for model in writers.owned_models()}


def _constants(tree: ast.Module) -> dict[str, ast.AST]:
    """The module's own names bound once at its top level (a statement's text kept in a
    constant)."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        target, value = (
            _binding(node) if isinstance(node, ast.Assign | ast.AnnAssign) else (None, None)
        )
        if isinstance(target, ast.Name) and value is not None:
            found[target.id] = value
    return found


def _accessors() -> dict[str, set[str]]:
    """A related manager's attribute name → the labels of the tables it may write."""
    owned = {model._meta.label for model in writers.owned_models()}
    found: dict[str, set[str]] = {}
    for model in apps.get_models():
        for relation in model._meta.related_objects:
            # A many-to-many relation writes its through table.
            through = relation.through if relation.many_to_many else relation.related_model
            if through._meta.label in owned:
                found.setdefault(relation.get_accessor_name(), set()).add(through._meta.label)
        for field in model._meta.many_to_many:
            label = field.remote_field.through._meta.label
            if label in owned:
                found.setdefault(field.name, set()).add(label)
    return found


def _module_of(relative: str) -> str:
    return relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _model_names(tree: ast.AST, relative: str, models: dict) -> dict[str, str]:
    """The names a module binds to a table's model (by its imports, or its own classes
    for a models module): name → label. Two apps may have models of the same name
    (`integrations.Event`, `events.Event`): the import says which."""
    module = _module_of(relative)
    package = module if relative.endswith("__init__.py") else module.rpartition(".")[0]
    names = {name: label for (defined, name), label in models.items() if defined == module}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = node.module or ""
        if node.level:
            base = package.split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join([*base, source] if source else base)
        for alias in node.names:
            label = models.get((source, alias.name))
            if label is not None:
                names[alias.asname or alias.name] = label
    return names


def _getter_names(tree: ast.AST) -> dict[str, str]:
    """The names a module binds to a function that answers a model (`get_user_model`):
    name → label."""
    getters = _getters()
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                label = getters.get((node.module or "", alias.name))
                if label is not None:
                    names[alias.asname or alias.name] = label
    return names


@functools.cache
def _getters() -> dict[tuple[str, str], str]:
    """(module, function) → label, for the functions that answer a swappable model."""
    owned = {model._meta.label for model in writers.owned_models()}
    found = {}
    for (module, function), setting in MODEL_GETTERS.items():
        label = apps.get_model(getattr(settings, setting))._meta.label
        if label in owned:
            found[(module, function)] = label
    return found


def _chain(node: ast.AST) -> tuple[ast.AST, list[str]]:
    """The name a chain of attribute reads, calls and subscripts starts from, and the
    attributes read on the way (`Lead`, [objects, filter] for `Lead.objects.filter(...)`)."""
    attributes = []
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        if isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            node = node.value
    return node, attributes[::-1]


class _Scope:
    """What one module's code writes: each function's variables are followed in order."""

    def __init__(
        self,
        names: dict[str, str],
        accessors: dict[str, set[str]],
        getters: dict[str, str] | None = None,
        constants: dict[str, ast.AST] | None = None,
        raw: bool = True,
    ):
        self.names = names
        self.accessors = accessors
        self.getters = getters or {}
        self.constants = constants or {}
        self.raw = raw

    def model(self, node: ast.AST, classes: dict[str, str]) -> str | None:
        """The table whose model an expression is: a model's name (imported, or bound in
        the function: `User = get_user_model()`), or a call of a function that answers
        one."""
        if isinstance(node, ast.Name):
            return classes.get(node.id) or self.names.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args:
            return self.getters.get(node.func.id)
        return None

    def tables(
        self, node: ast.AST, held: dict[str, set[str]], classes: dict[str, str] | None = None
    ) -> tuple[set[str], str]:
        """The tables an expression is a manager, queryset or row of, and how it reaches
        them ("manager", "related", "held", "instance": a row made by calling its model);
        (set(), "") for anything else."""
        classes = classes or {}
        if isinstance(node, ast.Call) and (label := self.model(node.func, classes)):
            return {label}, "instance"
        root, attributes = _chain(node)
        name = root.id if isinstance(root, ast.Name) else None
        model = classes.get(name) or self.names.get(name) or self.getters.get(name)
        if model is not None and MANAGERS & set(attributes):
            return {model}, "manager"
        for attribute in attributes:
            if attribute in self.accessors:
                return set(self.accessors[attribute]), "related"
        if name in held:
            return held[name], "held"
        return set(), ""

    def sql(self, node: ast.AST, bound: dict[str, ast.AST], depth: int = 0) -> str | None:
        """The text of a statement: a string, an f-string (a table named by a model's
        `_meta` in it written ⟦label⟧, any other value ⟦?⟧), a sum of them, or a name bound
        to one in the function or the module; None when the check cannot read it."""
        if depth > 8:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            value = bound.get(node.id, self.constants.get(node.id))
            return None if value is None else self.sql(value, bound, depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = (
                self.sql(node.left, bound, depth + 1),
                self.sql(node.right, bound, depth + 1),
            )
            return None if left is None or right is None else left + right
        if isinstance(node, ast.JoinedStr):
            parts = []
            for part in node.values:
                if isinstance(part, ast.Constant):
                    parts.append(str(part.value))
                    continue
                text = self.sql(part.value, bound, depth + 1)
                if text is None or "⟦" in text:
                    text = f"⟦{self.table(part.value, bound) or '?'}⟧"
                parts.append(text)
            return "".join(parts)
        return None

    def table(self, node: ast.AST, bound: dict[str, ast.AST], depth: int = 0) -> str | None:
        """The table a value names through a model's `_meta` (`Event._meta.db_table`,
        `quote(table.db_table)` with `table = Event._meta`), if any."""
        if depth > 8:
            return None
        for part in ast.walk(node):
            if isinstance(part, ast.Attribute) and part.attr == "_meta":
                label = self.model(part.value, {})
                if label is not None:
                    return label
            if isinstance(part, ast.Name) and part.id in bound:
                label = self.table(bound[part.id], bound, depth + 1)
                if label is not None:
                    return label
        return None

    def raw_writes(
        self, node: ast.Call, bound: dict[str, ast.AST]
    ) -> list[tuple[int, str, set[str]]]:
        """The tables a raw statement (`cursor.execute(sql, ...)`) writes: each INSERT
        INTO, UPDATE or DELETE FROM in its text (a WITH's too) naming a table; a table the
        check cannot tell is reported as "?"."""
        text = self.sql(node.args[0], bound) if node.args else None
        if text is None:
            return []
        by_table = _tables_by_name()
        found = []
        for verb, target in RAW_WRITE.findall(text):
            if target.startswith("⟦"):
                label = target[1:-1]
            else:
                label = by_table.get(target.strip('"`').rpartition(".")[2].lower())
                if label is None:
                    continue  # not a table (DO UPDATE SET, FOR UPDATE OF), or a library's
            found.append((node.lineno, f"raw {verb.split()[0].upper()}", {label}))
        return found

    def bind(self, name: str, value: ast.AST | None, known: tuple[dict, dict, dict]) -> None:
        """What a name is once bound: a model, a manager's queryset or row, and its value
        (a statement's text)."""
        held, classes, bound = known
        model = None if value is None else self.model(value, classes)
        tables = set() if value is None or model else self.tables(value, held, classes)[0]
        for seen in known:
            seen.pop(name, None)
        if value is not None:
            bound[name] = value
        if model:
            classes[name] = model
        elif tables:
            held[name] = tables

    def writes(self, body: list[ast.stmt]) -> list[tuple[int, str, set[str]]]:
        held: dict[str, set[str]] = {}
        classes: dict[str, str] = {}
        bound: dict[str, ast.AST] = {}
        found = []
        for node in _in_order(body):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.For | ast.withitem):
                target, value = _binding(node)
                if isinstance(target, ast.Name):
                    self.bind(target.id, value, (held, classes, bound))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                tables, how = self.tables(node.func.value, held, classes)
                method = node.func.attr
                allowed = WRITE_METHODS | (
                    RELATED_WRITES
                    if how == "related"
                    else ROW_WRITES
                    if how in ("held", "instance")
                    else set()
                )
                # QuerySet.update takes keywords only (a dict's or a Counter's takes one
                # positional argument).
                if tables and method in allowed and not (method == "update" and node.args):
                    found.append((node.lineno, method, tables))
                if self.raw and method in RAW_EXECUTES:
                    found.extend(self.raw_writes(node, bound))
        return found


def _binding(node) -> tuple[ast.AST | None, ast.AST | None]:
    if isinstance(node, ast.Assign):
        return (node.targets[0] if len(node.targets) == 1 else None), node.value
    if isinstance(node, ast.AnnAssign):
        return node.target, node.value
    if isinstance(node, ast.For):
        return node.target, node.iter
    return node.optional_vars, node.context_expr


def _in_order(body: list[ast.stmt]):
    """The nodes of a body in the order the code reads (a binding before its uses), not
    entering nested functions (each is a scope of its own)."""
    for statement in body:
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _walk(statement)


def _walk(node: ast.AST):
    if isinstance(node, ast.Assign | ast.AnnAssign):
        if node.value is not None:
            yield from _walk(node.value)
        yield node
        return
    if isinstance(node, ast.For):
        yield from _walk(node.iter)
        yield node
        for child in node.body + node.orelse:
            yield from _walk(child)
        return
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        yield from _walk(child)


def _scopes(tree: ast.Module):
    yield tree.body
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.body
        elif isinstance(node, ast.Lambda):
            yield [ast.Expr(node.body, lineno=node.lineno, col_offset=node.col_offset)]


def writes_outside_the_owners(root: Path = ROOT) -> list[str]:
    models, accessors = _models(), _accessors()
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = str(path.relative_to(root))
            if "/migrations/" in relative:
                continue
            tree = ast.parse(path.read_text(), relative)
            scope = _Scope(
                _model_names(tree, relative, models),
                accessors,
                _getter_names(tree),
                _constants(tree),
                raw=relative not in RAW_OUTSIDE,
            )
            for body in _scopes(tree):
                for line, method, tables in scope.writes(body):
                    # A raw statement's table the check cannot tell ("?") has no owner.
                    if not any(
                        label != "?" and writers.may_write(relative, label) for label in tables
                    ):
                        found.append((relative, line, method, ", ".join(sorted(tables))))
    return [f"{path}:{line} {method} {tables}" for path, line, method, tables in sorted(set(found))]


def event_table_named_outside_events(root: Path = ROOT) -> list[str]:
    """A module outside the events app that reads `events.Event._meta` (its table, its
    columns) for a statement of its own."""
    models = _models()
    found = []
    for app in APPS:
        if app == "events":
            continue
        for path in sorted((root / app).rglob("*.py")):
            relative = str(path.relative_to(root))
            if "/migrations/" in relative:
                continue
            tree = ast.parse(path.read_text(), relative)
            names = {
                name
                for name, label in _model_names(tree, relative, models).items()
                if label == "events.Event"
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "_meta"
                    and isinstance(_chain(node)[0], ast.Name)
                    and _chain(node)[0].id in names
                ):
                    found.append(f"{relative}:{node.lineno} _meta")
    return found


def test_each_table_is_written_by_its_owners_only():
    assert writes_outside_the_owners() == []


def test_no_module_outside_the_events_app_names_the_events_table():
    assert event_table_named_outside_events() == []


def test_the_check_finds_a_write_of_an_event(tmp_path):
    (tmp_path / "webhooks").mkdir()
    (tmp_path / "webhooks" / "probe.py").write_text(
        "from events.models import Event as E\n"
        "E.objects.filter(seq=1).update(dispatched=True)\n"
        "table = E._meta.db_table\n"
    )
    # Another app's model of the same name is not the events app's, and the integrations
    # app's events module owns its own (no other module of the app).
    (tmp_path / "integrations").mkdir()
    (tmp_path / "integrations" / "events.py").write_text(
        "from .models import Event\nEvent.objects.filter(pk=1).delete()\n"
    )
    (tmp_path / "integrations" / "apply.py").write_text(
        "from .models import Event\nEvent.objects.filter(pk=1).update(attempts=1)\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "integrations/apply.py:2 update integrations.Event",
        "webhooks/probe.py:2 update events.Event",
    ]
    assert event_table_named_outside_events(tmp_path) == ["webhooks/probe.py:3 _meta"]


def test_the_check_finds_a_write_through_a_manager(tmp_path):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "probe.py").write_text(
        "from workspaces.models import Lead\nLead.objects.filter(pk=1).update(name='x')\n"
    )
    assert writes_outside_the_owners(tmp_path) == ["demo/probe.py:2 update workspaces.Lead"]


def test_the_check_finds_writes_through_variables_and_related_managers(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "probe.py").write_text(
        "from workspaces.models import Call, Lead\n"
        "from webhooks.models import Delivery\n"
        "\n"
        "def rename(workspace):\n"
        "    rows = Lead.objects.filter(workspace=workspace)\n"
        "    fresh = rows.exclude(name='')\n"
        "    fresh.update(name='x')\n"
        "    lead = rows.first()\n"
        "    lead.calls.create(workspace=workspace)\n"
        "    for call in Call.objects.all():\n"
        "        call.save()\n"
        "    first = Delivery.objects.get(pk=1)\n"
        "    first.delete()\n"
        "    workspace.webhook_endpoints.all().delete()\n"
        "    workspace.members.count()\n"
        "\n"
        "def elsewhere(rows):\n"
        "    rows.update(name='y')  # another function's rows: not known here\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "figures/probe.py:7 update workspaces.Lead",
        "figures/probe.py:9 create workspaces.Call",
        "figures/probe.py:11 save workspaces.Call",
        "figures/probe.py:13 delete webhooks.Delivery",
        "figures/probe.py:14 delete webhooks.WebhookEndpoint",
    ]


def test_the_owners_write_their_own_tables(tmp_path):
    (tmp_path / "webhooks").mkdir()
    (tmp_path / "webhooks" / "services.py").write_text(
        "from .models import Delivery\nDelivery.objects.filter(pk=1).update(state='x')\n"
    )
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "generate.py").write_text(
        "from workspaces.models import Lead\nLead.objects.bulk_create([])\n"
    )
    assert writes_outside_the_owners(tmp_path) == []


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


@pytest.mark.django_db
@pytest.mark.parametrize(
    "write",
    [
        "Workspace.objects.filter(pk=w.pk).update(name='x')",
        "Funnel.objects.bulk_create([Funnel(workspace=w, key='k', name='K')])",
        "Workspace.objects.bulk_update([w], ['name'])",
        "WebhookEndpoint.objects.filter(workspace=w).update(enabled=False)",
        "AuditEvent.objects.all().update(reason='x')",
    ],
)
def test_a_write_that_sends_no_signal_is_refused_too(make_workspace, write):
    workspace = make_workspace()
    namespace = {"__name__": "probe"}
    code = compile(
        "from audit.models import AuditEvent\n"
        "from webhooks.models import WebhookEndpoint\n"
        "from workspaces.models import Funnel, Workspace\n"
        f"def write(w):\n    {write}\n",
        str(ROOT / "figures" / "probe.py"),
        "exec",
    )
    exec(code, namespace)
    with pytest.raises(writers.WriteOutsideTheWriters, match=r"figures/probe\.py writes a "):
        namespace["write"](workspace)
    # The owners themselves are let through (the check is not a refusal of every write).
    assert writers.may_write("workspaces/tenancy.py", "workspaces.Workspace")
    assert writers.may_write("webhooks/services.py", "webhooks.WebhookEndpoint")
    assert not writers.may_write("webhooks/pages.py", "webhooks.WebhookEndpoint")


def test_the_check_finds_a_row_made_and_saved(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "probe.py").write_text(
        "from workspaces.models import Funnel, Lead\n"
        "\n"
        "def make(workspace):\n"
        "    Lead(workspace=workspace, name='x').save()\n"
        "    funnel = Funnel(workspace=workspace, key='k', name='K')\n"
        "    funnel.full_clean()\n"
        "    funnel.save()\n"
        "    Model = Lead\n"
        "    Model(workspace=workspace).save()\n"
        "    shown = Lead(workspace=workspace, name='y')\n"
        "    return shown  # made, never saved: not a write\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "figures/probe.py:4 save workspaces.Lead",
        "figures/probe.py:7 save workspaces.Funnel",
        "figures/probe.py:9 save workspaces.Lead",
    ]


def test_the_check_finds_a_raw_write(tmp_path):
    (tmp_path / "webhooks").mkdir()
    (tmp_path / "webhooks" / "probe.py").write_text(
        "from django.db import connection\n"
        "from integrations.models import Event\n"
        "from workspaces.models import Lead\n"
        "\n"
        'PRUNE = "DELETE FROM workspaces_lead WHERE id = %s"\n'
        "\n"
        "def write(pk, name):\n"
        "    table = Event._meta\n"
        "    quote = connection.ops.quote_name\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute(\n"
        '            f"INSERT INTO {quote(table.db_table)} (id) VALUES (%s) "\n'
        '            "ON CONFLICT (id) DO UPDATE SET id = excluded.id", [pk]\n'
        "        )\n"
        '        sql = f"UPDATE {Lead._meta.db_table} SET name = %s"\n'
        "        cursor.execute(sql, [name])\n"
        "        cursor.executemany(PRUNE, [[pk]])\n"
        '        cursor.execute(f"WITH s AS (SELECT 1) UPDATE {name} SET x = 1")\n'
        '        cursor.execute("SELECT id FROM workspaces_lead FOR UPDATE")\n'
        '        cursor.execute("UPDATE django_session SET expire_date = NULL")\n'
    )
    # The triggers' definitions are the database's: out of the check.
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "triggers.py").write_text(
        "def run(cursor):\n    cursor.execute('INSERT INTO workspaces_lead (id) VALUES (1)')\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "webhooks/probe.py:11 raw INSERT integrations.Event",
        "webhooks/probe.py:16 raw UPDATE workspaces.Lead",
        "webhooks/probe.py:17 raw DELETE workspaces.Lead",
        "webhooks/probe.py:18 raw UPDATE ?",
    ]


def test_the_check_finds_a_write_of_an_account(tmp_path):
    (tmp_path / "accounts").mkdir()
    (tmp_path / "accounts" / "probe.py").write_text(
        "from django.contrib.auth import get_user_model\n"
        "\n"
        "def rename(email):\n"
        "    user = get_user_model().objects.filter(email=email).first()\n"
        "    user.set_password('x')\n"
        "    user.save(update_fields=['password'])\n"
        "    User = get_user_model()\n"
        "    User(username=email).save()\n"
        "    User.objects.filter(email=email).update(first_name='x')\n"
    )
    (tmp_path / "workspaces").mkdir()
    (tmp_path / "workspaces" / "tenancy.py").write_text(
        "from django.contrib.auth import get_user_model\n"
        "\n"
        "def make(email):\n"
        "    User = get_user_model()\n"
        "    user = User(username=email)\n"
        "    user.save()\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "accounts/probe.py:6 save auth.User",
        "accounts/probe.py:8 save auth.User",
        "accounts/probe.py:9 update auth.User",
    ]


@pytest.mark.django_db
def test_an_account_written_outside_its_writer_is_refused_while_the_suite_runs(
    django_user_model,
):
    from django.contrib.auth.models import update_last_login  # noqa: PLC0415

    user = django_user_model.objects.create_user(username="ann", email="ann@example.com")
    namespace = {"__name__": "probe", "update_last_login": update_last_login}
    code = compile(
        "def rename(user):\n    user.first_name = 'Ann'\n    user.save()\n"
        "def signed_in(user):\n    update_last_login(None, user)\n",
        str(ROOT / "accounts" / "probe.py"),
        "exec",
    )
    exec(code, namespace)
    with pytest.raises(writers.WriteOutsideTheWriters, match=r"accounts/probe\.py writes a User"):
        namespace["rename"](user)
    # Django's own stamp of a sign-in is left to it, whoever signed the person in.
    namespace["signed_in"](user)
    # A library's write of an account with no module of the project asking is refused too.
    with ThreadPoolExecutor(max_workers=1) as pool:
        refused = pool.submit(user.save, update_fields=["first_name"]).exception()
    assert isinstance(refused, writers.WriteOutsideTheWriters)
    assert str(refused).startswith("a library writes a User")
    assert writers.may_write("workspaces/tenancy.py", "auth.User")
    assert not writers.may_write("workspaces/invitations.py", "auth.User")


def test_the_check_finds_a_write_of_the_oauth_tables(tmp_path):
    (tmp_path / "tokens").mkdir()
    (tmp_path / "tokens" / "oauth.py").write_text(
        "from oauth2_provider.models import get_access_token_model, get_application_model\n"
        "from .models import RedeemedCode\n"
        "\n"
        "def revoke(pk):\n"
        "    get_access_token_model().objects.filter(pk=pk).delete()\n"
        "    application = get_application_model()(name='x')\n"
        "    application.save()\n"
        "    RedeemedCode.objects.filter(pk=pk).delete()  # its own table\n"
    )
    assert writes_outside_the_owners(tmp_path) == [
        "tokens/oauth.py:5 delete oauth2_provider.AccessToken",
        "tokens/oauth.py:7 save oauth2_provider.Application",
    ]
    assert writers.may_write("tokens/services.py", "oauth2_provider.RefreshToken")
    assert not writers.may_write("tokens/oauth.py", "oauth2_provider.RefreshToken")
