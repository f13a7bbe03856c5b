"""Print a digest of every figures answer on a benchmark database, to compare code changes.

    .venv/bin/python bench/answers.py bench_large > before.json
    (change the code)
    .venv/bin/python bench/answers.py bench_large > after.json
    diff before.json after.json

Each endpoint of bench/run.py is called in-process through Django's test client with the
benchmark token (bench/out/<database>.json, written by bench/generate.py), over a fixed
period (--from, --to) so that the answers do not move with the clock; /speed-to-lead,
which counts from now, is left out. It prints, per path, the status, the size and the
SHA-256 of the body: equal digests are byte-identical answers. With --repeat N it also
calls each path N more times and prints the median thread CPU time of a call (ms): the
work of the process itself, which a busy machine disturbs less than a latency.
"""

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import ENDPOINTS, OUT  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("database", help="a database loaded by bench/generate.py")
    p.add_argument("--from", dest="start", default="2026-10-01")
    p.add_argument("--to", dest="end", default="2026-10-30")
    p.add_argument("--repeat", type=int, default=0, help="CPU-timed calls per path")
    args = p.parse_args(argv)
    info = json.loads((OUT / f"{args.database}.json").read_text())
    os.environ["DATABASE_URL"] = info["database_url"]
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_dev"
    os.environ["LOG_LEVEL"] = "ERROR"
    django.setup()
    from django.test import Client  # noqa: PLC0415 (needs django.setup())

    client = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {info['token']}"}
    digests = {}
    for label, template in ENDPOINTS:
        if label == "speed-to-lead":
            continue
        path = template.format(lead=info["journey_lead_id"], from90=args.start)
        joiner = "&" if "?" in path else "?"
        if "from=" not in path:
            path += f"{joiner}from={args.start}"
            joiner = "&"
        path += f"{joiner}to={args.end}"
        response = client.get(path, **auth)
        body = response.content
        digests[path] = {
            "status": response.status_code,
            "bytes": len(body),
            "sha256": hashlib.sha256(body).hexdigest(),
        }
        if args.repeat:
            times = []
            for _ in range(args.repeat):
                began = time.thread_time()
                client.get(path, **auth)
                times.append((time.thread_time() - began) * 1000)
            digests[path]["cpu_ms"] = round(statistics.median(times), 2)
    json.dump(digests, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
