import io
import json

import pytest
from django.core.management import call_command


@pytest.fixture
def import_file(tmp_path):
    """Write records as JSON Lines and run import_records on them; returns stdout."""

    def run(workspace, records, *extra, name="records.jsonl"):
        path = tmp_path / name
        lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        call_command(
            "import_records",
            "--workspace",
            str(workspace.pk),
            str(path),
            *extra,
            stdout=out,
            stderr=err,
        )
        run.stderr = err.getvalue()
        return out.getvalue()

    return run
