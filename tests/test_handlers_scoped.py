"""A handler never filters by a tenant itself: the base view hands it its rows already
scoped (`WorkspaceView.scoped(model)`, `AgencyView.scoped(model)`), and it passes
`self.workspace` or `self.agency` to the selectors and writers, which filter."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The API's handlers (the pages open their workspace through workspaces.access).
VIEWS = (
    "agentapi/views.py",
    "agentapi/form_views.py",
    "agentapi/record_views.py",
    "figures/views.py",
    "webhooks/views.py",
    "agency/views.py",
)
MANAGERS = frozenset({"objects", "active", "_default_manager", "_base_manager"})
QUERIES = frozenset({"filter", "exclude", "get"})
TENANTS = ("workspace", "agency")


def _names_a_tenant(keyword: str | None) -> bool:
    if keyword is None:
        return False
    head = keyword.split("__")[0]
    return head in TENANTS or head in {f"{tenant}_id" for tenant in TENANTS}


def tenant_filters(root: Path = ROOT, views=VIEWS) -> list[str]:
    found = []
    for relative in views:
        tree = ast.parse((root / relative).read_text(), relative)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
                found.append(f"{relative}:{node.lineno} .{node.attr}")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in QUERIES
            ):
                for keyword in node.keywords:
                    if _names_a_tenant(keyword.arg):
                        found.append(f"{relative}:{node.lineno} {node.func.attr}({keyword.arg}=)")
    return sorted(found, key=lambda line: (int(line.split(":")[1].split()[0]), line))


def test_no_handler_filters_by_a_tenant_itself():
    assert tenant_filters() == []


def test_the_check_sees_a_handler_that_does(tmp_path):
    (tmp_path / "views.py").write_text(
        "class V:\n"
        "    def get(self, request):\n"
        "        rows = Lead.objects.filter(workspace=self.workspace)\n"
        "        mine = self.scoped(Call).exclude(workspace_id=1).get(agency__pk=2)\n"
        "        return selectors.leads(workspace=self.workspace, rows=self.scoped(Lead))\n"
    )
    assert tenant_filters(tmp_path, ["views.py"]) == [
        "views.py:3 .objects",
        "views.py:3 filter(workspace=)",
        "views.py:4 exclude(workspace_id=)",
        "views.py:4 get(agency__pk=)",
    ]
