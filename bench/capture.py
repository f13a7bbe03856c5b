"""Call each figures endpoint once in-process and print the SQL it ran, as JSON.

    .venv/bin/python bench/capture.py bench/out/bench_large.json

Used by bench/run.py (one process per database, because Django reads DATABASE_URL once).
Each endpoint is called twice through Django's test client with the benchmark token; the
second call's statements are captured with CaptureQueriesContext, so one-off work of the
first request (connection set-up, caches) is left out.
"""

import json
import os
import sys
from pathlib import Path

import django
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, resolve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    info = json.loads(Path(sys.argv[1]).read_text())
    paths = json.loads(sys.argv[2])
    os.environ["DATABASE_URL"] = info["database_url"]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_dev")
    os.environ["LOG_LEVEL"] = "ERROR"
    for name in ("ALLOWED_HOSTS", "SECRET_KEY"):
        os.environ.pop(name, None)
    os.environ["DEBUG"] = "true"
    django.setup()

    client = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {info['token']}"}
    result = {}
    for path in paths:
        try:
            resolve(path.split("?", 1)[0])
        except Resolver404:
            result[path] = {"status": None, "queries": []}
            continue
        client.get(path, **auth)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path, **auth)
        body = ""
        if response.status_code != 200:
            body = response.content.decode(errors="replace")[:300]
        result[path] = {
            "status": response.status_code,
            "body": body,
            "bytes": len(response.content),
            "queries": [q["sql"] for q in ctx.captured_queries],
        }
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
