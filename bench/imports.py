"""`make bench-import` (and the last step of `make bench`): an upload's check and its
import, timed on PostgreSQL.

On a fresh database (`--database`, recreated) it makes one workspace and its owner, then a
JSON Lines file of `--lines` records as a team's history reads: 20 members, and for every
ten lines four leads, three calls, two outcomes and a sale. It runs the worker's two steps
as the uploads' pool runs them (workspaces.services.uploads: records_check, writing
nothing, then records_import, all in one transaction) and prints each one's seconds and
lines a second. A measurement: it exits 0 whatever the speed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lines_of(count: int, prefix: str = "") -> list[str]:
    """`count` lines of a team's history; `prefix` starts the ids of its leads, calls,
    outcomes and sales (a file of records new to a workspace that holds another's)."""
    members = [
        {
            "type": "member",
            "id": f"m{n}",
            "name": f"Member {n}",
            "email": f"m{n}@bench.test",
            "role": "closer" if n % 2 else "setter",
        }
        for n in range(20)
    ]
    made = [json.dumps(member) for member in members]
    n = 0
    while len(made) < count:
        day = 1 + n % 28
        lead = f"{prefix}l{n}"
        made.append(
            json.dumps(
                {
                    "type": "lead",
                    "id": lead,
                    "name": f"Lead {n}",
                    "email": f"l{n}@bench.test",
                    "created_at": f"2026-10-{day:02d}T09:00:00Z",
                    "utm_source": ("yt", "ig", "fb")[n % 3],
                    "setter": f"m{2 * (n % 10)}",
                }
            )
        )
        if n % 4 < 3:
            made.append(
                json.dumps(
                    {
                        "type": "call",
                        "id": f"{prefix}c{n}",
                        "lead": lead,
                        "scheduled_for": f"2026-10-{day:02d}T15:00:00Z",
                        "closer": f"m{2 * (n % 10) + 1}",
                        "attendance": "showed",
                    }
                )
            )
            if n % 4 < 2:
                made.append(
                    json.dumps(
                        {
                            "type": "outcome",
                            "id": f"{prefix}o{n}",
                            "call": f"{prefix}c{n}",
                            "result": "closed" if n % 4 == 0 else "no_sale",
                            "at": f"2026-10-{day:02d}T16:00:00Z",
                        }
                    )
                )
                if n % 4 == 0:
                    made.append(
                        json.dumps(
                            {
                                "type": "sale",
                                "id": f"{prefix}s{n}",
                                "call": f"{prefix}c{n}",
                                "closed_at": f"2026-10-{day:02d}T16:00:00Z",
                                "contract_value": "3000.00",
                            }
                        )
                    )
        n += 1
    return made[:count]


STEPS = """
import json, sys, time
from workspaces.models import Workspace
from workspaces.importer import records_check, records_import
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
ws = Workspace.objects.create(name="Bench imports", slug="bench-imports", currency="USD", timezone="UTC")
for name, step in (("check", records_check), ("import", records_import)):
    start = time.perf_counter()
    found = step(workspace=ws, lines=lines, by_role="owner")
    seconds = time.perf_counter() - start
    if name == "check":
        assert not found, found[:3]
    print(json.dumps({"step": name, "lines": len(lines), "seconds": round(seconds, 2),
                      "lines_per_second": round(len(lines) / seconds)}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--database", default="bench_imports")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    args = parser.parse_args()
    url = f"{args.pg}/{args.database}"
    subprocess.run(
        ["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", args.database], check=True
    )
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", args.database], check=True)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings_dev"}
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    path = out / "import.jsonl"
    path.write_text("\n".join(lines_of(args.lines)) + "\n", encoding="utf-8")
    script = out / "import_steps.py"
    script.write_text("import django, sys\ndjango.setup()\n" + STEPS, encoding="utf-8")
    started = time.perf_counter()
    subprocess.run(
        [python, str(script), str(path)], cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, check=True
    )
    print(f"total {time.perf_counter() - started:.1f} s for {args.lines:,} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
