"""What one module needs of another is public: no module of the project imports another's
private name (one starting with an underscore)."""

import ast
from pathlib import Path

from tests.apps import PROJECT_APPS

ROOT = Path(__file__).resolve().parents[1]
APPS = PROJECT_APPS


def private_imports(root: Path = ROOT) -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(relative))):
                if not isinstance(node, ast.ImportFrom):
                    continue
                ours = node.level > 0 or (node.module or "").split(".")[0] in APPS
                if not ours:
                    continue  # a library's private name is the library's business
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{relative}:{node.lineno} imports {alias.name}")
    return found


def test_no_module_imports_anothers_private_name():
    assert private_imports() == []


def test_the_check_sees_a_private_import(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "one.py").write_text(
        "from .two import _hidden, shown\nfrom library import _theirs\n"
    )
    assert private_imports(tmp_path) == ["core/one.py:1 imports _hidden"]
