"""No module of the project imports, through any chain, a module that imports it back.

import-linter's layers keep the apps in order; this scan (grimp, import-linter's own graph,
which counts imports inside functions too) looks at every module of every app."""

import grimp

from tests.apps import PROJECT_APPS

APPS = PROJECT_APPS


def in_cycles(graph) -> set[str]:
    """The modules left once every module that imports none of the others left, and every
    module that none of the others left imports, is taken away, again and again: empty
    when no chain of imports comes back to where it started (every module on a cycle stays,
    with those only on the way from one cycle to another)."""
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    left = set(imports)
    while True:
        imported = set().union(*(imports[m] & left for m in left))
        kept = {m for m in left if imports[m] & left and m in imported}
        if kept == left:
            return left
        left = kept


def test_the_scan_finds_a_cycle_when_there_is_one():
    graph = grimp.ImportGraph()
    for name in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(name)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.d")
    graph.add_import(importer="a.d", imported="a.b")
    graph.add_module("a.e")
    graph.add_import(importer="a.e", imported="a.b")  # into the cycle, not on it
    assert in_cycles(graph) == {"a.b", "a.c", "a.d"}


def test_no_module_of_the_project_is_in_an_import_cycle():
    graph = grimp.build_graph(*APPS, include_external_packages=False)
    # The whole project was read: hundreds of modules, importing each other.
    assert len(graph.modules) > 300
    assert graph.direct_import_exists(importer="figures.views", imported="core.views")
    assert in_cycles(graph) == set()
