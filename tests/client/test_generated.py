"""The committed client is what `make client` generates from the committed descriptions
(kept equal to the served ones by tests/test_openapi.py): regenerating changes nothing."""

import filecmp
from pathlib import Path

from scripts import client as generator


def _files(root: Path) -> set[str]:
    return {
        str(path.relative_to(root))
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_committed_client_is_what_the_descriptions_generate(tmp_path):
    fresh = tmp_path / "_generated"
    generator.generate(fresh)
    committed = generator.TARGET
    assert _files(fresh) == _files(committed), "run `make client` and commit its changes"
    differing = [
        name
        for name in sorted(_files(fresh))
        if not filecmp.cmp(fresh / name, committed / name, shallow=False)
    ]
    assert differing == [], f"run `make client` and commit its changes: {differing[:5]}"
