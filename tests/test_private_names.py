"""What one module needs of another is public: no module of the project imports another's
private name (one starting with an underscore), nor reads one as an attribute of a
module of the project it imported (`connections._helper`)."""

import ast
from pathlib import Path

from tests.apps import PROJECT_APPS

ROOT = Path(__file__).resolve().parents[1]
APPS = PROJECT_APPS


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _is_module(root: Path, dotted: str) -> bool:
    path = root.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _package_of(relative: Path, level: int) -> str:
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        level -= 1
    return ".".join(parts[: len(parts) - level])


def _imports_of(root: Path, relative: Path, tree: ast.AST) -> tuple[list[str], set[str]]:
    """The private names the file imports from the project's modules, and the names it
    binds to modules of the project."""
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(
                alias.asname
                for alias in node.names
                if alias.name.split(".")[0] in APPS and alias.asname
            )
        if not isinstance(node, ast.ImportFrom):
            continue
        if not (node.level > 0 or (node.module or "").split(".")[0] in APPS):
            continue  # a library's private name is the library's business
        base = node.module or ""
        if node.level:
            base = ".".join(part for part in (_package_of(relative, node.level), base) if part)
        for alias in node.names:
            if _private(alias.name):
                found.append(f"{relative}:{node.lineno} imports {alias.name}")
            elif _is_module(root, f"{base}.{alias.name}" if base else alias.name):
                modules.add(alias.asname or alias.name)
    return found, modules


def _private_reads(relative: Path, tree: ast.AST, modules: set[str]) -> list[str]:
    return [
        f"{relative}:{node.lineno} reads {node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in modules
        and _private(node.attr)
    ]


def private_imports(root: Path = ROOT) -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            tree = ast.parse(path.read_text(), str(relative))
            imported, modules = _imports_of(root, relative, tree)
            found += imported + _private_reads(relative, tree, modules)
    return found


def test_no_module_imports_anothers_private_name():
    assert private_imports() == []


def test_the_check_sees_a_private_import(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "one.py").write_text(
        "from .two import _hidden, shown\nfrom library import _theirs\n"
    )
    assert private_imports(tmp_path) == ["core/one.py:1 imports _hidden"]


def test_the_check_sees_a_private_name_read_from_an_imported_module(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "two.py").write_text("def _hidden():\n    pass\n")
    (tmp_path / "core" / "one.py").write_text(
        "from . import two\nimport library\n\ntwo._hidden()\nlibrary._theirs()\n"
    )
    assert private_imports(tmp_path) == ["core/one.py:4 reads two._hidden"]
