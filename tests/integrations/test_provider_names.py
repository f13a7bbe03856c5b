"""No template and no engine module of integrations/ names a provider: what is a provider's
own (its settings pages and their templates, its failure words, its API) lives in its
package, and the engine and the pages read it through the Provider's hooks and PROVIDERS.

The exceptions are named below, each with why; docs/architecture.md names them too.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The providers, and the ad platforms a provider may come to stand for.
PROVIDER_WORDS = ("stripe", "calendly", "zoom", "hubspot", "meta", "google")
WORD = re.compile(r"\b(" + "|".join(PROVIDER_WORDS) + r")\b", re.IGNORECASE)
# The registry: it imports each package to list it.
REGISTRY = "integrations/providers.py"
# (none: each provider's words for mending its credentials are its own, `refused_step`)
ENGINE_EXCEPTIONS: dict[str, set[str]] = {}
TEMPLATE_EXCEPTIONS = {
    # The first-run checklist names what can be connected.
    "templates/dashboard/overview.html": {"stripe", "calendly", "zoom", "hubspot"},
    # The Webinars page says where its events come from (Zoom or the import).
    "templates/integrations/webinar_pitch.html": {"zoom"},
}


def _words(text: str) -> set[str]:
    """The provider words in a name or a text: whole words, in any case, with a name's
    snake_case and camelCase parts read apart (`stripe_key`, `hubspotClient`)."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).replace("_", " ")
    return {word.lower() for word in WORD.findall(spaced)}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _node_text(node: ast.AST, docstrings: set[int]) -> str:
    """The text of a node a provider word would be in: a string (not a docstring), a name,
    an attribute, a definition's name, an import; "" for any other node. Django's `Meta`
    and `_meta` are Django's."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "" if id(node) in docstrings else node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return "" if node.attr == "_meta" else node.attr
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return node.name
    if isinstance(node, ast.arg):
        return node.arg
    if isinstance(node, ast.ClassDef):
        return "" if node.name == "Meta" else node.name
    if isinstance(node, ast.alias):
        return f"{node.name} {node.asname or ''}"
    if isinstance(node, ast.ImportFrom):
        return node.module or ""
    return ""


def module_names(source: str) -> set[str]:
    """The provider words a module's code holds (not its docstrings or comments)."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        found |= _words(_node_text(node, docstrings))
    return found


def template_names(text: str) -> set[str]:
    """The provider words a template shows: its text and attributes, without its <meta>
    tags and its comments."""
    text = re.sub(r"<meta\b[^>]*>", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.DOTALL)
    return _words(text)


def _provider_templates(root: Path) -> dict[str, str]:
    """Each template a provider's package renders → the provider (HubSpot's UTM
    properties page): a provider's own page may name it."""
    owned = {}
    for package in (root / "integrations").iterdir():
        if not (package / "__init__.py").exists():
            continue
        for path in package.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and node.value.endswith(".html")
                ):
                    owned[f"templates/{node.value}"] = package.name
    return owned


def engine_modules_naming_providers(root: Path = ROOT) -> dict[str, set[str]]:
    found = {}
    for path in sorted((root / "integrations").glob("*.py")):
        relative = str(path.relative_to(root))
        if relative == REGISTRY:
            continue
        named = module_names(path.read_text()) - ENGINE_EXCEPTIONS.get(relative, set())
        if named:
            found[relative] = named
    return found


def templates_naming_providers(root: Path = ROOT) -> dict[str, set[str]]:
    owned = _provider_templates(root)
    found = {}
    for path in sorted((root / "templates").rglob("*.html")):
        relative = str(path.relative_to(root))
        named = template_names(path.read_text()) - TEMPLATE_EXCEPTIONS.get(relative, set())
        named -= {owned[relative]} if relative in owned else set()
        if named:
            found[relative] = named
    return found


def test_no_engine_module_names_a_provider():
    assert engine_modules_naming_providers() == {}


def test_no_template_names_a_provider():
    assert templates_naming_providers() == {}


def test_the_exceptions_are_still_needed():
    # An exception no longer used is taken out (the rule then holds there too).
    for relative, words in ENGINE_EXCEPTIONS.items():
        assert module_names((ROOT / relative).read_text()) & words, relative
    for relative, words in TEMPLATE_EXCEPTIONS.items():
        assert template_names((ROOT / relative).read_text()) & words, relative


def test_the_checks_see_a_provider_named(tmp_path):
    engine = tmp_path / "integrations"
    (engine / "hubspot").mkdir(parents=True)
    (engine / "hubspot" / "__init__.py").write_text("")
    (engine / "hubspot" / "pages.py").write_text("TEMPLATE = 'integrations/hubspot_x.html'\n")
    (engine / "apply.py").write_text(
        '"""Stripe, in a docstring, is prose."""\n'
        "# zoom in a comment too\n"
        "from .stripe import mapping\n"
        "class Meta:\n"
        "    table = Event._meta.db_table\n"
        "def run(provider):\n"
        "    if provider.key == 'calendly':\n"
        "        return hubspotClient\n"
    )
    (engine / "events.py").write_text("KEYS = ('Meta Ads',)\n")
    (engine / "providers.py").write_text("from .zoom import PROVIDER\n")
    templates = tmp_path / "templates" / "integrations"
    templates.mkdir(parents=True)
    (templates / "hubspot_x.html").write_text("HubSpot's own page")
    (templates / "list.html").write_text('<meta name="x">{# Google #}Connect Google Ads')
    assert engine_modules_naming_providers(tmp_path) == {
        "integrations/apply.py": {"stripe", "calendly", "hubspot"},
        "integrations/events.py": {"meta"},
    }
    assert templates_naming_providers(tmp_path) == {"templates/integrations/list.html": {"google"}}
